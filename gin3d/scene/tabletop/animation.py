"""The animation queue: every engine event becomes an interval, played one after another.

Input is locked while anything is queued or playing. ``speed`` scales every duration;
0 means instant: each interval is finished at once when queued (used by tests and scripts).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from direct.interval.IntervalGlobal import Func, Interval, Sequence, Wait


class AnimationQueue:
    """FIFO of interval factories. Factories run when their turn comes, so they see the
    scene exactly as the previous animation left it."""

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self._pending: deque[Callable[[], Interval | None]] = deque()
        self._playing: Interval | None = None
        self._serial = 0
        self.on_idle: list[Callable[[], None]] = []

    @property
    def busy(self) -> bool:
        return bool(self._pending) or self._playing is not None

    def seconds(self, t: float) -> float:
        """A duration scaled by the animation speed setting."""
        return 0.0 if self.speed <= 0 else t / self.speed

    def add(self, factory: Callable[[], Interval | None]) -> None:
        """Queue a factory returning an interval (or None for an instant change)."""
        self._pending.append(factory)
        if self._playing is None:
            self._next()

    def call(self, fn: Callable[[], None]) -> None:
        """Queue a plain function call (runs in order with the animations)."""
        self.add(lambda: (fn(), None)[1])

    def wait(self, t: float) -> None:
        self.add(lambda: Wait(self.seconds(t)) if self.speed > 0 else None)

    def _next(self, from_done: bool = False) -> None:
        """Start the next queued interval. ``on_idle`` fires only when an animation that
        played over time has ended and nothing follows (never inside ``add``)."""
        while self._pending:
            ival = self._pending.popleft()()
            if ival is None:
                continue
            if self.speed <= 0:
                ival.finish()
                continue
            self._serial += 1
            seq = Sequence(ival, Func(self._done), name=f"anim-{self._serial}")
            self._playing = seq
            seq.start()
            return
        self._playing = None
        if from_done:
            for fn in list(self.on_idle):
                fn()

    def _done(self) -> None:
        self._playing = None
        self._next(from_done=True)

    def finish_all(self) -> None:
        """Jump every queued and playing animation to its end (skip button, tests)."""
        speed = self.speed
        self.speed = 0
        try:
            if self._playing is not None:
                playing, self._playing = self._playing, None
                playing.finish()
            self._next()
        finally:
            self.speed = speed

    def clear(self) -> None:
        """Drop everything queued (leaving a screen); the playing interval is finished."""
        self._pending.clear()
        if self._playing is not None:
            playing, self._playing = self._playing, None
            playing.pause()
