"""The game's title as a logo: "Gin Rummy" large in the theme's bold face, gold with a dark
edge, over a fan of cards cut from the card atlas (the splash, drawn before the atlas is
loaded, shows the words alone)."""

from __future__ import annotations

from panda3d.core import CardMaker, NodePath, Point2, TextNode, TransparencyAttrib

from ..tabletop.cards import CARD_H, CARD_W
from ..ui import theme
from ..ui.palette import GOLD

TITLE = "Gin Rummy"
FAN = ("JC", "QD", "KH", "AS")  # left to right, the ace of spades on top
FAN_SPREAD = 14.0  # degrees between neighbouring cards
EDGE = (0.16, 0.09, 0.02, 1)  # the title's outline


def title(parent, pos: tuple[float, float], scale: float, subtitle: str = "") -> NodePath:
    """The words: the title, and a line under it when ``subtitle`` is given."""
    root = parent.attachNewNode("logo-title")
    root.setPos(pos[0], 0, pos[1])
    words = TextNode("logo-words")
    words.setFont(theme.bold())
    words.setText(TITLE)
    words.setAlign(TextNode.ACenter)
    words.setTextColor(*GOLD)
    words.setShadow(0.05, 0.06)
    words.setShadowColor(0, 0, 0, 0.75)
    words_np = root.attachNewNode(words)
    words_np.setScale(scale)
    if subtitle:
        line = TextNode("logo-subtitle")
        line.setText(subtitle)
        line.setAlign(TextNode.ACenter)
        line.setTextColor(0.92, 0.95, 0.86, 1)
        line.setShadow(0.05, 0.05)
        line.setShadowColor(0, 0, 0, 0.8)
        sub = root.attachNewNode(line)
        sub.setScale(scale * 0.3)
        sub.setZ(-scale * 0.55)
    return root


def card_fan(parent, atlas, pos: tuple[float, float], height: float) -> NodePath:
    """A fan of ``FAN``'s faces from the card atlas, their lower edges on an arc about a
    point below them (as cards are held), the fan's foot at ``pos``."""
    root = parent.attachNewNode("logo-fan")
    radius = height * 0.9
    root.setPos(pos[0], 0, pos[1] - radius)
    w = height * CARD_W / CARD_H
    mid = (len(FAN) - 1) / 2
    for i, name in enumerate(FAN):
        u0, v0, u1, v1 = atlas.cards[name]
        cm = CardMaker(f"logo-{name}")
        cm.setFrame(-w / 2, w / 2, radius, radius + height)
        cm.setUvRange(Point2(u0, v0), Point2(u1, v1))
        card = root.attachNewNode(cm.generate())
        card.setTexture(atlas.texture)
        card.setTransparency(TransparencyAttrib.MAlpha)  # the cut corners
        card.setR((i - mid) * FAN_SPREAD)
        card.setBin("fixed", i)  # later cards over earlier ones
    return root


def show_logo(parent, atlas, pos: tuple[float, float], scale: float = 0.2) -> NodePath:
    """The fan with the title across its lower half, centred on ``pos``."""
    root = parent.attachNewNode("logo")
    root.setPos(pos[0], 0, pos[1])
    if atlas is not None:
        card_fan(root, atlas, (0, scale * 0.95), scale * 1.9)
    title(root, (0, 0), scale, "a game of cards on a 3D table")
    return root
