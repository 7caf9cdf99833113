"""What the screens may use of the app: one small object, so no screen holds the whole app.

``GinApp`` builds one ``ScreenServices`` and hands it to the screen FSM, which hands it to
every screen. A screen asks it for the game in progress, the keys, the network hub, the
settings and the table's sounds and camera, and for nothing else: what a screen may touch
is written here, in one place, each with why it is there. Where a screen used to call
several app methods to do one thing (leave everything for the menu, resign, give the table
its keys back), the services have one method that says what it does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from panda3d.core import WindowProperties

from ..saves import delete_save
from ..scene.media.quality import is_software
from ..scene.scripted.replay_view import ReplayView
from ..scene.scripted.tutorial_view import TutorialView
from ..scene.ui.panel import Panel
from ..scene.ui.score_sheet import ScoreSheetView
from ..settings import service_in_use
from ..undo import can_undo

if TYPE_CHECKING:
    from ..history import HandRecord
    from ..scene.control.net_hub import NetHub
    from ..scene.control.nettable import NetSession
    from ..scene.control.nettablegroup import NetGroupSession
    from ..settings import Settings
    from .game_app import GameSetup, GinApp, Session
    from .progress_shown import PlayerProgress


class ScreenServices:
    """The app as the screens see it: keys and timers, the game, the network, the records
    and settings, the table's sound and camera."""

    def __init__(self, app: GinApp) -> None:
        self._app = app

    # -- keys and timers: screens bind Esc, Enter and arrows, and wait a frame or a while
    def accept(self, event: str, handler: Callable, args: list | None = None) -> None:
        """Bind a key for the open screen (on the app's one listener, as the table's keys
        are, so a screen's binding replaces the table's until it gives it back)."""
        self._app.accept(event, handler, args or [])

    def ignore(self, event: str) -> None:
        """Unbind a key the screen took (Esc, Enter, the replay's arrows)."""
        self._app.ignore(event)

    @property
    def tasks(self):
        """Panda3D's task manager: a screen's timers (the menu's camera drift, a LAN list
        that waits, a network answer polled each frame)."""
        return self._app.taskMgr

    # -- the game in progress: the table, pause, results and setup screens act on it ------
    @property
    def setup(self) -> GameSetup:
        """The next game's setup, which the New game and host setup rows change."""
        return self._app.setup

    @property
    def session(self) -> Session | NetSession | None:
        """The game on the table (single-player or network), None when there is none."""
        return self._app.session

    def start_single_player(self) -> None:
        """Deal a new game against the computer(s) with the setup."""
        self._app.start_single_player()

    def start_tournament(self) -> None:
        """Deal the tournament ladder's next game (its rung's opponent, its rules)."""
        self._app.start_tournament()

    def resume_game(self, resume) -> None:
        """Carry on with the saved game (``saves.Resume``)."""
        self._app.resume_game(resume)

    def end_game(self) -> None:
        """Take the game off the table (its save stays, to resume)."""
        self._app.end_game()

    def show_result(self) -> None:
        """The finished hand's (or game's) result screen, over the table."""
        self._app.hand_over()

    def can_undo(self) -> bool:
        """Whether the pause menu offers "Undo my last move" (a kept single-player game
        whose player's settings allow it; never a tournament game)."""
        session, keeper = self._app.session, self._app.keeper
        return (
            session is not None
            and keeper is not None
            and not session.tournament
            and can_undo(session.game, keeper.human, self._app.user_settings.undo_enabled)
        )

    def undo(self) -> bool:
        """Take back the player's last move; False when there is none to take back."""
        return self._app.undo()

    def resign(self) -> None:
        """The game counts as lost: its save goes (nothing to resume) and it leaves the table."""
        if self._app.keeper is not None:
            delete_save(self._app.keeper.save_file)
        self._app.end_game()

    def restore_table_keys(self) -> None:
        """Give Enter and N back to the table's input (a result screen took them)."""
        session = self._app.session
        if session is not None:
            for key in ("enter", "n"):
                self._app.accept(key, session.input.do, [{"enter": "confirm"}.get(key, "next")])

    def animating(self) -> bool:
        """Whether the table's animations are still playing."""
        return self._app.queue.busy

    def animation_seconds(self, seconds: float) -> float:
        """``seconds`` at the animation speed in use (0 when animations are instant)."""
        return self._app.queue.seconds(seconds)

    @property
    def speed(self) -> float:
        """The animation speed in use (0: instant, as in the tests)."""
        return self._app.speed

    # -- the network: the lobby screens host, join and resume through the app's hub -------
    @property
    def hub(self) -> NetHub:
        """The app's one network hub: the service, its config, where its events go."""
        return self._app.net_hub

    def start_net_game(
        self, hub: NetHub, seat: int, opponent: str, route: str = "", safety_code: str = ""
    ) -> NetSession:
        """A network match was connected: play it on the table."""
        return self._app.start_net_game(hub, seat, opponent, route, safety_code)

    def start_net_table(self, hub: NetHub, connected: dict) -> NetGroupSession:
        """A network table of three or four is full (the ``connected`` event's data): play
        it on the table."""
        return self._app.start_net_table(hub, connected)

    # -- records and settings ---------------------------------------------------------------
    @property
    def user_settings(self) -> Settings:
        """The player's settings in use (the Settings screen edits a draft of them)."""
        return self._app.user_settings

    def apply_settings(self, settings: Settings) -> None:
        """Put saved settings to use now (speed, volume, card style, setup, window)."""
        apply_settings(self._app, settings)

    def screen_shown(self, screen: str | None) -> None:
        """A screen came up: the music and ambience follow it (the table's ambience)."""
        self._app.atmosphere.follow_screen(screen)

    def take_notice(self) -> str | None:
        """The line the menu shows once (a damaged save, a match that ended), and forget it."""
        notice, self._app.notice = self._app.notice, None
        return notice

    def tell_on_menu(self, text: str | None) -> None:
        """A line for the menu to show once."""
        self._app.notice = text

    @property
    def progress(self) -> PlayerProgress:
        """Tutorial chapters done and achievements earned (the chapter list, the
        Achievements screen), and the notes that announce new ones."""
        return self._app.progress

    def announce_achievements(self) -> None:
        """A hand or a game is over: announce what the records show newly earned."""
        self._app.progress.announce()

    def software_renderer(self) -> bool:
        """Whether the window draws in software (no antialiasing there)."""
        return is_software(self._app)

    # -- the table's sound, camera and widgets ------------------------------------------
    def play(self, sound: str) -> None:
        """A table sound by name (the result screens' won, lost, click)."""
        self._app.sounds.play(sound)

    def clear_for_menu(self) -> None:
        """Leave everything for the main menu: the game, a network match or open table, the
        cards on the felt."""
        self._app.end_game()
        self._app.net_hub.close()
        self._app.scene.clear_table()

    def clear_table(self) -> None:
        """Gather the cards on the felt into the deck (the game-over sheet stands on a
        cleared table)."""
        self._app.scene.clear_table()

    @property
    def card_atlas(self):
        """The cards' texture atlas (the logo is drawn from it)."""
        return self._app.scene.factory.atlas

    @property
    def camera(self):
        """The table's camera (the menu lets it drift around the felt)."""
        return self._app.camera

    def quiet_for(self) -> float:
        """Seconds since the player last used the mouse or the keyboard (0 where the window
        is drawn every frame anyway: offscreen tests and tools)."""
        cap = self._app.frame_cap
        return cap.quiet_for() if cap is not None else 0.0

    def place_camera(self) -> None:
        """The camera back at its place over the table."""
        self._app.scene.place_camera()

    @property
    def right_edge(self):
        """The window's right edge for 2D widgets (the replay's step buttons)."""
        return self._app.a2dRightCenter

    def panel(self, *args, **kw) -> Panel:
        """A menu panel (``scene.ui.panel.Panel``) in the window."""
        return Panel(self._app, *args, **kw)

    def replay_view(self, record: HandRecord) -> ReplayView:
        """A finished hand shown again on the table, step by step."""
        return ReplayView(self._app, record)

    def score_sheet_view(self) -> ScoreSheetView:
        """The score sheet over the table, shown and hidden by its screen."""
        return ScoreSheetView(self._app)

    def tutorial_view(self, *args, **kw) -> TutorialView:
        """A tutorial chapter played on the table (``scripted.tutorial_view.TutorialView``)."""
        return TutorialView(self._app, *args, **kw)

    def quit(self) -> None:
        """Close the game (a network opponent is told first)."""
        self._app.userExit()


