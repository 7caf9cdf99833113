"""The menu screens' widgets: a panel with a title, text, buttons and one-line text fields.

The screens of ``gin3d.app.screens`` are built of them, and so is the tutorial's chapter menu.
A panel is opaque in a gold frame (``theme.panel_style``); its buttons take the keyboard:
Tab / Down and Shift-Tab / Up move a focus ring between them, Enter presses the one in it
(``focus.FocusRing``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from direct.gui.DirectGui import DirectEntry, DirectFrame, OnscreenText
from panda3d.core import TextNode, TransparencyAttrib

from . import theme
from .focus import FocusRing
from .hud import button, suitify
from .palette import GOLD


class Panel:
    """A centred panel with a title, lines of text and a column or row of buttons."""

    def __init__(
        self,
        base,
        title: str,
        width: float = 1.1,
        height: float = 0.9,
        pos: tuple[float, float] = (0, 0),
    ) -> None:
        self.base = base
        self.frame = DirectFrame(
            parent=base.aspect2d,
            frameSize=(-width, width, -height, height),
            pos=(pos[0], 0, pos[1]),
            **theme.panel_style(),
        )
        self.frame.setTransparency(TransparencyAttrib.MAlpha)  # its rounded corners
        self.width, self.height = width, height
        self.title = OnscreenText(
            parent=self.frame,
            text=suitify(title),
            pos=(0, height - 0.14),
            scale=0.085,
            fg=GOLD,
            shadow=(0, 0, 0, 1),
            mayChange=True,
            font=theme.bold(),
        )
        self.widgets: list = [self.title]
        self.buttons: dict[str, object] = {}
        self.focus = FocusRing(base, lambda: list(self.buttons.values()))
        self.pos = pos
        self.fit()

    def fit(self) -> None:
        """Shrink the panel (towards the centre) when the window is too narrow for it."""
        room = getattr(self.base, "a2dRight", 1.0) - 0.02  # half the width of aspect2d
        need = self.width + abs(self.pos[0])
        scale = min(1.0, room / need) if need > 0 else 1.0
        self.frame.setScale(scale)
        self.frame.setPos(self.pos[0] * scale, 0, self.pos[1] * scale)

    def text(
        self,
        text: str,
        y: float,
        scale: float = 0.05,
        x: float = 0.0,
        align=TextNode.ACenter,
        fg=(1, 1, 1, 1),
    ) -> OnscreenText:
        t = OnscreenText(
            parent=self.frame,
            text=suitify(text),
            pos=(x, y),
            scale=scale,
            fg=fg,
            align=align,
            mayChange=True,
            shadow=(0, 0, 0, 0.8),
        )
        self.widgets.append(t)
        return t

    def button(
        self,
        key: str,
        label: str,
        command: Callable,
        pos: tuple[float, float],
        scale: float = 0.06,
        **kw,
    ):
        b = button(self.frame, label, command, (pos[0], 0, pos[1]), scale=scale, **kw)
        self.buttons[key] = b
        self.widgets.append(b)
        return b

    def column(
        self,
        items: Sequence[tuple[str, str, Callable]],
        top: float,
        step: float = 0.13,
        scale: float = 0.062,
        x: float = 0.0,
    ) -> None:
        for i, (key, label, cmd) in enumerate(items):
            self.button(
                key,
                label,
                cmd,
                (x, top - i * step),
                scale=scale,
                frameSize=(-6.2, 6.2, -0.55, 1.05),
            )

    def remove(self, widget) -> None:
        """Take one text or button off the panel (a list's row that a refresh replaces)."""
        if widget in self.widgets:
            self.widgets.remove(widget)
        for key in [k for k, b in self.buttons.items() if b is widget]:
            del self.buttons[key]
        if not widget.isEmpty():
            widget.destroy()

    def destroy(self) -> None:
        """Free the panel's nodes now. Each text and button is removed itself, not only with
        the frame: a text kept by a closure (a count-up, a note) would otherwise keep the
        whole removed frame and its prepared vertex buffers alive, and the panel and its
        focus ring form a cycle that only a full garbage collection would break."""
        self.focus.destroy()
        self.focus.buttons = list  # the ring's lambda held the panel: no cycle left
        for widget in self.widgets:
            if not widget.isEmpty():
                widget.destroy()
        self.frame.destroy()
        self.widgets.clear()
        self.buttons.clear()


def entry(
    panel,
    key: str,
    text: str,
    pos: tuple[float, float],
    width: float = 14,
    scale: float = 0.045,
    command=None,
) -> DirectEntry:
    """A one-line text field on a panel (kept in ``panel.entries[key]``)."""
    e = DirectEntry(
        parent=panel.frame,
        initialText=text,
        scale=scale,
        width=width,
        pos=(pos[0], 0, pos[1]),
        numLines=1,
        focus=0,
        cursorKeys=1,
        frameColor=(0.95, 0.93, 0.86, 1),
        text_fg=(0.1, 0.08, 0.05, 1),
        command=command,
    )
    if not hasattr(panel, "entries"):
        panel.entries = {}
    panel.entries[key] = e
    panel.widgets.append(e)
    return e
