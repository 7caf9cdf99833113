"""The application: the window, the one table scene, and the screens around it.

``game_app.GinApp`` is the ShowBase: it owns the table scene, the game in progress (a
``Session``) and the network hub; ``screens`` is the state machine of everything shown over
the table (menus, setup, results, lobby, tutorial), one class per screen, each handed the
app's ``services.ScreenServices`` rather than the app.
"""

from __future__ import annotations

from ..settings import Settings
from .game_app import GameSetup, GinApp, Session, table_names

__all__ = ["GameSetup", "GinApp", "Session", "Settings", "table_names"]
