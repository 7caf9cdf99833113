"""A small live view of a second table, in a corner of the window: your partner's hand in
a partnership game, played and animated as the main table plays yours.

``InsetView`` is a second ``TableScene`` (no room: the view is framed on the felt) under a
scene graph of its own, drawn by its own camera into an offscreen picture that a card in
the 2D layer shows left of the table, below the scores and the Sort row and above your
portrait: clear of your hand, your spread, the prompt, the buttons and the score lines at
any 16:9 size (it is laid out in the top-left anchor's units, as the scores are). The
picture is drawn only while something on it moves (and a few frames after), so a still
inset costs one textured card. It has its own animation queue, so its moves never lock
your input, and it learns each event redacted for its seat 0, as the main table does. A
gold edge frames it and a line under it names the two players and whose turn it is, or
how the hand ended.
"""

from __future__ import annotations

import math

from direct.gui.DirectGui import DirectFrame
from panda3d.core import (
    Camera,
    CardMaker,
    NodePath,
    PerspectiveLens,
    Texture,
    TextureStage,
)

from ...engine import redact
from ..ui import theme
from ..ui.hud import FITTED
from .animation import AnimationQueue
from .room import DARKEST
from .table import TableScene

# the view, in the top-left anchor's units (a unit is half the window's height)
LEFT, TOP, WIDTH, HEIGHT = 0.03, -0.5, 0.7, 0.6
LABEL_H = 0.125  # the two lines under it
EDGE = 0.008  # the gold edge's width
GOLD = (0.85, 0.68, 0.3, 1)
WIDE = 16 / 9
CAMERA_POS = (0.0, -44.0, 58.0)  # steeper than the main camera: the whole felt in a corner
CAMERA_LOOK = (0.0, -9.0, 0.0)
VFOV = 45.0
DRAW_AFTER = 3  # frames the picture is drawn after its last change (the last moves land)
SPREAD_SCALE = 0.74  # of the knock's rows' size on the main table
SPREAD_NEARER = -7.0  # cm: both rows moved toward the near side


class _Stage:
    """What a ``TableScene`` reads of the app, pointed at the inset's own graph, camera
    and 2D layer (its banners pop over the inset, not over your table)."""

    def __init__(self, base, render: NodePath, camera: NodePath, overlay: NodePath) -> None:
        self.loader = base.loader
        self.taskMgr = base.taskMgr
        self.win = base.win
        self.render = render
        self.camera = camera
        self.camLens = camera.node().getLens()
        self.aspect2d = overlay

    def setBackgroundColor(self, *colour) -> None:  # noqa: N802 - ShowBase's name
        """The inset's picture clears to its own colour (see ``InsetView``)."""


