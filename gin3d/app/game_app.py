"""The application: a ShowBase with the table scene, the game in progress and the screens.

One ``TableScene`` lives for the whole run: it is the live backdrop of the menus and the
table of every game. ``GinApp.start_game(players, rules, seed)`` starts a game on it with any
two seats (``None`` = local input), which is the hook LAN, online and the tutorial use.
"""

from __future__ import annotations

import datetime
import random
import time
import zlib
from dataclasses import dataclass, field

from direct.showbase.ShowBase import ShowBase

from .. import tournament
from ..driver import ComputerSeat
from ..driver.team_table import TeamTable
from ..driver.three_table import ThreePlayerTable
from ..engine import Game, PartnershipGame, RuleSet, ThreePlayerGame
from ..players import (
    computer_player,
    default_level,
    levels,
    opponent_name,
    think_range,
)
from ..recorder import GameKeeper, new_game_id
from ..saves import Seat, offer_resume
from ..scene.control.controller import TableController
from ..scene.control.help import HelpOverlay
from ..scene.control.net_hub import NetConfig, NetHub
from ..scene.control.nettable import NetSession
from ..scene.control.nettablegroup import NetGroupSession
from ..scene.control.tableinput import TableInput
from ..scene.control.team_controller import PartnershipController
from ..scene.control.three_controller import ThreePlayerController
from ..scene.media.music import Atmosphere
from ..scene.media.quality import fit_framebuffer, trim_clears
from ..scene.media.sound import Sounds
from ..scene.tabletop.animation import AnimationQueue
from ..scene.tabletop.table import TableScene
from ..scene.ui import theme
from ..scene.ui.hud import FITTED, Hud, register_suit_graphics
from ..scene.window import frame_rate, status_line
from ..scene.window.splash import show_splash
from ..scene.window.warmup import install_warm_up
from ..settings import Settings
from ..undo import can_undo, undo_last_human_move
from .progress_shown import PlayerProgress
from .screens import Screens
from .services import ScreenServices, apply_settings, card_back_name


@dataclass
class GameSetup:
    level: str = field(default_factory=default_level)
    preset: str = "classic"
    options: dict = field(default_factory=dict)
    target: int | None = None
    players: int = 2  # 3: you and two computers; 4: you and a computer partner vs two
    second_level: str = "hard"  # the second computer's level (a 3- or 4-player game)
    team_target: int | None = None  # the first team to this wins (4 players; preset's 125)

    def computers(self) -> list[str]:
        """The computers' levels: one, or two different ones for three players (the
        second never the first's level, so every player has a name and face of their own);
        for four, the opponent, your partner (a level neither opponent has) and the second
        opponent, by player."""
        if self.players == 2:
            return [self.level]
        keys = [k for k, _ in levels()]
        if self.second_level != self.level and self.second_level in keys:
            pair = [self.level, self.second_level]
        else:
            other = (
                keys[(keys.index(self.level) + 1) % len(keys)] if self.level in keys else keys[0]
            )
            pair = [self.level, other]
        if self.players == 3:
            return pair
        partner = next(k for k in keys if k not in pair)
        return [pair[0], partner, pair[1]]

    def rules(self) -> RuleSet:
        changes = dict(self.options)
        if self.target is not None:
            changes["game_target"] = self.target
            changes["match_target"] = max(500, self.target)
        if self.team_target is not None:
            changes["partnership_target"] = self.team_target
        return RuleSet.preset(self.preset, **changes)


def table_names(seats) -> tuple[str, str]:
    """The names the table, the results and game over show: the local player is "You"
    (as in the tutorial and network play), whatever name the saves and history keep."""
    return tuple("You" if s.kind == "human" else s.name for s in seats)


