"""The main menu, over the live table, its camera drifting slowly around the felt.

``MenuScreens`` is mixed into the app's screen FSM (``gin3d.app.screens.Screens``).
"""

from __future__ import annotations

import math

from ...paths import save_path
from ...saves import offer_resume
from ...scene.window.logo import show_logo


class MenuScreens:
    """State ``Menu`` of the app's screen FSM (a mixin)."""

    def enterMenu(self) -> None:
        self.app.end_game()
        self.tutorial = None  # the tutorial's mode and place are the tutorial's own
        self.app.net_hub.close()  # leaves a network match or an open table
        self.app.scene.clear_table()
        items = [("resume", "Resume game", self._resume_saved)] if save_path().exists() else []
        items += [
            ("play", "Play vs computer", lambda: self.request("Setup")),
            ("lan", "LAN", lambda: self.request("Lan")),
            ("online", "Online", lambda: self.request("Online")),
            ("tutorial", "Tutorial", lambda: self.request("Tutorial")),
            ("stats", "Statistics", lambda: self.request("Stats", "Menu")),
            ("history", "Hand history", lambda: self.request("History")),
            ("settings", "Settings", lambda: self.request("Settings", "Menu")),
            ("rules", "Rules", lambda: self.request("Rules", "Menu")),
            ("quit", "Quit", self.app.userExit),
        ]
        step = min(0.135, 1.3 / len(items))
        notice = self.app.notice
        column = step * (len(items) - 1) / 2  # the first button's centre above the middle
        extra = 0.2 if notice else 0.0  # room for the notice above the buttons
        p = self._panel("", width=0.62, height=column + 0.14 + extra / 2, pos=(-0.95, 0))
        # the title over the table, right of the menu (on the panel, so it goes with it)
        show_logo(p.frame, self.app.scene.factory.atlas, (1.62, 0.05), scale=0.21)
        p.column(items, top=column - 0.015 - extra / 2, step=step, scale=0.06)
        if notice:
            p.text(notice, column + extra / 2, 0.032, fg=(1, 0.75, 0.6, 1)).setWordwrap(34)
            self.app.notice = None
        self._esc(None)
        self.app.taskMgr.add(self._sway, "menu-camera-sway")

    def _sway(self, task):
        """The menu's live table: the camera drifts slowly around the felt."""
        t = task.time * 0.12
        cam = self.app.camera
        cam.setPos(18 * math.sin(t), -58 + 6 * (1 - math.cos(t)), 44 - 4 * math.sin(t * 0.7))
        cam.lookAt(0, -1.5, 0)
        return task.cont

    def _resume_saved(self) -> None:
        resume, message = offer_resume()
        if resume is not None:
            self.app.resume_game(resume)
        else:
            self.app.notice = message
            self.request("Menu")

    def exitMenu(self) -> None:
        self.app.taskMgr.remove("menu-camera-sway")
        self.app.scene.place_camera()
        self._close()
