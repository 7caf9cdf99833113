"""What every screen is: a class with ``enter(*args)`` / ``exit()``, the flow and the services.

A screen is made once, when the app is, and entered and left as often as the player goes
there. It reaches the app only through ``ScreenServices`` (``self.services``) and the other
screens only by requests to the flow (``self.request``); the one open panel is the flow's,
so ``_panel`` closes the one before it whoever opened it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ...scene.ui.panel import Panel
    from ..services import ScreenServices
    from .flow import ScreenFlow


class Screen:
    """One state of the screen FSM: ``name`` is the state, ``enter``/``exit`` its handlers."""

    name: ClassVar[str]

    def __init__(self, flow: ScreenFlow, services: ScreenServices) -> None:
        self.flow = flow
        self.services = services

    def enter(self, *args) -> None:
        """Show the screen (the request's arguments are the screen's)."""

    def exit(self) -> None:
        """Take the screen down; by default its panel."""
        self._close()

    @property
    def state(self) -> str | None:
        """The flow's state now (None while a screen is being left or entered)."""
        return self.flow.state

    @property
    def panel(self) -> Panel | None:
        """The one open panel (the flow's)."""
        return self.flow.panel

    def request(self, state: str, *args):
        """Go to another screen (through the flow's declared transitions)."""
        return self.flow.request(state, *args)

    def _panel(self, *args, **kw) -> Panel:
        """Open this screen's panel in place of the one open now."""
        self._close()
        self.flow.panel = self.services.panel(*args, **kw)
        return self.flow.panel

    def _close(self) -> None:
        if self.flow.panel is not None:
            self.flow.panel.destroy()
            self.flow.panel = None

    def _esc(self, target: str | None) -> None:
        """Esc goes to ``target`` (nowhere when None)."""
        self.services.ignore("escape")
        if target:
            self.services.accept("escape", self.request, [target])
