"""What the tutorial draws over the table to teach: the narration panel and the arrow.

The panel is 2D and always drawn over the 3D table, so the arrow pointing at the card a step
talks about is placed where the panel leaves it in sight: moved along the card's top edge
until the arrow (all of its bob) clears the panel, judged with the camera where its move
ends (it glides there while the arrow already stands).
"""

from __future__ import annotations

from collections.abc import Callable

from direct.gui.DirectGui import DGG, DirectFrame
from direct.interval.IntervalGlobal import LerpPosInterval, Sequence
from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    NodePath,
    Point2,
    Point3,
    Quat,
    TextNode,
    TransparencyAttrib,
)

from ..tabletop.cards import CARD_W
from ..ui import theme
from ..ui.hud import FITTED, button, suitify
from ..ui.palette import GOLD

ARROW_HALF_WIDTH = 1.6  # the head's half width, in the arrow's own units
ARROW_LENGTH = 5.0  # tip (at its origin) to tail
ARROW_SCALE = 0.9
BOB = 1.2  # how far the arrow rises and falls over its target
# how far along a card's top edge the arrow may move to clear the panel (either side of the
# middle, in card widths: it still points into the card)
SLIDES = (0.0, 0.15, -0.15, 0.3, -0.3, 0.42, -0.42)
CLEARANCE = 0.02  # screen units (-1..1) kept between the arrow and the panel

Box = tuple[float, float, float, float]


def apart(a: Box, b: Box) -> bool:
    """Whether two screen boxes (x0, y0, x1, y1) do not overlap."""
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


# how far right of the window's middle the panel may reach at most (units of the 2D layer,
# at 16:9): to a little left of the stock's left edge (0.42 reached 0.12 over it)
CLEAR_OF_STOCK = 0.58


