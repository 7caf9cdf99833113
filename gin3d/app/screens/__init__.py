"""The app's screens: one state machine, every screen a state with ``enterX`` / ``exitX``.

Each module holds a group of screens as a mixin of ``Screens``: the main menu, the new game's
setup, the table with its pause menu, the results, the rules, the settings, the player's
records, the tutorial, and the network lobby, public tables and match screens. Which screen
may follow which is declared in ``flow.TRANSITIONS``.
"""

from __future__ import annotations

from .flow import TRANSITIONS, ScreenFlow
from .lobby import LobbyScreens
from .match import MatchScreens
from .menu import MenuScreens
from .public import PublicScreens
from .records import RecordScreens
from .results import ResultScreens
from .rules import RulesScreen
from .settings import SettingsScreen
from .setup import SetupScreen
from .table import TableScreens
from .tutorial import TutorialScreens


class Screens(
    MenuScreens,
    SetupScreen,
    TableScreens,
    ResultScreens,
    RulesScreen,
    SettingsScreen,
    RecordScreens,
    TutorialScreens,
    LobbyScreens,
    PublicScreens,
    MatchScreens,
    ScreenFlow,
):
    """Menu → setup → table → hand result → game over; pause, rules, settings; Esc goes back."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.portrait = None
        self.counter = None
        self.back_to = "Menu"


__all__ = ["Screens", "TRANSITIONS"]
