"""The table and what opens over it: the pause menu and the yes/no question before a loss.

``TableScreens`` is mixed into the app's screen FSM (``gin3d.app.screens.Screens``).
"""

from __future__ import annotations

from ...saves import delete_save
from ...scene.control.nettable import NetSession
from ...undo import can_undo


class TableScreens:
    """States ``Table``, ``Pause`` and ``Confirm`` of the app's screen FSM (a mixin)."""

    def enterTable(self) -> None:
        self._close()
        session = self.app.session
        # unpause first: the input's refresh asks what is legal now, and a paused table
        # offers nothing (the prompt, the buttons and the glows stayed away after a pause)
        session.controller.set_paused(False)
        session.set_active(True)
        self._esc("Pause")
        if session.result_pending() and not self.app.queue.busy:
            # back from the pause menu while a result was showing (or a hand you sat out
            # ended at once, at animation speed 0): show it again, unless the table was
            # left or the game changed first
            def reshow(task) -> None:
                if self.app.session is session and self.state == "Table":
                    if session.result_pending():
                        self.app.hand_over()

            self.app.taskMgr.doMethodLater(0, reshow, "reshow-result")

    def exitTable(self) -> None:
        if self.app.session is not None:
            self.app.session.set_active(False)

    def enterPause(self) -> None:
        session = self.app.session
        if session is None:
            self.request("Menu")
            return
        session.controller.set_paused(True)
        p = self._panel("Paused", width=0.6, height=0.62)
        items = [("resume", "Resume", lambda: self.request("Table"))]
        keeper = self.app.keeper
        if keeper is not None and can_undo(
            session.game, keeper.human, self.app.user_settings.undo_enabled
        ):
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
        if self.app.keeper is not None:  # a resigned game is over: nothing to resume
            delete_save(self.app.keeper.save_file)
        self.app.end_game()
        self.request("Menu")

    # -- asking before anything is lost ---------------------------------------------------
    def enterConfirm(self, question: str, detail: str, yes: str, on_yes, back: tuple) -> None:
        """A yes/no question before something is lost; Cancel and Esc go ``back``
        (a state and its arguments), the yes button does ``on_yes``."""
        p = self._panel(question, width=0.85, height=0.36)
        p.text(detail, 0.04, 0.045).setWordwrap(34)
        p.button("cancel", "Cancel", lambda: self.request(*back), (-0.3, -0.2), scale=0.06)
        p.button("yes", yes, on_yes, (0.3, -0.2), scale=0.06)
        self.app.ignore("escape")
        self.app.accept("escape", self.request, list(back))

    def exitConfirm(self) -> None:
        self._close()

    def _undo(self) -> None:
        if not self.app.undo():
            self.request("Table")

    def exitPause(self) -> None:
        self._close()
