"""Frames for a real window: 60 a second while the picture changes, none while it is still.

A still screen (the menu once its camera has settled, the table waiting for a move) used to be
drawn again 5-6 times a second, an unchanged picture costing a tenth of a core on a software
renderer. Now the window is drawn only in the frames where something may have changed, and
for ``AFTER_S`` after the last change (a late text, the end of a fade); otherwise the window
is made inactive, so Panda3D's loop still reads input, runs tasks and serves the network,
at ``LOOK_HZ``, but culls and draws nothing. What counts as a change, checked each loop just
before drawing:

- the player's input: a button or key pressed or released, the pointer moved, the window
  resized or refocused;
- an animation: the table's queue busy, any interval playing, the camera moved;
- the scene graph: a node moved, shown, hidden, added or removed, or a text set anew (the
  bounds of ``render`` or ``render2d`` go stale);
- another output drawing (the partnership inset's picture, which the window shows);
- ``wake()``: code that changes the picture another way (the network's events handled).

The first input after a still spell is seen within one look (1/``LOOK_HZ`` s) and answered in
the very next frame drawn. ``drawn`` counts the frames drawn (the status line reports it).
What only readies a frame for drawing (the table's stacks and room) skips the frames not
drawn: it checks ``win.isActive()``.
"""

from __future__ import annotations

from collections import Counter

from direct.interval.IntervalManager import ivalMgr
from direct.showbase.DirectObject import DirectObject
from panda3d.core import (
    ClockObject,
    ConfigVariableDouble,
    GraphicsWindow,
    RenderState,
    TransformState,
)

BUSY_FPS = 60.0
LOOK_HZ = 20.0  # how often a still window looks for input (nothing drawn)
AFTER_S = 0.6  # frames keep coming this long after the last change
# Between frames Panda3D's clock sleeps, then spins the last ``sleep-precision`` seconds
# (0.01 by default: 10 ms of a core every frame, a third of a core at 30 looks a second).
# Drawing, a millisecond keeps the frames even; still, a look may come a little late.
SPIN_S = {True: 0.001, False: 0.0}
SWEEP_TASK = "garbageCollectStates"  # ShowBase's
INPUT_EVENT = "gin3d-input"  # thrown by the window's button thrower on every press/release


class FrameCap(DirectObject):
    """Decides, each loop before drawing, whether the window is drawn (see the module)."""

    def __init__(self, app) -> None:
        super().__init__()
        self.app = app
        self.clock = ClockObject.getGlobalClock()
        self.clock.setMode(ClockObject.MLimited)
        self.rate = 0.0
        self.drawn = 0  # frames drawn so far
        self.drawing = True  # whether this loop's frame is drawn
        self.woken: Counter[str] = Counter()  # what ended each still spell, by name
        self._why = "input"  # what last counted as a change
        now = self.clock.getRealTime()
        self.changed_at = now  # the picture's last change
        self.input_at = now  # the player's last input
        self.pointer: tuple[float, float] | None = None
        self.camera = None
        self.spin = ConfigVariableDouble("sleep-precision")
        self.spin.setValue(SPIN_S[True])
        self._set(BUSY_FPS)
        for thrower in app.buttonThrowers or ():
            node = thrower.node()
            node.setButtonDownEvent(INPUT_EVENT)
            node.setButtonUpEvent(INPUT_EVENT)
        self.accept(INPUT_EVENT, self._input)
        self.accept("window-event", self._input)
        # Panda3D's sweep of its render-state caches each frame: only in frames drawn (no
        # state is made while the picture is still)
        self.sweep = app.taskMgr.hasTaskNamed(SWEEP_TASK)
        app.taskMgr.remove(SWEEP_TASK)
        # after the movers (events, the controller, intervals: sort <= 20), before what
        # readies a frame for drawing (the table's stacks and room, the inset: 45-48), which
        # runs only in frames drawn
        app.taskMgr.add(self._tick, "frame-cap", sort=44)

    def _set(self, fps: float) -> None:
        if fps != self.rate:
            self.rate = fps
            self.clock.setFrameRate(fps)

    # -- what counts as a change --------------------------------------------------------
    def _input(self, *_args) -> None:
        self.input_at = self.changed_at = self.clock.getRealTime()
        self._why = "input"

    def wake(self) -> None:
        """The picture changed in a way the checks below do not see: draw it."""
        self.changed_at = self.clock.getRealTime()
        self._why = "wake"

    def quiet_for(self) -> float:
        """Seconds since the player last touched the mouse or the keyboard."""
        return self.clock.getRealTime() - self.input_at

    def _pointer_moved(self) -> bool:
        watcher = self.app.mouseWatcherNode
        if watcher is None or not watcher.hasMouse():
            return False
        pointer = (watcher.getMouseX(), watcher.getMouseY())
        moved = pointer != self.pointer
        self.pointer = pointer
        return moved

    def _camera_moved(self) -> bool:
        mat = self.app.camera.getMat(self.app.render)
        moved = self.camera is None or mat != self.camera
        self.camera = mat
        return moved

    def _graph_changed(self) -> bool:
        """A node moved, came, went or changed its geometry since the last look (its root's
        bounds went stale); the bounds are brought up to date for the next look."""
        stale = False
        for root in (self.app.render, self.app.render2d):
            node = root.node()
            if node.isBoundsStale():
                stale = True
                node.getBounds()
        return stale

    def _other_output_drawing(self) -> bool:
        engine = self.app.graphicsEngine
        win = self.app.win
        return any(
            engine.getWindow(i) != win and engine.getWindow(i).isActive()
            for i in range(engine.getNumWindows())
        )

    def changing(self) -> str | None:
        """What may change the picture in this loop's frame, or None (every check runs, so
        each keeps its own last look up to date)."""
        app = self.app
        checks = {
            "pointer": self._pointer_moved(),
            "camera": self._camera_moved(),
            "graph": self._graph_changed(),
            "queue": bool(app.queue.busy),
            "interval": ivalMgr.getNumIntervals() > 0,
            "output": self._other_output_drawing(),
        }
        if checks["pointer"]:
            self.input_at = self.clock.getRealTime()
        return next((name for name, changed in checks.items() if changed), None)

    # -- each loop ----------------------------------------------------------------------
    def _tick(self, task):
        now = self.clock.getRealTime()
        why = self.changing()
        if why:
            self.changed_at, self._why = now, why
        drawing = now - self.changed_at < AFTER_S
        if drawing != self.drawing:
            if drawing:
                self.woken[self._why] += 1
            self.drawing = drawing
            self.app.win.setActive(drawing)
            self.spin.setValue(SPIN_S[drawing])
            self._set(BUSY_FPS if drawing else LOOK_HZ)
        if drawing:
            self.drawn += 1
            if self.sweep:
                TransformState.garbageCollect()
                RenderState.garbageCollect()
        return task.cont

    @property
    def still(self) -> bool:
        """Nothing is being drawn: the picture on screen is the newest."""
        return not self.drawing

    def destroy(self) -> None:
        self.ignoreAll()
        self.app.taskMgr.remove("frame-cap")


def install(app) -> FrameCap | None:
    """Manage the frames of an on-screen window (offscreen tests and benches step frames
    themselves and draw every one)."""
    return FrameCap(app) if isinstance(app.win, GraphicsWindow) else None
