"""A short note that slides in at the window's left edge and goes: an achievement earned.

The note stands in the band left of the centred panels, left of the stock, above the player's
hand and below the tutorial's narration, so it covers nothing the player must click, and it
takes no input (its frame is disabled: no mouse region). It slides and fades in, stays
``HOLD_S`` seconds, fades out and is removed; notes that come together follow one another.
Only the slide and the fade are intervals: the hold is a timer, so the window, still in
between, is not redrawn for it (``scene/window/frame_rate.py`` draws while an interval
plays or the scene graph changes).
"""

from __future__ import annotations

from collections import deque

from direct.gui.DirectGui import DGG, DirectFrame, OnscreenText
from direct.interval.IntervalGlobal import (
    Func,
    LerpColorScaleInterval,
    LerpPosInterval,
    Parallel,
    Sequence,
)
from panda3d.core import TextNode, TransparencyAttrib

from . import theme
from .palette import GOLD

WIDTH = 0.5  # the note's width (the band left of a panel 1.25 wide, in a 16:9 window)
MARGIN = 0.02  # from the window's left edge
TOP = -1.03  # its top edge, below the window's top: under the tutorial's narration panel,
# left of the stock and above the player's hand
IN_S, HOLD_S, OUT_S = 0.35, 4.0, 0.5
TASK = "achievement-toast-hold"


class Toasts:
    """The notes on screen: ``show(title, text)`` one now or after the one showing."""

    def __init__(self, base) -> None:
        self.base = base
        self.waiting: deque[tuple[str, str]] = deque()
        self.node: DirectFrame | None = None
        self.motion: Sequence | None = None
        self.shown: list[str] = []  # titles shown so far (the tests read it)

    @property
    def showing(self) -> bool:
        return self.node is not None

    def show(self, title: str, text: str) -> None:
        self.waiting.append((title, text))
        if self.node is None:
            self._next()

    def _next(self) -> None:
        if not self.waiting:
            return
        title, text = self.waiting.popleft()
        self.shown.append(title)
        frame = self.node = DirectFrame(
            parent=self.base.a2dTopLeft,
            state=DGG.DISABLED,  # no mouse region: clicks go to the table below
            **theme.panel_style(),
        )
        frame.setTransparency(TransparencyAttrib.MAlpha)
        y = -0.065
        for words, scale, fg, font in (
            ("Achievement earned", 0.028, (0.75, 0.85, 0.75, 1), None),
            (title, 0.04, GOLD, theme.bold() if theme.fonts() else None),
            (text, 0.03, (1, 1, 1, 1), None),
        ):
            line = OnscreenText(
                parent=frame,
                text=words,
                pos=(0.04, y),
                scale=scale,
                fg=fg,
                align=TextNode.ALeft,
                font=font,
                wordwrap=(WIDTH - 0.08) / scale,
                mayChange=True,  # its rows are counted to stack the next line below
            )
            rows = max(1, line.textNode.getNumRows())
            y -= rows * scale * 1.2 + 0.012
        bottom = y + scale * 0.6 - 0.03
        frame["frameSize"] = (0, WIDTH, bottom, 0)
        place = (MARGIN, 0, TOP)
        frame.setPos(MARGIN - WIDTH - 0.1, 0, TOP)
        frame.setColorScale(1, 1, 1, 0)
        self.motion = Sequence(
            Parallel(
                LerpPosInterval(frame, IN_S, place, blendType="easeOut"),
                LerpColorScaleInterval(frame, IN_S, (1, 1, 1, 1)),
            ),
            Func(self._hold),
        )
        self.motion.start()

    def _hold(self) -> None:
        self.motion = None
        self.base.taskMgr.doMethodLater(HOLD_S, self._fade, TASK)

    def _fade(self, task=None) -> None:
        self.base.taskMgr.remove(TASK)  # when faded before the hold is over
        if self.node is None:
            return
        self.motion = Sequence(
            LerpColorScaleInterval(self.node, OUT_S, (1, 1, 1, 0)),
            Func(self._gone),
        )
        self.motion.start()

    def _gone(self) -> None:
        self.motion = None
        if self.node is not None:
            self.node.destroy()
            self.node = None
        self._next()

    def clear(self) -> None:
        """Take every note away now (the window closes; a test moves on)."""
        self.waiting.clear()
        self.base.taskMgr.remove(TASK)
        if self.motion is not None:
            self.motion.pause()
            self.motion = None
        if self.node is not None:
            self.node.destroy()
            self.node = None
