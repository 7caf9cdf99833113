"""Fit the rendering to the machine: one look everywhere, sampled the way the renderer can pay.

Every renderer gets the ``full`` table (textured felt and wood, the rounded rim, the room);
``light`` (vertex colours, no table textures) is there only when asked for, for very weak
machines. What a software rasteriser (Mesa llvmpipe/softpipe, Windows GDI) cannot pay for is
anisotropic filtering: on llvmpipe trilinear 4x anisotropic filtering of the felt, the wood
and the card atlas cost about 50 ms a frame at 1280x720, the whole table drawn the cheap way
about 7 ms (docs/scene.md has the figures). So there every texture is sampled from the
nearest mipmap level, bilinear, without anisotropy (``CHEAP``), the felt unfiltered (``RAW``);
a GPU gets trilinear 4x anisotropic filtering (``SHARP``). Software renderers also pay for
every sample of a multisampled framebuffer (clearing, resolving, reading back four samples
a pixel), so ``fit_framebuffer`` reopens such a window without them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from panda3d.core import (
    AntialiasAttrib,
    FrameBufferProperties,
    GraphicsWindow,
    NodePath,
    SamplerState,
    Texture,
    WindowProperties,
)

from ...paths import read_json, renderer_path, write_atomic

SOFTWARE_NAMES = ("llvmpipe", "softpipe", "swrast", "software", "gdi generic", "swiftshader")


def is_software(base) -> bool:
    gsg = base.win.getGsg() if base.win is not None else None
    if gsg is None:
        return False
    text = f"{gsg.getDriverVendor()} {gsg.getDriverRenderer()}".lower()
    return any(name in text for name in SOFTWARE_NAMES)


DETAILS = ("auto", "full", "light")


@dataclass(frozen=True)
class Filtering:
    """How a texture is sampled (minfilter: drawn smaller than it is; magfilter: larger)."""

    minfilter: SamplerState.FilterType
    anisotropy: int  # 0 or 1: none
    magfilter: SamplerState.FilterType = SamplerState.FT_linear


SHARP = Filtering(SamplerState.FT_linear_mipmap_linear, 4)  # a GPU: trilinear, 4x anisotropic
CHEAP = Filtering(SamplerState.FT_linear_mipmap_nearest, 0)  # nearest mip level, bilinear
# no filtering at all: for the felt on a software renderer, a fine noise drawn near 1:1 (its
# 256-texel tile is 160-240 px wide at 1280x720-1920x1080), where filtering shows nothing
# and costs half of what drawing the felt textured costs there
RAW = Filtering(SamplerState.FT_nearest, 0, SamplerState.FT_nearest)


def choose_detail(base, detail: str = "auto") -> str:
    """``full`` or ``light``; ``auto`` is ``full`` on every renderer (the software ones too,
    now that their textures are sampled the way they can pay, see ``choose_filtering``)."""
    if detail not in DETAILS:
        raise ValueError(f"detail must be auto, full or light, got {detail!r}")
    return "full" if detail == "auto" else detail


def add_detail_option(parser, default: str = "auto") -> None:
    """The ``--detail`` option of the game, the screenshot tool and the scene bench."""
    parser.add_argument(
        "--detail",
        default=default,
        choices=DETAILS,
        help="the table's detail: full (textured table and room; auto is full on every "
        "renderer) or light (flat colours, for very weak machines)",
    )


def choose_filtering(base, detail: str = "full") -> Filtering:
    """``CHEAP`` on a software renderer or at light detail, ``SHARP`` otherwise."""
    return CHEAP if detail == "light" or is_software(base) else SHARP


def felt_filtering(filtering: Filtering) -> Filtering:
    """The felt's own: unfiltered where the other textures get the cheap filtering."""
    return RAW if filtering == CHEAP else filtering


def apply_filtering(texture: Texture, filtering: Filtering) -> None:
    texture.setMagfilter(filtering.magfilter)
    texture.setMinfilter(filtering.minfilter)
    texture.setAnisotropicDegree(filtering.anisotropy)


def filter_model(model: NodePath, filtering: Filtering) -> None:
    """Every texture a loaded model uses, sampled as ``filtering`` says (a model's egg file
    asks for 4x anisotropy, which only a GPU affords). The model gets its own copies: the
    loader's pool shares a texture with every later load of a model that names it, and such
    a load puts the egg file's sampling back on it."""
    for texture in model.findAllTextures():
        own = private_texture(texture)
        apply_filtering(own, filtering)
        model.replaceTexture(texture, own)


def private_texture(texture: Texture) -> Texture:
    """A copy of a pooled texture (same image) whose sampling nobody else changes."""
    return texture.makeCopy()


def software_last_time(path: Path | None = None) -> bool:
    """Whether the last on-screen window found a software renderer (then the next one is
    opened without multisampling at once, not opened with it and reopened: a second
    window cost about 0.1 s of every start there). False when nothing was noted."""
    try:
        noted = read_json(path or renderer_path())
    except (OSError, ValueError):
        return False
    return isinstance(noted, dict) and noted.get("software") is True


def note_renderer(base, path: Path | None = None) -> None:
    """Keep what an on-screen window found about its renderer for the next start (a new
    GPU driver is seen at the next start: the one after asks for multisampling again)."""
    gsg = base.win.getGsg() if isinstance(base.win, GraphicsWindow) else None
    if gsg is None:
        return
    noted = {"software": is_software(base), "renderer": gsg.getDriverRenderer()}
    try:
        write_atomic(path or renderer_path(), json.dumps(noted))
    except OSError:
        pass  # a read-only home: the next start reopens the window, as before


def fit_framebuffer(base) -> str:
    """Make the antialiasing setting do what it costs: on a GPU a multisampled window gets
    multisampled drawing (Panda3D leaves it off otherwise); on a software renderer, where
    four samples a pixel cost about as much as the whole empty frame, the main window is
    reopened without them (before anything is loaded into it), and the renderer is noted
    so that the next start asks for none (``window_prc``). Returns what was done:
    ``"multisample"``, ``"reopened"`` or ``"none"``."""
    win = base.win
    note_renderer(base)
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
