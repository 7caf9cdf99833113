"""The screens' state machine: which screen may follow which, and requests that never crash.

Every screen names the screens it leads to (``TRANSITIONS``); a request the table does not
declare is refused, logged and kept in ``ScreenFlow.refused``, and the screen stays as it was
(a wrong request is a bug to see in the tests, never a crash for the player). ``tests/
test_app_screen_flow.py`` reads the screens' code and checks that every request it makes
from a screen is declared here. A request made while a screen is being left or entered
waits for that transition to end and is made right after it.

The flow owns a registry, state name → screen object (``screens.base.Screen``), and hands
Panda3D's FSM each screen's ``enter``/``exit`` as its ``enterX``/``exitX``. It also owns what
lasts from one screen to the next: the one open panel, where Rules, Settings and Statistics
go back to, the open tutorial and the network screens' ``Lobby``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from direct.fsm.FSM import FSM

from ...scene.ui.panel import Panel
from .base import Screen
from .lobby import Lobby

if TYPE_CHECKING:
    from ..services import ScreenServices
    from .tutorial import TutorialBook

# Going home is always allowed: the main menu is where a network match that ended, a
# failure or "Quit to menu" lead from any screen.
HOME = "Menu"
# Screens a game starts from: a new or resumed game, a connected network match, a rematch,
# the next hand (``GinApp.start_game`` and ``start_net_game`` end on the table).
_GAME_STARTS = {"Table"}
TRANSITIONS: dict[str, set[str]] = {
    "Menu": {
        "Setup",
        "Tournament",
        "Lan",
        "Online",
        "Tutorial",
        "Stats",
        "Achievements",
        "History",
        "Settings",
        "Rules",
    }
    | _GAME_STARTS,  # "Resume game" carries on with the saved game
    "Tournament": {"Confirm"} | _GAME_STARTS,  # Play: the ladder's next game, or resume it
    "Resume": {"Confirm"} | _GAME_STARTS,
    "Setup": {"Confirm"} | _GAME_STARTS,
    "Confirm": {"Setup", "Tournament", "Pause", "Resume"}
    | _GAME_STARTS,  # Cancel goes back, yes plays
    "Table": {"Pause", "HandResult", "GameOver", "Offer"} | _GAME_STARTS,  # a new game
    "Pause": {"Table", "Settings", "Rules", "Confirm"},
    "HandResult": {"Table", "Pause", "GameOver"},
    # play again; a network rematch offers rules; a tournament game goes back to its ladder
    "GameOver": {"Offer", "Tournament"} | _GAME_STARTS,
    "Rules": {"Pause"},
    "Settings": {"Pause"},
    "Stats": {"Charts", "Achievements"},
    "Charts": {"Stats"},
    "Achievements": {"Stats"},  # back to Statistics when it came from there
    "History": {"History", "Replay"},
    "Replay": {"History"},
    "Tutorial": {"Lesson"},
    "Lesson": {"Lesson", "Tutorial"},  # Next chapter, or back to the chapter list
    "Lan": {"HostSetup", "Saved"} | _GAME_STARTS,
    "Online": {"HostSetup", "Saved", "Tables"} | _GAME_STARTS,
    "Tables": {"Online"} | _GAME_STARTS,  # Find an opponent: public tables, quick match
    "HostSetup": {"Hosting", "Lan", "Online", "Saved"},
    "Hosting": {"Lan", "Online", "Saved", "Offer"} | _GAME_STARTS,
    "Offer": {"Lan", "Online"} | _GAME_STARTS,
    "Saved": {"Saved", "DeleteSaved", "Hosting", "Lan", "Online"} | _GAME_STARTS,  # rejoin
    "DeleteSaved": {"Saved"},
}


class ScreenFlow(FSM):
    """Panda3D's FSM over a registry of screens, with declared transitions, queued
    requests and one open panel."""

    def __init__(self, services: ScreenServices, screens: Iterable[type[Screen]]) -> None:
        super().__init__("screens")
        self.services = services
        self.defaultTransitions = {
            state: sorted(targets | {HOME}) for state, targets in TRANSITIONS.items()
        }
        self.panel: Panel | None = None
        self.refused: list[tuple[str, str]] = []  # (from, to) requests nobody declared
        self._queued: list[tuple[str, tuple]] = []
        # what lasts across screens: where Rules / Settings / Statistics go back to, the
        # tutorial while it is open (its two screens; dropped on the way home), and what
        # the network screens share (the note they write to, the LAN list, the saved match)
        self.back_to = HOME
        self.tutorial: TutorialBook | None = None
        self.lobby = Lobby()
        self.screens: dict[str, Screen] = {cls.name: cls(self, services) for cls in screens}

    def __getattr__(self, name: str):
        """``enterX`` / ``exitX`` (what Panda3D's FSM looks up) are screen ``X``'s."""
        registry = self.__dict__.get("screens", {})
        for prefix in ("enter", "exit"):
            screen = registry.get(name.removeprefix(prefix)) if name.startswith(prefix) else None
            if screen is not None:
                return getattr(screen, prefix)
        raise AttributeError(name)

    @property
    def current(self) -> Screen | None:
        """The screen showing now (None between screens and before the first)."""
        return self.screens.get(self.state) if self.state else None

    def request(self, state: str, *args):
        """Go to a screen. A request made while a screen is being left or entered (the table
        finding a hand already over as it is entered, say) waits for that transition to end
        and is made right after it: never an ``AlreadyInTransition`` crash."""
        if self.state is None:  # between a screen's exit and the next one's enter
            self._queued.append((state, args))
            return None
        result = super().request(state, *args)
        while self._queued and self.state is not None:
            queued, queued_args = self._queued.pop(0)
            super().request(queued, *queued_args)
        self.services.screen_shown(self.state)
        return result

    def defaultFilter(self, request: str, args):
        """The declared transitions (any screen goes home, and the first screen may be any);
        an undeclared one is refused and noted, and nothing changes."""
        if self.state == "Off" or request in ("Off", HOME):
            return (request, *args)
        if request in self.defaultTransitions.get(self.state, ()):
            return (request, *args)
        self.refused.append((self.state, request))
        self.notify.warning(f"screen {self.state} does not lead to {request}: request refused")
        return None
