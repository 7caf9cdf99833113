"""The application: a ShowBase with the screen FSM (menu, setup, table, results, pause...).

One ``TableScene`` lives for the whole run: it is the live backdrop of the menus and the
table of every game. ``GinApp.start_game(players, rules, seed)`` starts a game on it with any
two seats (``None`` = local input), which is the hook LAN, online and the tutorial use.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from direct.fsm.FSM import FSM
from direct.gui.DirectGui import DGG
from direct.interval.IntervalGlobal import LerpFunctionInterval
from direct.showbase.ShowBase import ShowBase
from panda3d.core import TextNode

from .engine import Game, RuleSet
from .engine.rules import OPTION_NOTES, PRESET_NOTES, TARGET_NOTE
from .paths import save_path
from .players import (
    computer_player,
    default_level,
    levels,
    opponent_name,
    portrait,
    think_range,
)
from .recorder import GameKeeper
from .saves import Seat, delete_save, offer_resume
from .scene import frame_rate, status_line, theme
from .scene.animation import AnimationQueue
from .scene.controller import TableController
from .scene.help import HelpOverlay
from .scene.hud import FITTED, Hud, register_suit_graphics
from .scene.lobby import LobbyScreens, NetConfig, NetHub
from .scene.logo import show_logo
from .scene.match_screens import MatchScreens
from .scene.nettable import NetSession
from .scene.palette import GOLD
from .scene.portraits import face_for, picture, set_picture
from .scene.quality import fit_framebuffer, trim_clears
from .scene.result_story import hand_story
from .scene.screens import Panel
from .scene.ship_screens import ShipScreens, apply_settings
from .scene.sound import Sounds
from .scene.splash import show_splash
from .scene.table import TableScene
from .scene.tableinput import TableInput
from .scene.warmup import install_warm_up
from .settings import Settings
from .undo import can_undo, undo_last_human_move

TARGETS = (100, 150, 200, 250, 50)
OPTIONS = (
    ("last_chance", "Last chance"),
    ("allow_throw_back", "Throw-back"),
    ("straight_gin", "Straight gin"),
    ("no_upcard", "No upcard"),
)


@dataclass
class GameSetup:
    level: str = field(default_factory=default_level)
    preset: str = "classic"
    options: dict = field(default_factory=dict)
    target: int | None = None

    def rules(self) -> RuleSet:
        changes = dict(self.options)
        if self.target is not None:
            changes["game_target"] = self.target
            changes["match_target"] = max(500, self.target)
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
        names: tuple[str, str],
        think: tuple[float, float] = (0.6, 1.2),
    ) -> None:
        self.app = app
        self.game = game
        self.controller = TableController(app, app.scene, game, players, think=think, names=names)
        self.hud = Hud(app, self.on_hud_action, lambda: app.request("Pause"))
        self.input = TableInput(
            app, app.scene, self.controller, self.hud, hints=lambda: app.user_settings.hints_enabled
        )
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
        return self.game.hand.over

    def again(self) -> None:
        """The game-over screen's "Play again"."""
        self.app.start_single_player()

    def set_active(self, on: bool) -> None:
        self.input.enabled = on
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
        back: str = "back_blue",
        detail: str = "auto",
    ) -> None:
        """``user_settings``: the player's settings (the defaults when None). ``sound=False``
        keeps the card sounds off whatever the settings say (tests, tools); ``back`` is the
        cards' back; ``detail`` is auto, full or light (light: software renderers)."""
        self.launch_time = time.perf_counter()
        super().__init__()
        self.framebuffer = fit_framebuffer(self)  # before anything is loaded into the window
        trim_clears(self)
        theme.install(self)  # the typeface of every text, before the splash's first word
        splash = show_splash(self)  # on screen now: the table and menus take seconds more
        self.user_settings = user_settings or Settings()
        self.speed = self.user_settings.animation_speed  # in use now (the table may change it)
        self.setup = GameSetup()
        self.seed = seed
        self.disableMouse()
        self.queue = AnimationQueue(self.speed)
        self.sounds = Sounds(self.loader)
        self.sounds.enabled = sound and self.user_settings.effects_volume > 0
        self.scene = TableScene(
            self,
            self.queue,
            self.sounds,
            back=back,
            style=self.user_settings.card_style,
            detail=detail,
        )
        register_suit_graphics(self.scene.factory.atlas)
        self.session: Session | NetSession | None = None
        # LAN / online play, opened on demand
        self.net_hub = NetHub(self, net or NetConfig(name=self.user_settings.player_name))
        self.screens = Screens(self)
        self.help = HelpOverlay(self)  # F1 / ? on every screen
        self.keeper: GameKeeper | None = None
        self.notice: str | None = None  # shown once on the menu (e.g. a damaged save)
        apply_settings(self, self.user_settings)
        if not sound:
            self.sounds.enabled = False
        resume, message = offer_resume()
        self.notice = " ".join(m for m in (notice, message) if m) or None
        if resume is not None:
            self.screens.request("Resume", resume)
        else:
            self.screens.request("Menu")
        install_warm_up(self, self.scene)  # shaders and glyphs met now, not mid-game
        splash.removeNode()
        self.status_line = status_line.install(self)  # only when the environment asks
        self.frame_cap = frame_rate.install(self)  # on-screen windows only

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

    def start_single_player(self) -> Session:
        setup = self.setup
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

    def keep(self, session: Session, seats: tuple[Seat, Seat], game_id: str = "") -> None:
        """Save the game after every action; statistics and history after every hand."""
        try:
            self.keeper = GameKeeper(session.game, seats, game_id)
        except OSError as err:
            self.keeper = None
            session.hud.set_message(f"Your game cannot be saved: {err}")
            return
        keeper = self.keeper
        if keeper.error:
            session.hud.set_message(keeper.error)

        def kept(action, events) -> None:
            keeper.update()
            if keeper.error:  # a full or read-only disk: say so, keep playing
                session.hud.set_message(keeper.error)

        session.controller.on_applied.append(kept)

    def resume_game(self, resume) -> Session:
        """Carry on with a saved game (``saves.Resume``)."""
        return self._carry_on(resume.game, resume.record.seats, resume.record.game_id)

    def _carry_on(self, game: Game, seats: tuple[Seat, Seat], game_id: str) -> Session:
        """A session for a game in progress: the table is rebuilt instantly from its events."""
        human = [s.kind for s in seats].index("human")
        level = seats[1 - human].level
        players = [None, None]
        players[1 - human] = computer_player(level)
        speed = self.queue.speed
        self.queue.speed = 0
        try:
            session = self.start_game(
                players, game.rules, game=game, names=table_names(seats), think=think_range(level)
            )
            self.queue.finish_all()
        finally:
            self.set_speed(speed)
        self.keep(session, seats, game_id)
        return session

    def undo(self) -> bool:
        """Take back the local player's last move (single-player, when the setting is on)."""
        session, keeper = self.session, self.keeper
        if (
            session is None
            or keeper is None
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


class Screens(ShipScreens, LobbyScreens, MatchScreens, FSM):
    """Menu → setup → table → hand result → game over; pause, rules, settings; Esc goes back."""

    def __init__(self, app: GinApp) -> None:
        super().__init__("screens")
        self.app = app
        self.panel: Panel | None = None
        self.portrait = None
        self.counter = None
        self.back_to = "Menu"
        self._queued: list[tuple[str, tuple]] = []

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
        return result

    def _panel(self, *args, **kw) -> Panel:
        self._close()
        self.panel = Panel(self.app, *args, **kw)
        return self.panel

    def _close(self) -> None:
        if self.panel is not None:
            self.panel.destroy()
            self.panel = None

    def _esc(self, target: str | None) -> None:
        self.app.ignore("escape")
        if target:
            self.app.accept("escape", self.request, [target])

    # -- main menu -------------------------------------------------------------------------
    def enterMenu(self) -> None:
        self.app.end_game()
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

    # -- the tutorial ---------------------------------------------------------------------
    def enterTutorial(self) -> None:
        from .scene.tutorial_view import TutorialScreen
        from .tutorial import load_chapters

        self._close()
        self.app.end_game()
        self.tutorial = TutorialScreen(
            self.app,
            load_chapters(),
            self.app.setup.rules,
            on_exit=lambda: self.request("Menu"),
            auto_advance=self.app.speed > 0,
        )

    def exitTutorial(self) -> None:
        self.tutorial.destroy()
        self.tutorial = None

    # -- new game setup -----------------------------------------------------------------
    def enterSetup(self) -> None:
        p = self._panel("New game", width=1.05, height=0.94)
        self._rules_rows(p, 0.62, opponent=True)
        self.portrait = p.text("", -0.31, 0.036, x=0.14, fg=(0.9, 0.92, 0.85, 1))
        self.portrait["wordwrap"] = 44
        self.portrait_picture = picture(p.frame, "guest", (-0.8, -0.34), 0.11)
        self.setup_note = p.text("", -0.58, 0.04, fg=(1, 0.8, 0.6, 1))
        p.button(
            "start", "Deal", self._deal, (0.35, -0.78), scale=0.07, frameSize=(-3, 3, -0.55, 1.05)
        )
        p.button("back", "Back", lambda: self.request("Menu"), (-0.45, -0.78), scale=0.06)
        self._refresh_setup()
        self._esc("Menu")

    def _deal(self) -> None:
        """Start the game; a saved game in progress is replaced only once the player agrees."""
        if not save_path().exists():
            self.app.start_single_player()
            return
        self.request(
            "Confirm",
            "Replace your game in progress?",
            "Dealing a new game ends the saved one (Resume game on the menu continues it).",
            "Deal",
            self.app.start_single_player,
            ("Setup",),
        )

    def _rules_rows(
        self, p: Panel, top: float, opponent: bool, x: float = -0.9, step: float = 0.13
    ) -> float:
        """The setup's rows (opponent level, rules preset, game target, rule options) as
        label + cycling button, each with a line saying what it means, on any panel: the
        single-player setup and the network host's table setup share them (and
        ``app.setup``). A click moves to the next choice, a right-click (or the ``<``
        button) back to the one before. Returns the y of the last row's line."""
        s = self.app.setup
        lv = levels()
        rows = (
            [
                (
                    "level",
                    "Opponent",
                    lambda: dict(lv).get(s.level, s.level),
                    self._cycle_level,
                    lambda: "",
                )
            ]
            if opponent
            else []
        )
        rows += [
            (
                "preset",
                "Rules",
                lambda: s.preset,
                self._cycle_preset,
                lambda: PRESET_NOTES.get(s.preset, ""),
            ),
            (
                "target",
                "Game to",
                lambda: str(s.rules().game_target),
                self._cycle_target,
                lambda: TARGET_NOTE,
            ),
        ]
        rows += [
            (
                k,
                label,
                (lambda k=k: "on" if s.options.get(k) else "off"),
                (lambda step=1, k=k: self._toggle(k)),
                (lambda k=k: OPTION_NOTES[k].split(": ", 1)[-1]),
            )  # the label says its name
            for k, label in OPTIONS
        ]
        self.setup_rows = []
        self.setup_notes: list = []  # (text, what it says now)
        y = top
        for i, (key, label, value, cmd, note) in enumerate(rows):
            y = top - i * step
            p.text(label, y, 0.05, x=x, align=TextNode.ALeft)
            bx = x + 1.25
            b = p.button(
                key,
                value(),
                lambda cmd=cmd: (cmd(1), self._refresh_setup()),
                (bx, y + 0.012),
                scale=0.05,
                frameSize=(-6.5, 6.5, -0.55, 1.05),
            )
            b.bind(DGG.B3PRESS, lambda _ev, cmd=cmd: (cmd(-1), self._refresh_setup()))
            for sign, mark in ((-1, "<"), (1, ">")):
                p.button(
                    f"{key}:{'prev' if sign < 0 else 'next'}",
                    mark,
                    lambda cmd=cmd, sign=sign: (cmd(sign), self._refresh_setup()),
                    (bx + sign * 0.4, y + 0.012),
                    scale=0.05,
                    frameSize=(-0.9, 0.9, -0.55, 1.05),
                )
            line = p.text(
                "", y - 0.058, 0.031, x=x + 0.03, align=TextNode.ALeft, fg=(0.8, 0.88, 0.8, 1)
            )
            self.setup_rows.append((b, value))
            self.setup_notes.append((line, note))
        return y - 0.058

    def _refresh_setup(self) -> None:
        for b, value in self.setup_rows:
            b["text"] = value()
        for line, note in getattr(self, "setup_notes", []):
            line.setText(note())
        if self.portrait is not None:
            self.portrait.setText(portrait(self.app.setup.level))
            set_picture(self.portrait_picture, self.app.setup.level)
        if getattr(self, "setup_summary", None):  # the network host's setup
            self._show_host_rules()

    def _cycle_level(self, step: int = 1) -> None:
        keys = [k for k, _ in levels()]
        s = self.app.setup
        s.level = keys[(keys.index(s.level) + step) % len(keys)] if s.level in keys else keys[0]

    def _cycle_preset(self, step: int = 1) -> None:
        names = ("classic", "pagat", "oklahoma")
        s = self.app.setup
        s.preset = names[(names.index(s.preset) + step) % len(names)]
        s.target = None
        self._check_options()

    def _cycle_target(self, step: int = 1) -> None:
        s = self.app.setup
        now = s.rules().game_target
        s.target = TARGETS[(TARGETS.index(now) + step) % len(TARGETS)] if now in TARGETS else 100

    def _toggle(self, key: str) -> None:
        s = self.app.setup
        s.options[key] = not s.options.get(key, False)
        self._check_options()

    def _check_options(self) -> None:
        s = self.app.setup
        try:
            s.rules()
            self.setup_note.setText("")
        except ValueError as err:  # e.g. no upcard with Oklahoma's upcard rules
            self.setup_note.setText(f"Not with these rules: {err}")
            for k in list(s.options):
                s.options[k] = False
            s.rules()

    def exitSetup(self) -> None:
        self.portrait = None
        self._close()

    # -- the table ------------------------------------------------------------------------
    def enterTable(self) -> None:
        self._close()
        session = self.app.session
        # unpause first: the input's refresh asks what is legal now, and a paused table
        # offers nothing (the prompt, the buttons and the glows stayed away after a pause)
        session.controller.set_paused(False)
        session.set_active(True)
        self._esc("Pause")
        if session.result_pending() and not self.app.queue.busy:
            # back from the pause menu while a result was showing: show it again
            self.app.taskMgr.doMethodLater(0, lambda task: self.app.hand_over(), "reshow-result")

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

    # -- results ----------------------------------------------------------------------------
    def enterHandResult(self) -> None:
        session = self.app.session
        game = session.game
        hand = game.hand
        names = session.controller.names
        # at the top, above both spreads (the opponent's hand is laid out by now)
        p = self._panel("", width=1.2, height=0.22, pos=(0, 0.76))
        if hand.result is None:
            p.title.setText("Drawn hand")
            p.text(
                "The stock ran down to two cards: nobody scores; the same dealer deals.",
                0.0,
                0.042,
            )
            self.app.sounds.play("click")
        else:
            r = hand.result
            winner = hand.winner
            p.title.setText(f"{names[winner]} won the hand")
            for y, line in zip((0.0, -0.065), hand_story(r, hand.knocker, names)):
                p.text(line, y, 0.046, fg=(1, 1, 0.8, 1))
            dead = {hand.knocker: r.knocker_deadwood, 1 - hand.knocker: r.other_deadwood}
            laid = f", {len(r.layoffs)} laid off" if r.layoffs else ""
            # seat order, as on the scores and the game-over sheet
            line = f"Deadwood: {names[0]} {dead[0]} - {names[1]} {dead[1]}{laid}"
            p.text(line, -0.15, 0.036, x=-0.62, fg=(0.85, 0.85, 0.8, 1))
            self.app.sounds.play("hand_won" if winner == 0 else "hand_lost")
        run = game.score.running() if hasattr(game.score, "running") else game.totals()
        gained = hand.result.points if hand.result is not None else 0
        before = list(run)
        if hand.winner is not None:
            before[hand.winner] -= gained
        x = 0.0 if hand.result is None else 0.22  # beside the deadwood line
        score = p.text("", -0.15, 0.04, x=x, fg=(0.85, 1, 0.85, 1))

        def show(f: float) -> None:
            now = [round(b + (r - b) * f) for b, r in zip(before, run)]
            score.setText(
                f"Score: {names[0]} {now[0]} - {names[1]} {now[1]}   (game to "
                f"{game.rules.game_target})"
            )

        self._count_up(show)
        p.button("next", "Next hand", self._next_hand, (0.98, -0.145), scale=0.055)
        self.app.accept("enter", self._next_hand)
        self.app.accept("n", self._next_hand)
        self._esc("Pause")

    def _count_up(self, show) -> None:
        """Points count up on the result screens (instant at animation speed 0)."""
        dur = self.app.queue.seconds(1.0)
        show(0.0)
        if dur <= 0:
            show(1.0)
            return
        self.counter = LerpFunctionInterval(
            show, duration=dur, fromData=0.0, toData=1.0, blendType="easeOut"
        )
        self.counter.start()

    def _next_hand(self) -> None:
        if self.app.session is not None and self.app.session.controller.next_hand():
            self.request("Table")

    def exitHandResult(self) -> None:
        self._stop_counter()
        self.app.ignore("enter")
        self.app.ignore("n")
        self._close()
        session = self.app.session
        if session is not None:
            for key in ("enter", "n"):  # give the table its keys back
                self.app.accept(key, session.input.do, [{"enter": "confirm"}.get(key, "next")])

    def enterGameOver(self) -> None:
        session = self.app.session
        game = session.game
        names = session.controller.names
        winner = game.winner
        p = self._panel(f"{names[winner]} won the game!", width=1.0, height=0.78)
        self.app.sounds.play("game_won" if winner == 0 else "hand_lost")
        rows = game.score.breakdown() if hasattr(game.score, "breakdown") else None
        y = 0.45
        for seat, x in ((0, 0.25), (1, 0.65)):  # each player's portrait over their column
            p.text(names[seat], y, 0.05, x=x, fg=GOLD)
            picture(p.frame, face_for(seat, names[seat]), (x, y + 0.09), 0.05, lit=seat == winner)
        labels = (
            ("points", "Hand points"),
            ("game_bonus", "Game bonus"),
            ("boxes", "Boxes"),
            ("shutout", "Shutout"),
            ("total", "Total"),
        )
        boxes = game.score.boxes() if hasattr(game.score, "boxes") else (0, 0)
        totals = []
        for i, (key, label) in enumerate(labels):
            yy = y - 0.1 * (i + 1)
            p.text(label, yy, 0.045, x=-0.85, align=TextNode.ALeft)
            for seat, x in ((0, 0.25), (1, 0.65)):
                value = rows[seat][key] if rows else (game.totals()[seat] if key == "total" else 0)
                suffix = f" ({boxes[seat]} won)" if key == "boxes" else ""
                cell = p.text(f"{value}{suffix}", yy, 0.045, x=x)
                if key == "total":
                    totals.append((cell, value))
        self._count_up(lambda f: [c.setText(str(round(v * f))) for c, v in totals])
        p.text(
            f"Margin: {game.score.margin if hasattr(game.score, 'margin') else 0}",
            y - 0.68,
            0.055,
            fg=(1, 1, 0.8, 1),
        )
        last = game.hand.result
        if last is not None:
            p.text(
                f"Last hand: {names[game.hand.winner]} - {last.breakdown()}",
                y - 0.8,
                0.042,
                fg=(0.85, 1, 0.85, 1),
            )
        p.button("again", "Play again", self._again, (-0.3, -0.62), scale=0.065)
        p.button("menu", "Main menu", lambda: self.request("Menu"), (0.35, -0.62), scale=0.06)
        notes = getattr(session, "notes", None)
        if notes is not None:  # a network match: "Play again" asks the opponent for a rematch
            p.buttons["again"]["text"] = "Rematch"
            note = p.text("", -0.73, 0.04, fg=(0.85, 0.95, 1, 1))
            notes.append(note.setText)
        self._esc("Menu")

    def _again(self) -> None:
        self.app.session.again()

    def exitGameOver(self) -> None:
        if getattr(self.app.session, "notes", None) is not None:
            self.app.session.notes.clear()
        self._stop_counter()
        self._close()

    def _stop_counter(self) -> None:
        if self.counter is not None:
            self.counter.finish()
            self.counter = None

    # -- rules and settings ---------------------------------------------------------------
    def enterRules(self, back: str = "Menu") -> None:
        self.back_to = back
        session = self.app.session
        rules = session.rules if session is not None else self.app.setup.rules()
        p = self._panel(f"Rules: {rules.name}", width=1.15, height=0.88)
        lines = [
            "Melds: 3-4 of a rank, or 3+ in a row of one suit (ace low). Deadwood: the rest.",
            "Your turn: draw (stock or pile), then discard. Knock when your deadwood is low",
            "enough; gin is 0. The other player lays off on the knocker's melds.",
            "",
            *rules.explain(),  # every number with what it means
        ]
        step = min(0.075, 1.3 / len(lines))
        for i, line in enumerate(lines):
            p.text(line, 0.6 - i * step, 0.04 if i < 3 else 0.036)
        p.button("back", "Back", lambda: self.request(self.back_to), (0, -0.78), scale=0.06)
        self._esc(back)

    def exitRules(self) -> None:
        self._close()


__all__ = ["GinApp", "GameSetup", "Session"]
