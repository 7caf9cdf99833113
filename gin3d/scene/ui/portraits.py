"""The players at the table: a round portrait for each seat with its name and score, the
computer's right of its hand at the top (the network table's chat stands at the left;
while a knock's spreads lie across the middle it steps aside), your badge left of your
hand; the portrait of the player to move glows.

The pictures are drawn by ``tools/make_ui.py``: one per computer level (each its own colour
and look), yours, and one for an opponent over the network. A seat's picture is chosen by
its name: the local seat is "you", a computer level's name (``players.opponent_name``) is
that level, anyone else a guest.
"""

from __future__ import annotations

from direct.gui.OnscreenImage import OnscreenImage
from panda3d.core import NodePath, TextNode, TransparencyAttrib

from ...players import levels, opponent_name
from . import theme
from .palette import GOLD

SITS_OUT = "sits out this hand"  # under the name of a three-player game's third player

RADIUS = 0.085  # the picture's radius, aspect2d units (31 px at 1280x720)
GLOW = 1.5  # the glow's size against the picture's
NAME_SCALE, SCORE_SCALE = 0.05, 0.044
LIT = (1.0, 0.82, 0.3, 1)  # the name of the player to move (the HUD's turn colour)
SOFT = (0.92, 0.95, 0.88, 1)
# where each seat's badge stands: (anchor, picture's x, y, text to the "right" or "below")
PLACES = {
    1: ("aspect2d", 0.66, 0.4, "right"),  # right of the far hand, above the pile
    0: ("a2dBottomLeft", 0.15, 0.5, "below"),  # left of your hand
}
BENCH = ("a2dLeftCenter", 0.15, 0.12, "right")  # a three-player game's one who sits out


def face_for(seat: int, name: str) -> str:
    """The picture for a seat: yours, a computer level's, or a guest's."""
    by_name = {opponent_name(level): level for level, _ in levels()}
    if name == "You" or (seat == 0 and name not in by_name):  # seat 0 is a computer only
        return "you"  # while you sit out a three-player hand (the table calls you "You")
    return by_name.get(name, "guest")


def picture(
    parent, face: str, pos: tuple[float, float], radius: float, lit: bool = False
) -> OnscreenImage:
    """A round portrait (``face``: a level, "you" or "guest") centred on ``pos``; ``lit``
    puts the gold glow behind it (the winner on the game-over sheet)."""
    if lit:
        glow = OnscreenImage(
            image=theme.texture("portrait_glow.png"),
            parent=parent,
            pos=(pos[0], 0, pos[1]),
            scale=radius * GLOW,
        )
        glow.setTransparency(TransparencyAttrib.MAlpha)
    image = OnscreenImage(
        image=theme.texture(f"portrait_{face}.png"),
        parent=parent,
        pos=(pos[0], 0, pos[1]),
        scale=radius,
    )
    image.setTransparency(TransparencyAttrib.MAlpha)
    return image


def trophy(parent, pos: tuple[float, float], half_height: float) -> OnscreenImage:
    """The tournament's trophy (``tools/make_trophy.py``), centred on ``pos``."""
    image = OnscreenImage(
        image=theme.texture("trophy.png"),
        parent=parent,
        pos=(pos[0], 0, pos[1]),
        scale=half_height,
    )
    image.setTransparency(TransparencyAttrib.MAlpha)
    return image


def set_picture(image: OnscreenImage, face: str) -> None:
    """Show another portrait in ``image`` (its place and size kept)."""
    image.setImage(theme.texture(f"portrait_{face}.png"))
    image.setTransparency(TransparencyAttrib.MAlpha)


class Badge:
    """One seat's portrait, name and score; ``lit`` shows the glow of the player to move."""

    def __init__(self, parent: NodePath, x: float, y: float, text_side: str) -> None:
        self.root = parent.attachNewNode("badge")  # shown with the HUD
        self.root.setPos(x, 0, y)
        self.body = self.root.attachNewNode("badge-body")  # stood aside for a knock's rows
        self.face = ""
        self.lit = False
        self.glow = OnscreenImage(
            image=theme.texture("portrait_glow.png"), parent=self.body, scale=RADIUS * GLOW
        )
        self.glow.setTransparency(TransparencyAttrib.MAlpha)
        self.glow.hide()
        self.picture = picture(self.body, "guest", (0, 0), RADIUS)
        # text centred below a badge at the screen's edge: "dealer" takes a line of its own
        # ("0 points  -  dealer" on one line ran off the left edge)
        self.mark_sep = "  -  " if text_side == "right" else "\n"
        if text_side == "right":
            x, y, align = RADIUS + 0.03, 0.012, TextNode.ALeft
            step = -0.058
        else:
            x, y, align = 0.0, -RADIUS - 0.058, TextNode.ACenter
            step = -0.052
        self.name = theme.text_line(self.body, (x, y), NAME_SCALE, GOLD, align, font=theme.bold())
        self.score = theme.text_line(self.body, (x, y + step), SCORE_SCALE, SOFT, align)

    def set(
        self, face: str, name: str, score: int, lit: bool, dealer: bool, note: str = ""
    ) -> None:
        if face != self.face:
            set_picture(self.picture, face)
            self.face = face
        self.name.setText(name)
        self.name["fg"] = LIT if lit else GOLD
        self.score.setText(
            f"{score} points"
            + (f"{self.mark_sep}dealer" if dealer else "")
            + (f"\n{note}" if note else "")
        )
        self.lit = lit
        if lit:
            self.glow.show()
        else:
            self.glow.hide()


class Portraits:
    """Both seats' badges, refreshed with the scores (``Hud.set_scores``)."""

    def __init__(self, base) -> None:
        self.base = base
        self.badges = {
            seat: Badge(getattr(base, anchor), x, y, side)
            for seat, (anchor, x, y, side) in PLACES.items()
        }
        anchor, x, y, side = BENCH
        self.bench = Badge(getattr(base, anchor), x, y, side)
        self.bench.body.hide()

    @property
    def roots(self) -> list[NodePath]:
        return [b.root for b in (*self.badges.values(), self.bench)]

    def update(
        self,
        names,
        scores,
        turn: int | None,
        dealer: int | None,
        bench: tuple[str, int] | None = None,
    ) -> None:
        """Both seats' badges; ``bench``: the name and score of a third player who sits
        this hand out (their own badge, at the left)."""
        for seat, badge in self.badges.items():
            badge.set(
                face_for(seat, names[seat]), names[seat], scores[seat], turn == seat, dealer == seat
            )
        if bench is None:
            self.bench.body.hide()
        else:
            name, score = bench
            self.bench.set(face_for(2, name), name, score, False, False, SITS_OUT)
            self.bench.body.show()
        # at a knock both spreads lie in rows across the middle, the far one where the
        # computer's badge stands: it steps aside until the next deal
        scene = getattr(self.base, "scene", None)
        far = self.badges[1].body
        if scene is not None and any(scene.spreads):
            far.hide()
        else:
            far.show()

    def show(self) -> None:
        for root in self.roots:
            root.show()

    def hide(self) -> None:
        for root in self.roots:
            root.hide()

    def destroy(self) -> None:
        """Free every badge's texts and pictures (their geometry with them), not only detach
        them: a Hud kept alive by a binding would otherwise keep its badges' vertex buffers,
        a game's worth at every new game."""
        for badge in (*self.badges.values(), self.bench):
            for widget in (badge.glow, badge.picture, badge.name, badge.score):
                widget.destroy()
            badge.root.removeNode()
