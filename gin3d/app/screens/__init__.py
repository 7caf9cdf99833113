"""The app's screens: one state machine, every screen a class with ``enter`` / ``exit``.

``Screens`` is the FSM (``flow.ScreenFlow``) over ``SCREENS``, one class per screen, each
handed the app's ``ScreenServices`` and never the app. The modules hold the screens by
subject: the main menu, the new game's setup, the table with its pause menu and yes/no
question, the results, the rules, the settings, the player's records and progress, the
tutorial, the network lobby, public tables and match screens, and the tournament's ladder.
Which screen may follow which is declared in ``flow.TRANSITIONS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Screen
from .flow import TRANSITIONS, ScreenFlow
from .lobby import HostingScreen, LanScreen, OnlineScreen
from .match import DeleteSavedScreen, HostSetupScreen, OfferScreen, SavedScreen
from .menu import MenuScreen
from .progress import AchievementsScreen, ChartsScreen
from .public import TablesScreen
from .records import HistoryScreen, ReplayScreen, ResumeScreen, StatsScreen
from .results import GameOverScreen, HandResultScreen
from .rules import RulesScreen
from .settings import SettingsScreen
from .setup import SetupScreen
from .table import ConfirmScreen, PauseScreen, TableScreen
from .tournament import TournamentScreen
from .tutorial import LessonScreen, TutorialScreen

if TYPE_CHECKING:
    from ..services import ScreenServices

# every screen of the game, by its state's name (``Screen.name``)
SCREENS: dict[str, type[Screen]] = {
    cls.name: cls
    for cls in (
        MenuScreen,
        ResumeScreen,
        SetupScreen,
        TournamentScreen,
        ConfirmScreen,
        TableScreen,
        PauseScreen,
        HandResultScreen,
        GameOverScreen,
        RulesScreen,
        SettingsScreen,
        StatsScreen,
        ChartsScreen,
        AchievementsScreen,
        HistoryScreen,
        ReplayScreen,
        TutorialScreen,
        LessonScreen,
        LanScreen,
        OnlineScreen,
        TablesScreen,
        HostSetupScreen,
        HostingScreen,
        OfferScreen,
        SavedScreen,
        DeleteSavedScreen,
    )
}


class Screens(ScreenFlow):
    """Menu → setup → table → hand result → game over; pause, rules, settings; Esc goes back."""

    def __init__(self, services: ScreenServices) -> None:
        super().__init__(services, SCREENS.values())


__all__ = ["SCREENS", "Screen", "Screens", "TRANSITIONS"]
