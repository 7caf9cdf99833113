"""The interface's look in one place: the typeface (shipped in ``fonts/``, DejaVu Sans
Condensed, licence beside it) and the framed buttons and panels (their art is made by
``tools/make_ui.py``; each image is cut nine ways, so its corners keep their shape at any
size).

``install(base)`` loads the font once and makes it the default of every ``TextNode`` and
DirectGui widget, before the splash draws its first word, so no text anywhere falls back to
Panda3D's bundled font. ``bold()`` is the same family's bold face (titles, the logo, banners).
``text_line`` makes the lines of text the game fills in and changes (prompts, scores, names).
"""

from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import SamplerState, TextFont, TextNode, Texture

from ..media.assets import asset_path, panda_filename

FONT_FILES = {"regular": "DejaVuSansCondensed.ttf", "bold": "DejaVuSansCondensed-Bold.ttf"}
LICENCE_FILE = "LICENSE-DejaVu.txt"
# glyphs are rasterised at this many pixels per text unit: a title at 1920x1080 (scale 0.14
# of half the screen height) is about 75 px tall, so they are drawn down, never up, and stay
# crisp; mipmaps keep small text smooth
PIXELS_PER_UNIT = 80
GLYPH_MARGIN = 8  # pixels around each glyph on its page (see _load)
# Panda3D's own font puts lines 0.99 apart; the layouts were made for that spacing
LINE_HEIGHT = 1.0

# the art's nine-way cut: the part of each image (u, v) kept as its border, and how wide
# that border is drawn (in the widget's own units: a button's text is 1 high, a panel's in
# aspect2d units); tools/make_ui.py draws the corners inside these
BUTTON_BORDER = (0.2, 0.4)
BUTTON_BORDER_WIDTH = (0.3, 0.3)
PANEL_BORDER = (0.25, 0.25)
PANEL_BORDER_WIDTH = (0.075, 0.075)
RING_BORDER = (0.25, 0.5)
RING_BORDER_WIDTH = (0.55, 0.55)
RING_MARGIN = 0.3  # how far the focus ring stands outside its button (button units)
# DirectButton's states in its order (PGButton: ready, depressed, rollover, inactive)
BUTTON_STATES = ("normal", "pressed", "hover", "disabled")
INK = (0.16, 0.1, 0.03, 1)  # button labels
INK_DISABLED = (0.32, 0.31, 0.29, 1)
SELECTED = (1.0, 0.86, 0.45, 1)  # a button showing the choice in force (the sort order)
PLAIN = (1, 1, 1, 1)
SHADOW = (0, 0, 0, 0.9)  # the dark edge that keeps a line of text readable on the felt

_fonts: dict[str, TextFont] = {}
_textures: dict[str, Texture] = {}


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
    # Glyphs are drawn minified through mipmaps; each level halves the gap between
    # neighbours on the page, and with Panda3D's 2 pixels the next glyph bled into small
    # labels (a bar after the "A" of "5. A turn"). 8 keeps a texel apart down to the
    # level of the smallest text at 1280x720 (about 7x smaller than the page's).
    font.setTextureMargin(GLYPH_MARGIN)
    return font


def install(base) -> TextFont:
    """Load the faces (once per process) and make the regular one every text's default."""
    for face in FONT_FILES:
        if face not in _fonts:
            _fonts[face] = _load(base.loader, face)
    TextNode.setDefaultFont(_fonts["regular"])
    DGG.setDefaultFont(_fonts["regular"])
    return _fonts["regular"]


def texture(name: str) -> Texture:
    """One of the interface's images in textures/ (loaded once, clamped, smooth)."""
    tex = _textures.get(name)
    if tex is None:
        from direct.showbase import ShowBaseGlobal

        path = asset_path("textures", name)
        if not path.is_file():
            raise FileNotFoundError(f"the interface art is missing: {path}")
        tex = ShowBaseGlobal.base.loader.loadTexture(panda_filename(path))
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        tex.setMagfilter(SamplerState.FT_linear)
        _textures[name] = tex
    return tex


def button_style() -> dict:
    """DirectButton options for the framed button: one image per state (normal, pressed,
    hover, disabled: DirectButton's order), dark labels, greyed when disabled."""
    return dict(
        relief=DGG.TEXTUREBORDER,
        frameTexture=tuple(texture(f"ui_button_{s}.png") for s in BUTTON_STATES),
        frameColor=PLAIN,
        borderUvWidth=BUTTON_BORDER,
        borderWidth=BUTTON_BORDER_WIDTH,
        text_fg=INK,
        text3_fg=INK_DISABLED,
        # a button sized by its label adds the border to the pad: 0.6 x 0.35 around the
        # label in all, as the flat buttons had, so the layouts keep their spacing
        pad=(0.3, 0.05),
        text_scale=0.8,
    )


def panel_style() -> dict:
    """DirectFrame options for an opaque panel in a gold frame."""
    return dict(
        relief=DGG.TEXTUREBORDER,
        frameTexture=texture("ui_panel.png"),
        frameColor=PLAIN,
        borderUvWidth=PANEL_BORDER,
        borderWidth=PANEL_BORDER_WIDTH,
    )


def text_line(
    parent, pos, scale: float, fg, align=TextNode.ACenter, shadow=SHADOW, **kw
) -> OnscreenText:
    """A line of text the game fills in and changes later (``setText``), empty until then,
    with the interface's shadow unless ``shadow`` says otherwise (None: no shadow)."""
    return OnscreenText(
        parent=parent,
        text="",
        pos=pos,
        scale=scale,
        fg=fg,
        shadow=shadow,
        align=align,
        mayChange=True,
        **kw,
    )


def regular() -> TextFont:
    """The regular face (``install`` must have run)."""
    return _fonts["regular"]


def bold() -> TextFont:
    """The bold face, for titles, the logo and the table's banners."""
    return _fonts["bold"]


def fonts() -> tuple[TextFont, ...]:
    """Every face the interface uses (what a check of the texts compares against)."""
    return tuple(_fonts.values())