class Session:
    """One game on the table: the controller, the HUD and the local input."""

    def __init__(
        self,
        app: GinApp,
        game: Game,
        players: list,
        names: tuple[str, ...],
        think: tuple[float, float] = (0.6, 1.2),
        table: type[TableController] = TableController,
    ) -> None:
        """``table``: the controller (``ThreePlayerController`` for a three-player game,
        whose ``game`` is a ``ThreePlayerTable`` and ``names`` the three players')."""
        self.app = app
        self.game = game
        self.controller = table(app, app.scene, game, players, think=think, names=names)
        self.hud = Hud(app, self.on_hud_action, lambda: app.request("Pause"))
        self.input = TableInput(
            app, app.scene, self.controller, self.hud, hints=lambda: app.user_settings.hints_enabled
        )
        self.tournament = ""  # a tournament game's title (its rung), "" for any other game
        self.verdict = ""  # what the finished tournament game meant for the ladder
        self.trophy = False  # ... and whether it won the trophy
        self.controller.on_message.append(self.hud.set_message)
        self.controller.on_hand_over.append(lambda g: app.hand_over())
        self.controller.on_game_over.append(lambda g: app.hand_over())

    def on_hud_action(self, name: str) -> None:
        self.app.scene.play_sound("click")
        self.input.do(name)

    @property
    def rules(self) -> RuleSet:
        return self.game.rules

    def result_pending(self) -> bool:
        """Whether the table shows a finished hand whose result screen belongs on top."""
        return getattr(self.controller, "round_over", self.game.hand.over)  # both, for teams

    def again(self) -> None:
        """The game-over screen's "Play again"."""
        self.app.start_single_player()

    def set_active(self, on: bool) -> None:
        self.input.enabled = on
        self.controller.set_shown(on)
        if on:
            self.hud.show()
            self.input.refresh()
        else:
            self.hud.hide()

    def destroy(self) -> None:
        # stop the loop first, so finishing the queued animations cannot start new moves
        self.controller.destroy()
        self.app.queue.finish_all()
        self.input.destroy()
        self.hud.destroy()