class InsetTable(TableScene):
    """The inset's table: framed from above for a view the shape of the inset, the knock's
    spread rows drawn smaller (their full size is for the main camera's wide view)."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.frame_spreads()

    def frame_spreads(self, shift: float = 0.0, scale: float = 1.0, aside: int = -1) -> None:
        super().frame_spreads(shift, scale * SPREAD_SCALE, aside)
        for anchor in self.anchor_melds:  # nearer: the view shows the hands' place too
            anchor.setY(anchor.getY() + SPREAD_NEARER)

    def _label_deadwood(self, seat: int, last_x: float) -> None:
        """No "Deadwood N" beside a spread: too small to read here (the line under the
        inset tells how the hand ended)."""
        self.deadwood_labels[seat].hide()

    def place_camera(self) -> None:
        self.base.camera.setPos(*CAMERA_POS)
        self.base.camera.lookAt(*CAMERA_LOOK)
        self.base.camLens.setNearFar(1.0, 1000.0)
        self.fit_lens()

    def fit_lens(self) -> None:
        half_v = math.tan(math.radians(VFOV / 2))
        hfov = math.degrees(2 * math.atan(half_v * WIDTH / HEIGHT))
        self.base.camLens.setFov(hfov, VFOV)


class InsetView:
    """A second table shown small in the window's left part; ``show_events`` plays a
    hand's events on it, ``rebuild`` shows another hand at once, ``set_label`` its line."""

    def __init__(self, base, speed: float, back: str, style: str, detail: str) -> None:
        self.base = base
        self.queue = AnimationQueue(speed)
        self.render = NodePath("inset-render")
        lens = PerspectiveLens()
        self.camera = self.render.attachNewNode(Camera("inset-camera", lens))
        self.root = base.a2dTopLeft.attachNewNode("inset")  # scaled down in narrow windows
        self.overlay = self.root.attachNewNode("inset-overlay")
        self.overlay.setPos(LEFT + WIDTH / 2, 0, TOP - HEIGHT / 2)
        self.overlay.setScale(HEIGHT / 2)  # the banners' aspect2d units, over the inset
        stage = _Stage(base, self.render, self.camera, self.overlay)
        self.scene = InsetTable(stage, self.queue, None, back, style, detail, room=False)
        self.texture = Texture("inset")
        self.buffer = self._buffer()
        self.frame = self._frame()
        self.picture = self._picture()
        self._fresh = DRAW_AFTER  # frames still to draw: the picture is not yet up to date
        self._visible = True
        self._uv = (0, 0, 0, 0)  # the texture's size and padding the picture is fitted to
        self._task = base.taskMgr.add(self._draw_when_changed, "inset-draw", sort=48)
        self.label = theme.text_line(
            self.frame, (LEFT + WIDTH / 2, TOP - HEIGHT - 0.05), 0.034, (1, 1, 0.92, 1), shadow=None
        )
        FITTED.add(self)
        self.fit()
        self.set_shown(False)  # until the table's screen shows the HUD

    def _pixels(self) -> tuple[int, int]:
        """The picture's size in the window's pixels, drawn 1:1."""
        win = self.base.win
        unit = max(1, win.getYSize()) / 2 * self.scale()  # pixels per unit of the inset
        return max(16, round(WIDTH * unit)), max(16, round(HEIGHT * unit))

    def scale(self) -> float:
        """1 at 16:9 and wider; narrower, the inset shrinks with the width (the table keeps
        its 16:9 width in view, so its cards come nearer the left edge)."""
        return min(1.0, self.base.getAspectRatio() / WIDE)

    def _buffer(self):
        """The offscreen picture the inset's camera draws into (before the window)."""
        w, h = self._pixels()
        buffer = self.base.win.makeTextureBuffer("inset", w, h, self.texture, False)
        buffer.setSort(-10)
        buffer.setClearColor((*DARKEST, 1))
        region = buffer.makeDisplayRegion()
        region.setCamera(self.camera)
        return buffer

    def _picture(self) -> NodePath:
        """The card in the 2D layer that shows the buffer's picture, inside the frame."""
        cm = CardMaker("inset-picture")
        cm.setFrame(LEFT, LEFT + WIDTH, TOP - HEIGHT, TOP)
        picture = self.frame.attachNewNode(cm.generate())
        picture.setTexture(self.texture)
        return picture

    def _draw_when_changed(self, task):
        """Each frame (after the intervals and the stacks moved things): draw the picture
        only while something on the inset moves and a frame or two after (a still inset
        costs the window one textured card, not a second table)."""
        if self.queue.busy:
            self._fresh = DRAW_AFTER
        self._fit_uv()
        drawing = self._visible and self._fresh > 0
        if self.buffer.isActive() != drawing:
            self.buffer.setActive(drawing)
        if drawing:
            self._fresh -= 1
        return task.cont

    def _fit_uv(self) -> None:
        """Show only the drawn part of the texture: a renderer may give the picture a
        power-of-two texture, the buffer's pixels in its lower left corner."""
        tex = self.texture
        size = (tex.getXSize(), tex.getYSize(), tex.getPadXSize(), tex.getPadYSize())
        if size == self._uv or not size[0] or not size[1]:
            return
        self._uv = size
        w, h, pad_x, pad_y = size
        self.picture.setTexScale(TextureStage.getDefault(), (w - pad_x) / w, (h - pad_y) / h)

    def changed(self) -> None:
        """Something on the inset changed: draw it again (from the next frame drawn)."""
        self._fresh = DRAW_AFTER
        if self._visible:
            self.buffer.setActive(True)

    def _frame(self) -> DirectFrame:
        """The gold edge round the view and the dark band under it, for the label."""
        x0, x1, y1, y0 = LEFT, LEFT + WIDTH, TOP, TOP - HEIGHT
        root = DirectFrame(parent=self.root, frameColor=(0, 0, 0, 0))
        bars = (
            (x0 - EDGE, x1 + EDGE, y1, y1 + EDGE),
            (x0 - EDGE, x1 + EDGE, y0 - LABEL_H - EDGE, y0 - LABEL_H),
            (x0 - EDGE, x0, y0 - LABEL_H, y1),
            (x1, x1 + EDGE, y0 - LABEL_H, y1),
        )
        for frame in bars:
            DirectFrame(parent=root, frameColor=GOLD, frameSize=frame)
        DirectFrame(
            parent=root, frameColor=(0.08, 0.06, 0.05, 1), frameSize=(x0, x1, y0 - LABEL_H, y0)
        )
        return root

    # -- where it is ---------------------------------------------------------------------
    def screen_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the view with its edge and label, on screen (-1..1)."""
        aspect, k = self.base.getAspectRatio(), self.scale()
        x0 = (-aspect + k * (LEFT - EDGE)) / aspect
        x1 = (-aspect + k * (LEFT + WIDTH + EDGE)) / aspect
        top = 1 + TOP * (1 - k)  # shrunk about its top edge (see ``fit``)
        return x0, top + k * (TOP - HEIGHT - LABEL_H - EDGE), x1, top + k * (TOP + EDGE)

    def contains(self, mpos: tuple[float, float]) -> bool:
        """Whether the pointer at ``mpos`` (-1..1) is over the inset (shown)."""
        x0, y0, x1, y1 = self.screen_box()
        return self.shown and x0 <= mpos[0] <= x1 and y0 <= mpos[1] <= y1

    def fit(self) -> None:
        """The inset's size for the window's shape, a picture of its new pixel size (kept
        1:1), drawn again."""
        k = self.scale()
        self.root.setScale(k)
        self.root.setZ(TOP * (1 - k))  # its top edge stays below the Sort row
        w, h = self._pixels()
        if (self.buffer.getXSize(), self.buffer.getYSize()) != (w, h):
            self.buffer.setSize(w, h)
        self.changed()

    # -- what it shows -------------------------------------------------------------------
    @property
    def shown(self) -> bool:
        return self._visible

    def set_shown(self, on: bool) -> None:
        """Shown with the HUD; hidden under menus (and costs nothing then)."""
        self._visible = on
        if on:
            self.root.show()
            self.changed()
        else:
            self.root.hide()
            self.buffer.setActive(False)

    def show_events(self, events, speed: float) -> None:
        """Play events of the inset's hand, each redacted for its seat 0."""
        self.queue.speed = speed
        for e in events:
            self.scene.show_event(redact(e, 0))
        self.changed()

    def rebuild(self, events) -> None:
        """Show another hand at once, as its events have it so far."""
        self.queue.clear()
        speed, self.queue.speed = self.queue.speed, 0
        try:
            self.show_events(events, 0)
            self.queue.finish_all()
        finally:
            self.queue.speed = speed
        self.scene._sync_stacks()  # the resting stock and pile as drawn from now on

    def set_looks(self, style: str, back: str, felt: str) -> None:
        """The cards' style and back and the felt (the Settings screen's, as the table's)."""
        changed = [
            self.scene.set_style(style),
            self.scene.set_back(back),
            self.scene.set_felt(felt),
        ]
        if any(changed):
            self.changed()

    def set_label(self, text: str, turn: int | None) -> None:
        """The line under the view, and the gold strip by the hand of the seat to move."""
        if self.label.getText() != text:
            self.label.setText(text)
        if turn != self.scene.turn:
            self.scene.mark_turn(turn)
            self.changed()

    def destroy(self) -> None:
        FITTED.discard(self)
        self.queue.clear()
        self.queue.on_idle.clear()
        self.base.taskMgr.remove(self._task)
        self._task = None
        self.scene.destroy()
        self.buffer.clearRenderTextures()
        self.base.graphicsEngine.removeWindow(self.buffer)
        self.buffer = None
        self.label.destroy()
        self.picture.removeNode()
        self.frame.destroy()
        self.overlay.removeNode()
        self.root.removeNode()
        self.camera.removeNode()
        self.render.removeNode()
