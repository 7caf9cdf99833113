"""The interface's look in one place: the typeface (shipped in ``fonts/``, DejaVu Sans
Condensed, licence beside it) and the colours of the framed buttons and panels.

``install(base)`` loads the font once and makes it the default of every ``TextNode`` and
DirectGui widget, before the splash draws its first word, so no text anywhere falls back to
Panda3D's bundled font. ``bold()`` is the same family's bold face (titles, the logo, banners).
"""

from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from panda3d.core import SamplerState, TextFont, TextNode

from .assets import asset_path, panda_filename

FONT_FILES = {"regular": "DejaVuSansCondensed.ttf", "bold": "DejaVuSansCondensed-Bold.ttf"}
LICENCE_FILE = "LICENSE-DejaVu.txt"
# glyphs are rasterised at this many pixels per text unit: a title at 1920x1080 (scale 0.14
# of half the screen height) is about 75 px tall, so they are drawn down, never up, and stay
# crisp; mipmaps keep small text smooth
PIXELS_PER_UNIT = 80
# Panda3D's own font puts lines 0.99 apart; the layouts were made for that spacing
LINE_HEIGHT = 1.0

_fonts: dict[str, TextFont] = {}


def _load(loader, face: str) -> TextFont:
    path = asset_path("fonts", FONT_FILES[face])
    if not path.is_file():
        raise FileNotFoundError(f"the interface font is missing: {path}")
    font = loader.loadFont(
        panda_filename(path).getFullpath(),
        pixelsPerUnit=PIXELS_PER_UNIT,
        minFilter=SamplerState.FT_linear_mipmap_linear,
        magFilter=SamplerState.FT_linear,
    )
    if not font.isValid():
        raise RuntimeError(f"the interface font could not be read: {path}")
    font.setLineHeight(LINE_HEIGHT)
    font.setPageSize(1024, 1024)  # few glyph pages: few textures to switch between
    return font


def install(base) -> TextFont:
    """Load the faces (once per process) and make the regular one every text's default."""
    for face in FONT_FILES:
        if face not in _fonts:
            _fonts[face] = _load(base.loader, face)
    TextNode.setDefaultFont(_fonts["regular"])
    DGG.setDefaultFont(_fonts["regular"])
    return _fonts["regular"]


def regular() -> TextFont:
    """The regular face (``install`` must have run)."""
    return _fonts["regular"]


def bold() -> TextFont:
    """The bold face, for titles, the logo and the table's banners."""
    return _fonts["bold"]


def fonts() -> tuple[TextFont, ...]:
    """Every face the interface uses (what a check of the texts compares against)."""
    return tuple(_fonts.values())