def card_back_name(back: str) -> str:
    """A Settings card back as the card atlas names it."""
    return f"back_{back}"


def apply_settings(app, s: Settings) -> None:
    """Use settings now: animation speed, volumes, window size (where it can change live),
    the online service (once changed: until then a ``--relay`` given at start stays)."""
    before = getattr(app, "user_settings", None)
    app.user_settings = s
    app.set_speed(s.animation_speed)
    back = card_back_name(s.card_back)
    app.scene.set_style(s.card_style)  # at once, on every card
    app.scene.set_back(back)
    app.scene.set_felt(s.felt)  # the menu stands before the same table
    inset = getattr(getattr(getattr(app, "session", None), "controller", None), "inset", None)
    if inset is not None:  # a team game's small table too
        inset.set_looks(s.card_style, back, s.felt)
    app.sounds.volume = s.effects_volume
    app.sounds.enabled = s.effects_volume > 0
    app.atmosphere.set_volumes(s.music_volume, s.ambience_volume)
    setup = app.setup
    setup.level = s.opponent_level
    setup.second_level = s.second_opponent_level
    setup.preset = s.rules_preset
    setup.options = {k: v for k, v in s.rules_overrides.items() if isinstance(v, bool)}
    setup.target = s.rules_overrides.get("game_target")
    hub = getattr(app, "net_hub", None)
    if hub is not None and before is not None and s.online_service != before.online_service:
        hub.config.relay = service_in_use(s)
    win = app.win
    if win is not None and hasattr(win, "requestProperties"):
        props = WindowProperties()
        if not win.isFullscreen():
            props.setSize(*s.resolution)
        win.requestProperties(props)
