"""A frame-rate cap for a real window: smooth while anything moves, frugal while idle.

Uncapped, the idle menu drew 200 frames a second and kept more than a core of a software
renderer busy, for a picture that hardly changes. The cap follows what is on screen: while an
animation plays, an interval runs or the pointer moves, frames come at ``BUSY_FPS``; when the
table or a menu just waits for the player, at ``IDLE_FPS`` (the menu's slow camera drift
still looks smooth at that rate, and the first move of the pointer brings the busy rate
back within a frame). A still screen (the table waiting for a move) needs fewer frames than
one whose camera drifts (the menu): ``STILL_FPS``. On llvmpipe a frame of the textured table
and its room costs about 45 ms of CPU (its threads together): at 15 fps the idle menu and
table took half a core; at 6 and 5 fps about a quarter and a fifth.
"""

from __future__ import annotations

from direct.interval.IntervalManager import ivalMgr
from panda3d.core import ClockObject

BUSY_FPS = 60.0
IDLE_FPS = 6.0  # a screen that waits while its camera drifts (the menu)
STILL_FPS = 5.0  # a screen that waits and nothing on it moves (the table, a panel)
DRIFTS = ("menu-camera-sway",)  # the tasks that move the camera while nothing else does
POINTER_GRACE = 0.5  # seconds after the pointer last moved that count as busy


class FrameCap:
    """Switches the global clock's frame limit between the busy and the idle rate."""

    def __init__(self, app) -> None:
        self.app = app
        self.clock = ClockObject.getGlobalClock()
        self.clock.setMode(ClockObject.MLimited)
        self.rate = 0.0
        self.pointer = None
        self.pointer_moved = 0.0
        self._set(BUSY_FPS)
        app.taskMgr.add(self._tick, "frame-cap", sort=60)

    def _set(self, fps: float) -> None:
        if fps != self.rate:
            self.rate = fps
            self.clock.setFrameRate(fps)

    def busy(self) -> bool:
        app = self.app
        now = self.clock.getFrameTime()
        watcher = app.mouseWatcherNode
        if watcher is not None and watcher.hasMouse():
            pointer = (watcher.getMouseX(), watcher.getMouseY())
            if pointer != self.pointer:
                self.pointer, self.pointer_moved = pointer, now
        return (
            app.queue.busy
            or ivalMgr.getNumIntervals() > 0
            or now - self.pointer_moved < POINTER_GRACE
        )

    def _tick(self, task):
        if self.busy():
            self._set(BUSY_FPS)
        else:
            drifting = any(self.app.taskMgr.hasTaskNamed(name) for name in DRIFTS)
            self._set(IDLE_FPS if drifting else STILL_FPS)
        return task.cont


def install(app) -> FrameCap | None:
    """Cap the frame rate of an on-screen window (offscreen tests and benches step frames
    themselves and stay uncapped)."""
    win = getattr(app, "win", None)
    if win is None or not hasattr(win, "getProperties"):
        return None
    return FrameCap(app)
