"""The table and what opens over it: the pause menu and the yes/no question before a loss."""

from __future__ import annotations

from ...scene.control.nettable import NetSession
from .base import Screen


class TableScreen(Screen):
    """State ``Table``: the game in play, its HUD and input switched on."""

    name = "Table"

    def enter(self) -> None:
        self._close()
        session = self.services.session
        # unpause first: the input's refresh asks what is legal now, and a paused table
        # offers nothing (the prompt, the buttons and the glows stayed away after a pause)
        session.controller.set_paused(False)
        session.set_active(True)
        self._esc("Pause")
        if session.result_pending() and not self.services.animating():
            # back from the pause menu while a result was showing (or a hand you sat out
            # ended at once, at animation speed 0): show it again, unless the table was
            # left or the game changed first
            def reshow(task) -> None:
                if self.services.session is session and self.state == "Table":
                    if session.result_pending():
                        self.services.show_result()

            self.services.tasks.doMethodLater(0, reshow, "reshow-result")

    def exit(self) -> None:
        if self.services.session is not None:
            self.services.session.set_active(False)


class PauseScreen(Screen):
    """State ``Pause``: the pause menu over a paused table."""

    name = "Pause"

    def enter(self) -> None:
        session = self.services.session
        if session is None:
            self.request("Menu")
            return
        session.controller.set_paused(True)
        p = self._panel("Paused", width=0.6, height=0.62)
        items = [("resume", "Resume", lambda: self.request("Table"))]
        if self.services.can_undo():
            items.append(("undo", "Undo my last move", self._undo))
        items += [
            ("settings", "Settings", lambda: self.request("Settings", "Pause")),
            ("rules", "Rules", lambda: self.request("Rules", "Pause")),
            ("resign", "Resign", self._resign),
            ("quit", "Quit to menu", lambda: self.request("Menu")),
        ]
        if isinstance(session, NetSession) and session.ended is None:
            # a network match can also be kept, to finish later with the same opponent
            items.insert(-2, ("save", "Save and leave", session.save_and_leave))
        p.column(items, top=0.3, step=min(0.13, 0.8 / len(items)))
        self._esc("Table")

    def _resign(self) -> None:
        self.request(
            "Confirm",
            "Resign this game?",
            "The game counts as lost and cannot be resumed.",
            "Resign",
            self._resigned,
            ("Pause",),
        )

    def _resigned(self) -> None:
        self.services.resign()
        self.request("Menu")

    def _undo(self) -> None:
        if not self.services.undo():
            self.request("Table")


class ConfirmScreen(Screen):
    """State ``Confirm``: a yes/no question before something is lost."""

    name = "Confirm"

    def enter(self, question: str, detail: str, yes: str, on_yes, back: tuple) -> None:
        """Cancel and Esc go ``back`` (a state and its arguments), the yes button does
        ``on_yes``."""
        p = self._panel(question, width=0.85, height=0.36)
        p.text(detail, 0.04, 0.045).setWordwrap(34)
        p.button("cancel", "Cancel", lambda: self.request(*back), (-0.3, -0.2), scale=0.06)
        p.button("yes", yes, on_yes, (0.3, -0.2), scale=0.06)
        self.services.ignore("escape")
        self.services.accept("escape", self.request, list(back))