class GinApp(ShowBase):
    """The window, the one table scene and the screen state machine."""

    def __init__(
        self,
        user_settings: Settings | None = None,
        seed: int | None = None,
        notice: str | None = None,
        net: NetConfig | None = None,
        *,
        sound: bool = True,
        detail: str = "auto",
    ) -> None:
        """``user_settings``: the player's settings (the defaults when None). ``sound=False``
        keeps the card sounds, the music and the ambience off whatever the settings say
        (tests, tools); ``detail`` is auto, full or light (light: software renderers)."""
        self.launch_time = time.perf_counter()
        super().__init__()
        self.framebuffer = fit_framebuffer(self)  # before anything is loaded into the window
        trim_clears(self)
        theme.install(self)  # the typeface of every text, before the splash's first word
        self.user_settings = user_settings or Settings()
        # on screen now, on the player's felt: the table and menus take seconds more
        splash = show_splash(self, self.user_settings.felt)
        self.speed = self.user_settings.animation_speed  # in use now (the table may change it)
        self.setup = GameSetup()
        self.seed = seed
        self.disableMouse()
        self.queue = AnimationQueue(self.speed)
        self.sounds = Sounds(self.loader)
        self.sounds.enabled = sound and self.user_settings.effects_volume > 0
        self.atmosphere = Atmosphere(self, enabled=sound)  # streamed once it plays
        self.scene = TableScene(
            self,
            self.queue,
            self.sounds,
            back=card_back_name(self.user_settings.card_back),
            style=self.user_settings.card_style,
            detail=detail,
        )
        register_suit_graphics(self.scene.factory.atlas)
        self.session: Session | NetSession | None = None
        # LAN / online play, opened on demand
        self.net_hub = NetHub(self, net or NetConfig(name=self.user_settings.player_name))
        self.screens = Screens(ScreenServices(self))
        self.help = HelpOverlay(self)  # F1 / ? on every screen
        self.keeper: GameKeeper | None = None
        self.notice: str | None = None  # shown once on the menu (e.g. a damaged save)
        # tutorial chapters done, achievements (an old player's counted quietly, now)
        self.progress = PlayerProgress(self)
        apply_settings(self, self.user_settings)
        if not sound:
            self.sounds.enabled = False
        resume, message = offer_resume()
        said = (notice, message, *self.progress.messages)
        self.notice = " ".join(m for m in said if m) or None
        if resume is not None:
            self.screens.request("Resume", resume)
        else:
            self.screens.request("Menu")
        install_warm_up(self, self.scene)  # shaders and glyphs met now, not mid-game
        splash.removeNode()
        self.frame_cap = frame_rate.install(self)  # on-screen windows only
        if self.frame_cap is not None:
            self.net_hub.after_events = self.frame_cap.wake
        self.status_line = status_line.install(self, self.frame_cap)  # when the env asks

    # -- hooks for other screens and scripts ------------------------------------------------
    def request(self, state: str, *args) -> None:
        self.screens.request(state, *args)

    def start_game(
        self,
        players: list,
        rules: RuleSet,
        seed: int | str | None = None,
        names: tuple[str, str] = ("You", "Computer"),
        decks=None,
        first_dealer: int | None = None,
        game: Game | None = None,
        think: tuple[float, float] = (0.6, 1.2),
    ) -> Session:
        """Start a game on the table with two seats (``None`` = local input) and go there.
        ``game``: carry on with a game already in progress (resume, undo)."""
        self.end_game()
        if game is None:
            seed = (
                seed
                if seed is not None
                else (self.seed if self.seed is not None else random.randrange(1 << 30))
            )
            game = Game(rules, seed=seed, decks=decks, first_dealer=first_dealer)
        self.session = Session(self, game, players, names, think)
        self.screens.request("Table")
        return self.session

    def start_net_game(
        self, hub: NetHub, seat: int, opponent: str, route: str = "", safety_code: str = ""
    ) -> NetSession:
        """A network match was connected: play it on the table (our seat drawn at the
        bottom); the hub's events go to the new session from now on."""
        self.end_game()
        self.session = NetSession(
            self,
            hub.service,
            seat,
            opponent,
            route,
            safety_code,
            kind=hub.kind,
            player_name=hub.config.name,
        )
        hub.handler = self.session.handle
        self.screens.request("Table")
        return self.session

    def start_net_table(self, hub: NetHub, connected: dict) -> NetGroupSession:
        """A network table of three or four has every seat taken (the ``connected`` event's
        data): play it on the table; the hub's events go to it from now on."""
        self.end_game()
        self.session = NetGroupSession(
            self,
            hub.service,
            connected["seat"],
            connected["players"],
            connected["rules"],
            connected.get("safety_code", ""),
            connected.get("names", ()),
            kind=hub.kind,
            player_name=hub.config.name,
        )
        hub.handler = self.session.handle
        self.screens.request("Table")
        return self.session

    def start_single_player(self) -> Session:
        setup = self.setup
        if setup.players == 3:
            return self.start_three_player()
        if setup.players == 4:
            return self.start_partnership()
        seats = (
            Seat("human", self.user_settings.player_name),
            Seat("computer", opponent_name(setup.level), setup.level),
        )
        session = self.start_game(
            [None, computer_player(setup.level)],
            setup.rules(),
            names=table_names(seats),
            think=think_range(setup.level),
        )
        self.keep(session, seats)
        return session

    def start_tournament(self) -> Session:
        """The tournament's next game: the ladder's rung's opponent under the tournament
        rules, counted as a try on that rung (a new climb once the trophy is won), saved
        and resumed like any game."""
        ladder, message = tournament.load()
        seed = self.seed if self.seed is not None else random.randrange(1 << 30)
        game_id = new_game_id(seed)
        level = tournament.RUNGS[ladder.start(game_id)]
        try:
            ladder.save()
        except OSError as exc:
            message = f"The tournament could not be saved ({exc.strerror or exc})."
        seats = (
            Seat("human", self.user_settings.player_name),
            Seat("computer", opponent_name(level), level),
        )
        session = self.start_game(
            [None, computer_player(level)],
            tournament.tournament_rules(),
            seed=seed,
            names=table_names(seats),
            think=think_range(level),
        )
        self._name_tournament(session, ladder)
        self.keep(session, seats, game_id)
        if message:
            session.hud.set_message(message)
        return session

    def _name_tournament(self, session: Session, ladder: tournament.Ladder) -> None:
        session.tournament = ladder.title()
        session.hud.set_title(session.tournament)

    def _settle_tournament(self, session: Session, keeper: GameKeeper) -> None:
        """The tournament game just ended: count it on the ladder (before its save goes,
        so a crash in between loses nothing) and keep what it meant for the result."""
        game = session.game
        you = keeper.human
        totals = game.totals()
        ladder, message = tournament.settle(
            keeper.game_id,
            game.winner == you,
            (totals[you], totals[1 - you]),
            datetime.date.today().isoformat(),
        )
        names = {level: opponent_name(level) for level in tournament.RUNGS}
        session.verdict = message or ladder.verdict(keeper.game_id, names)
        session.trophy = game.winner == you and ladder.finished

    def start_three_player(self) -> Session:
        """You and two computers (``setup.computers()``), each hand between two of you;
        saved after every action like a two-player game (it then waits in the one save)."""
        seed = self.seed if self.seed is not None else random.randrange(1 << 30)
        game = ThreePlayerGame(self.setup.rules(), seed=seed)
        return self._group_game(game, self._computer_seats())

    def start_partnership(self) -> Session:
        """You and a computer partner (player 2) against two computers (``setup.computers()``
        by player), both hands of a round at once; saved after every move at either table."""
        seed = self.seed if self.seed is not None else random.randrange(1 << 30)
        game = PartnershipGame(self.setup.rules(), seed=seed)
        return self._group_game(game, self._computer_seats())

    def _computer_seats(self) -> tuple[Seat, ...]:
        """You (player 0), then the setup's computers by player."""
        return (
            Seat("human", self.user_settings.player_name),
            *(Seat("computer", opponent_name(level), level) for level in self.setup.computers()),
        )

    def _group_game(
        self, game: ThreePlayerGame | PartnershipGame, seats: tuple[Seat, ...], game_id=""
    ) -> Session:
        """A session for a three-player or partnership game, new or in progress (its table
        rebuilt from the hand's events), kept in the save after every action."""
        self.end_game()
        if isinstance(game, PartnershipGame):  # you are player 0 there
            table, controller = TeamTable(game), PartnershipController
        else:
            me = [s.kind for s in seats].index("human")
            table, controller = ThreePlayerTable(game, me=me), ThreePlayerController
        rng = random.Random(f"think:{game.seed}")
        base = game.seed if isinstance(game.seed, int) else zlib.crc32(str(game.seed).encode())
        players = [  # seeded from the game: a game's seed replays all of it
            None
            if s.kind == "human"
            else ComputerSeat(
                computer_player(s.level, seed=base * 10 + n), think_range(s.level), rng
            )
            for n, s in enumerate(seats)
        ]
        self.session = Session(self, table, players, table_names(seats), table=controller)
        self.screens.request("Table")
        self.keep(self.session, seats, game_id, game)
        return self.session

    def keep(self, session: Session, seats: tuple[Seat, ...], game_id: str = "", game=None) -> None:
        """Save the game after every action; statistics and history after every hand.
        ``game``: the game to save when the session's is a view of it (a group game)."""
        try:
            self.keeper = GameKeeper(game or session.game, seats, game_id)
        except OSError as err:
            self.keeper = None
            session.hud.set_message(f"Your game cannot be saved: {err}")
            return
        keeper = self.keeper
        if keeper.error:
            session.hud.set_message(keeper.error)

        def kept(action, events) -> None:
            if session.tournament and session.game.over and not session.verdict:
                self._settle_tournament(session, keeper)
            keeper.update()
            if keeper.error:  # a full or read-only disk: say so, keep playing
                session.hud.set_message(keeper.error)

        session.controller.on_applied.append(kept)

    def resume_game(self, resume) -> Session:
        """Carry on with a saved game (``saves.Resume``)."""
        return self._carry_on(resume.game, resume.record.seats, resume.record.game_id)

    def _carry_on(self, game, seats: tuple[Seat, ...], game_id: str) -> Session:
        """A session for a game in progress: the table is rebuilt instantly from its events."""
        speed = self.queue.speed
        self.queue.speed = 0
        try:
            if isinstance(game, Game):
                session = self._resume_two(game, seats)
                ladder = tournament.peek()
                if ladder is not None and game_id and ladder.playing == game_id:
                    self._name_tournament(session, ladder)  # the ladder's game in progress
                self.keep(session, seats, game_id)
            else:
                session = self._resume_group(game, seats, game_id)
            self.queue.finish_all()
        finally:
            self.set_speed(speed)
        return session

    def _resume_two(self, game: Game, seats: tuple[Seat, ...]) -> Session:
        human = [s.kind for s in seats].index("human")
        level = seats[1 - human].level
        players = [None, None]
        players[1 - human] = computer_player(level)
        return self.start_game(
            players, game.rules, game=game, names=table_names(seats), think=think_range(level)
        )

    def _resume_group(self, game, seats: tuple[Seat, ...], game_id: str) -> Session:
        """A saved three-player or partnership game, and the setup made like it (for "Play
        again"): the computers' levels by player (a partnership's second is your partner)."""
        levels_now = [s.level for s in seats if s.kind == "computer"]
        self.setup.players, self.setup.level = len(seats), levels_now[0]
        self.setup.second_level = levels_now[-1]
        return self._group_game(game, seats, game_id)

    def undo(self) -> bool:
        """Take back the local player's last move (single-player, when the setting is on;
        never in a tournament game, whose rules let nothing change)."""
        session, keeper = self.session, self.keeper
        if (
            session is None
            or keeper is None
            or session.tournament
            or not can_undo(session.game, keeper.human, self.user_settings.undo_enabled)
        ):
            return False
        game = undo_last_human_move(session.game, keeper.human)
        self._carry_on(game, keeper.seats, keeper.game_id)
        return True

    def end_game(self) -> None:
        if self.session is not None:
            self.session.destroy()
            self.session = None
        self.keeper = None  # the save stays: quitting to the menu keeps the game resumable

    def hand_over(self) -> None:
        self.screens.request("GameOver" if self.session.game.over else "HandResult")

    def set_speed(self, speed: float) -> None:
        self.speed = speed
        self.queue.speed = speed

    def userExit(self) -> None:
        """Quit: say goodbye to a network opponent first (they see "opponent left")."""
        self.atmosphere.destroy()
        self.net_hub.close(wait=True)
        super().userExit()

    def windowEvent(self, win) -> None:
        """ShowBase's handler (closing, minimising, aspect2d's shape), then our layout. It is
        extended, not replaced: replacing it left aspect2d stretched after a resize."""
        if hasattr(win, "getProperties"):  # a window (an offscreen buffer has none)
            super().windowEvent(win)
        if win is self.win:
            self.fit_to_window()

    def fit_to_window(self) -> None:
        """Lay everything out for the window's current size and shape: the 2D anchors, the
        lens (the table stays framed), the HUD's prompt bar (a row of its own if narrow) and
        the open menu panel (shrunk to fit if narrow)."""
        self.adjustWindowAspectRatio(self.getAspectRatio())
        scene, screens = getattr(self, "scene", None), getattr(self, "screens", None)
        if scene is not None:  # a window event can come before the app is built
            scene.fit_lens()
        for layer in list(FITTED):  # the HUDs, the tutorial's narration
            layer.fit()
        if screens is not None and screens.panel is not None:
            screens.panel.fit()
