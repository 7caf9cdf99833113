"""Pick the rendering detail for the machine: full on a GPU, light on a software renderer.

Software rasterisers (Mesa llvmpipe/softpipe, Windows GDI) pay per pixel for texture
filtering, so there the table is drawn from vertex colours and textures use plain mipmaps.
"""

from __future__ import annotations

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
