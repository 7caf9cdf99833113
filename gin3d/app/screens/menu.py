"""The main menu, over the live table, its camera drifting slowly around the felt.

The drift comes to rest a few seconds after the player last touched the mouse or the keys
(a still menu draws no frames: ``scene/window/frame_rate.py``) and picks up again, easing in,
at the next touch."""

from __future__ import annotations

import math

from panda3d.core import ClockObject

from ...paths import save_path
from ...saves import offer_resume
from ...scene.window.logo import show_logo
from .base import Screen

DRIFT_S = 6.0  # the camera drifts this long after the player's last input
EASE_S = 1.5  # seconds to come to rest, or back to full drift


class MenuScreen(Screen):
    """State ``Menu``: where the game starts and every screen may go home to."""

    name = "Menu"

    def enter(self) -> None:
        self.flow.tutorial = None  # the tutorial's mode and place are the tutorial's own
        self.services.clear_for_menu()  # the game, a network match or an open table
        items = [("resume", "Resume game", self._resume_saved)] if save_path().exists() else []
        items += [
            ("play", "Play vs computer", lambda: self.request("Setup")),
            ("tournament", "Tournament", lambda: self.request("Tournament")),
            ("lan", "LAN", lambda: self.request("Lan")),
            ("online", "Online", lambda: self.request("Online")),
            ("tutorial", "Tutorial", lambda: self.request("Tutorial")),
            ("stats", "Statistics", lambda: self.request("Stats", "Menu")),
            ("achievements", "Achievements", lambda: self.request("Achievements", "Menu")),
            ("history", "Hand history", lambda: self.request("History")),
            ("settings", "Settings", lambda: self.request("Settings", "Menu")),
            ("rules", "Rules", lambda: self.request("Rules", "Menu")),
            ("quit", "Quit", self.services.quit),
        ]
        step = min(0.135, 1.3 / len(items))
        notice = self.services.take_notice()
        column = step * (len(items) - 1) / 2  # the first button's centre above the middle
        extra = 0.2 if notice else 0.0  # room for the notice above the buttons
        p = self._panel("", width=0.62, height=column + 0.14 + extra / 2, pos=(-0.95, 0))
        # the title over the table, right of the menu (on the panel, so it goes with it)
        show_logo(p.frame, self.services.card_atlas, (1.62, 0.05), scale=0.21)
        p.column(items, top=column - 0.015 - extra / 2, step=step, scale=0.06)
        if notice:
            p.text(notice, column + extra / 2, 0.032, fg=(1, 0.75, 0.6, 1)).setWordwrap(34)
        self._esc(None)
        self._phase = 0.0  # how far the camera has drifted
        self._pace = 1.0  # the drift's speed, 0 (at rest) to 1
        self.services.tasks.add(self._sway, "menu-camera-sway")

    def _sway(self, task):
        """The menu's live table: the camera drifts slowly around the felt, while the player
        is about (it stops, easing, once they have left it alone for ``DRIFT_S``)."""
        dt = min(ClockObject.getGlobalClock().getDt(), 0.1)
        target = 1.0 if self.services.quiet_for() < DRIFT_S else 0.0
        step = dt / EASE_S
        self._pace = min(target, self._pace + step) if target else max(0.0, self._pace - step)
        if self._pace == 0.0:
            return task.cont  # at rest: the camera stays where it is
        self._phase += dt * self._pace
        t = self._phase * 0.12
        cam = self.services.camera
        cam.setPos(18 * math.sin(t), -58 + 6 * (1 - math.cos(t)), 44 - 4 * math.sin(t * 0.7))
        cam.lookAt(0, -1.5, 0)
        return task.cont

    def _resume_saved(self) -> None:
        resume, message = offer_resume()
        if resume is not None:
            self.services.resume_game(resume)
        else:
            self.services.tell_on_menu(message)
            self.request("Menu")

    def exit(self) -> None:
        self.services.tasks.remove("menu-camera-sway")
        self.services.place_camera()
        self._close()
