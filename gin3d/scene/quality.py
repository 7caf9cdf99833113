"""Pick the rendering detail for the machine: full on a GPU, light on a software renderer.

Software rasterisers (Mesa llvmpipe/softpipe, Windows GDI) pay per pixel for texture
filtering, so there the table is drawn from vertex colours and textures use plain mipmaps.
They also pay for every sample of a multisampled framebuffer (clearing, resolving, reading
back four samples a pixel), so ``fit_framebuffer`` reopens such a window without them.
"""

from __future__ import annotations

from panda3d.core import AntialiasAttrib, FrameBufferProperties, WindowProperties

SOFTWARE_NAMES = ("llvmpipe", "softpipe", "swrast", "software", "gdi generic", "swiftshader")


def is_software(base) -> bool:
    gsg = base.win.getGsg() if base.win is not None else None
    if gsg is None:
        return False
    text = f"{gsg.getDriverVendor()} {gsg.getDriverRenderer()}".lower()
    return any(name in text for name in SOFTWARE_NAMES)


def choose_detail(base, detail: str = "auto") -> str:
    """``full`` or ``light``; ``auto`` decides from the renderer."""
    if detail not in ("auto", "full", "light"):
        raise ValueError(f"detail must be auto, full or light, got {detail!r}")
    if detail != "auto":
        return detail
    return "light" if is_software(base) else "full"


def fit_framebuffer(base) -> str:
    """Make the antialiasing setting do what it costs: on a GPU a multisampled window gets
    multisampled drawing (Panda3D leaves it off otherwise); on a software renderer, where
    four samples a pixel cost about as much as the whole empty frame, the main window is
    reopened without them (before anything is loaded into it). Returns what was done:
    ``"multisample"``, ``"reopened"`` or ``"none"``."""
    win = base.win
    if win is None or win.getFbProperties().getMultisamples() <= 0:
        return "none"
    if not is_software(base):
        base.render.setAntialias(AntialiasAttrib.MMultisample)
        return "multisample"
    fbprops = FrameBufferProperties(win.getFbProperties())
    fbprops.setMultisamples(0)
    props = WindowProperties(win.getProperties()) if hasattr(win, "getProperties") else None
    base.openMainWindow(fbprops=fbprops, props=props, keepCamera=True)
    return "reopened"


def trim_clears(base) -> None:
    """The 2D overlay is drawn without depth testing, so clearing the depth buffer again
    before it (ShowBase's default) is work for nothing: one full-screen pass fewer."""
    for cam in (base.cam2d, getattr(base, "cam2dp", None)):
        if cam is None:
            continue
        for i in range(cam.node().getNumDisplayRegions()):
            cam.node().getDisplayRegion(i).setClearDepthActive(False)
