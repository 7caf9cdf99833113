"""Keyboard focus for a screen's buttons: a gold ring that Tab / Down and Shift-Tab / Up move
from button to button (in the order the screen made them), and Enter or Space presses.

Nothing is in focus until a key asks for it, so a screen's own Enter (the hand result's
"next hand") keeps working for a player who never touches Tab. Keys typed into a text field
are the field's, not the ring's.
"""

from __future__ import annotations

from collections.abc import Callable

from direct.gui.DirectGui import DGG, DirectFrame
from direct.showbase.DirectObject import DirectObject
from panda3d.core import TransparencyAttrib

from . import theme

MOVES = {"tab": 1, "arrow_down": 1, "shift-tab": -1, "arrow_up": -1}
PRESS = ("enter", "space")


class FocusRing(DirectObject):
    """The focus ring over one screen's buttons (``buttons()`` lists them in order)."""

    def __init__(self, base, buttons: Callable[[], list]) -> None:
        self.base = base
        self.buttons = buttons
        self.focused = None  # the button in the ring, or None
        self.ring: DirectFrame | None = None
        for key, step in MOVES.items():
            self.accept(key, self.move, [step])
        for key in PRESS:
            self.accept(key, self.press)

    def choices(self) -> list:
        """The buttons the ring can rest on: shown and not disabled, in order."""
        return [
            b
            for b in self.buttons()
            if not b.isEmpty() and not b.isHidden() and b["state"] != DGG.DISABLED
        ]

    def _typing(self) -> bool:
        return any(np.node().getFocus() for np in self.base.aspect2d.findAllMatches("**/+PGEntry"))

    def move(self, step: int) -> None:
        """Put the ring on the next (``step`` 1) or previous (-1) button, wrapping round."""
        if self._typing():
            return
        choices = self.choices()
        if not choices:
            return
        if self.focused in choices:
            i = (choices.index(self.focused) + step) % len(choices)
        else:
            i = 0 if step > 0 else len(choices) - 1
        self.show(choices[i])

    def show(self, b) -> None:
        """Draw the ring around button ``b`` (just outside its frame, above it)."""
        if self.ring is not None:
            self.ring.destroy()
        self.focused = b
        left, right, bottom, top = b.guiItem.getFrame()  # the frame as drawn
        m = theme.RING_MARGIN
        self.ring = DirectFrame(
            parent=b,
            relief=DGG.TEXTUREBORDER,
            frameTexture=theme.texture("ui_focus.png"),
            frameColor=theme.PLAIN,
            borderUvWidth=theme.RING_BORDER,
            borderWidth=theme.RING_BORDER_WIDTH,
            frameSize=(left - m, right + m, bottom - m, top + m),
            state=DGG.DISABLED,  # it takes no clicks: they go to the button
        )
        self.ring.setTransparency(TransparencyAttrib.MAlpha)
        self.ring.setBin("gui-popup", 10)

    def press(self) -> None:
        """Press the button in the ring (as a click would)."""
        b = self.focused
        if b is None or self._typing() or b not in self.choices():
            return
        b.commandFunc(None)

    def destroy(self) -> None:
        self.ignoreAll()
        if self.ring is not None and not self.ring.isEmpty():
            self.ring.destroy()
        self.ring = None
        self.focused = None