class NarrationPanel:
    """The lesson's text, the why-not line, the prompt and the Back/Next buttons; the panel
    grows and shrinks with its text so it covers as little of the table as it can."""

    WIDTH = 0.9
    TOP = 0.6  # below the HUD's score lines and sort buttons
    # the local hand's top edge lies at the window's middle (the camera frames it so at any
    # shape): a panel with more text than fits above it is drawn smaller, not over the cards
    BOTTOM = 0.03

    def __init__(
        self,
        base,
        on_back: Callable[[], None],
        on_next: Callable[[], None],
        on_chapters: Callable[[], None],
    ) -> None:
        FITTED.add(self)
        self.base = base
        w = self.WIDTH
        self.frame = DirectFrame(
            parent=base.a2dLeftCenter,
            frameColor=(0.04, 0.07, 0.05, 0.9),
            relief=DGG.FLAT,
            frameSize=(0, w, -0.3, self.TOP),
            pos=(0.03, 0, 0),
        )
        self.texts = []
        for name, scale, colour in (
            ("title", 0.038, GOLD),
            ("body", 0.044, (1, 1, 1, 1)),
            ("why", 0.04, (1, 0.72, 0.45, 1)),
            ("prompt", 0.041, (0.6, 0.9, 1, 1)),
        ):
            text = theme.text_line(
                self.frame,
                (0.035, 0),
                scale,
                colour,
                TextNode.ALeft,
                (0, 0, 0, 0.7),
                wordwrap=(w - 0.07) / scale,
            )
            setattr(self, name, text)
            self.texts.append((text, scale))
        self.buttons = {
            "back": button(self.frame, "Back", on_back, (0.1, 0, 0), scale=0.042),
            "next": button(self.frame, "Next (Space)", on_next, (0.43, 0, 0), scale=0.042),
            "chapters": button(self.frame, "Chapters", on_chapters, (0.77, 0, 0), scale=0.038),
        }

    def set(self, title: str, body: str, prompt: str, why: str = "") -> None:
        self.title.setText(suitify(title))
        self.body.setText(suitify(body))
        self.prompt.setText(suitify(prompt))
        self.why.setText(suitify(why))
        self._arrange()

    def set_why(self, text: str) -> None:
        self.why.setText(suitify(text))
        self._arrange()

    def fit(self) -> None:
        self._arrange()

    def _arrange(self) -> None:
        """Stack the texts from the top, then the buttons, and fit the frame around them. Text
        too long for the room above the hand first gets a wider panel (up to just left of the
        stock and the opponent's hand), then is drawn smaller."""
        right = getattr(self.base, "a2dRight", 16 / 9)
        widest = right - 0.03 - CLEAR_OF_STOCK * min(1.0, right / (16 / 9))
        for width in (self.WIDTH, max(self.WIDTH, widest)):
            bottom = self._stack(width)
            if bottom >= self.BOTTOM:
                break
        shrink = min(1.0, (self.TOP - self.BOTTOM) / (self.TOP - bottom))
        self.frame.setScale(shrink)
        self.frame.setZ(self.TOP * (1.0 - shrink))  # the top edge stays where it was

    def _stack(self, width: float) -> float:
        """Lay the panel out ``width`` wide; returns its bottom edge."""
        y = self.TOP - 0.07
        for text, scale in self.texts:
            text.setWordwrap((width - 0.07) / scale)
            rows = text.textNode.getNumRows() if text.getText() else 0
            if not rows:
                continue
            text.setPos(0.035, y)
            y -= rows * scale * 1.15 + 0.035
        y -= 0.03
        for b, x in zip(self.buttons.values(), (0.1, 0.43, 0.77)):
            b.setPos(x * width / self.WIDTH, 0, y)
        self.frame["frameSize"] = (0, width, y - 0.06, self.TOP)
        return y - 0.06

    def screen_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the panel on screen, in ``render2d`` units (-1..1)."""
        left, right, bottom, top = self.frame["frameSize"]
        render2d = self.base.render2d
        corners = [
            render2d.getRelativePoint(self.frame, Point3(x, 0, z))
            for x in (left, right)
            for z in (bottom, top)
        ]
        xs, zs = [p.x for p in corners], [p.z for p in corners]
        return min(xs), min(zs), max(xs), max(zs)

    def destroy(self) -> None:
        FITTED.discard(self)
        self.frame.destroy()


def _arrow_node() -> NodePath:
    """A flat arrow pointing down (-Z), drawn unlit on top: the "look here" marker."""
    vdata = GeomVertexData("arrow", GeomVertexFormat.getV3c4(), Geom.UHStatic)
    vw, cw = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
    points = [
        (-ARROW_HALF_WIDTH, 0, 2.2),
        (ARROW_HALF_WIDTH, 0, 2.2),
        (0, 0, 0),
        (-0.55, 0, 2.2),
        (0.55, 0, 2.2),
        (0.55, 0, ARROW_LENGTH),
        (-0.55, 0, ARROW_LENGTH),
    ]
    for x, y, z in points:
        vw.addData3(x, y, z)
        cw.addData4(1.0, 0.78, 0.2, 1.0)
    tris = GeomTriangles(Geom.UHStatic)
    for a, b, c in ((0, 2, 1), (3, 4, 5), (3, 5, 6)):
        tris.addVertices(a, b, c)
        tris.addVertices(a, c, b)  # both sides
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode("tutorial-arrow")
    node.addGeom(geom)
    np = NodePath(node)
    np.setLightOff(1)
    np.setTransparency(TransparencyAttrib.MAlpha)
    np.setBin("fixed", 10)
    np.setDepthTest(False)
    np.setDepthWrite(False)
    return np


class Pointer:
    """The bobbing arrow over the first thing a step talks about, kept clear of the panel."""

    def __init__(self, base, parent: NodePath, panel: NarrationPanel) -> None:
        self.base = base
        self.panel = panel
        self.np = _arrow_node()
        self.np.reparentTo(parent)
        self.np.hide()
        self.bob: Sequence | None = None
        self.bob_base = Point3(0, 0, 0)  # the tip's lowest place, where the bob starts

    def point_at(self, spot: Point3, camera_goal: tuple[Point3, Quat], animate: bool) -> None:
        """Stand the arrow's tip at ``spot`` (or beside it, clear of the panel, as seen by a
        camera at ``camera_goal``: its position and turn) and bob it if ``animate``."""
        spot = self._clear_of_panel(spot, camera_goal)
        if not self.np.isHidden() and (self.np.getPos() - spot).length() <= 0.5:
            return  # already there: the bob goes on undisturbed
        self.stop()
        self.np.setPos(spot)
        self.bob_base = spot
        self.np.setScale(ARROW_SCALE)
        self.np.setBillboardAxis()
        self.np.show()
        if animate:
            self.bob = Sequence(
                LerpPosInterval(self.np, 0.5, spot + Point3(0, 0, BOB), blendType="easeOut"),
                LerpPosInterval(self.np, 0.5, spot, blendType="easeIn"),
            )
            self.bob.loop()

    def _clear_of_panel(self, spot: Point3, camera_goal: tuple[Point3, Quat]) -> Point3:
        """``spot`` slid along the table's x (up to ``SLIDES`` card widths) until the arrow
        and its bob are clear of the panel on screen; ``spot`` itself if no slide clears it."""
        x0, y0, x1, y1 = self.panel.screen_box()
        panel = (x0 - CLEARANCE, y0 - CLEARANCE, x1 + CLEARANCE, y1 + CLEARANCE)
        eye = NodePath("tutorial-arrow-eye")  # the camera where its move ends
        eye.reparentTo(self.base.camera.getParent())
        eye.setPosQuat(*camera_goal)
        try:
            for slide in SLIDES:
                at = spot + Point3(slide * CARD_W, 0, 0)
                box = self._screen_box(eye, at)
                if box is not None and apart(panel, box):
                    return at
            return spot
        finally:
            eye.removeNode()

    def _screen_box(self, eye: NodePath, tip: Point3) -> Box | None:
        """The screen box of the arrow with its tip at ``tip`` through all of its bob, facing
        ``eye`` (it turns about its upright axis to face the camera); None if off screen."""
        parent = self.np.getParent()
        right = parent.getRelativeVector(eye, Point3(1, 0, 0))
        right.z = 0
        if right.length() == 0:
            return None
        right.normalize()
        half = right * ARROW_HALF_WIDTH * ARROW_SCALE
        tall = ARROW_LENGTH * ARROW_SCALE
        lens = self.base.camLens
        xs, ys = [], []
        for dz in (0.0, tall + BOB):
            for side in (-1, 1):
                corner = tip + half * side + Point3(0, 0, dz)
                film = Point2()
                if not lens.project(eye.getRelativePoint(parent, corner), film):
                    return None
                xs.append(film.x)
                ys.append(film.y)
        return min(xs), min(ys), max(xs), max(ys)

    def screen_box(self) -> Box | None:
        """Where the arrow is drawn through its bob (screen units, -1..1), None if hidden."""
        if self.np.isHidden():
            return None
        tip = self.bob_base if self.bob is not None else self.np.getPos()
        return self._screen_box(self.base.cam, tip)

    def stop(self) -> None:
        if self.bob is not None:
            self.bob.finish()
            self.bob = None

    def hide(self) -> None:
        self.np.hide()

    def destroy(self) -> None:
        self.stop()
        self.np.removeNode()
