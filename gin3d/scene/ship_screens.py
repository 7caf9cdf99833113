"""The player's screens: settings, statistics (with a chart), hand history, replay, resume.

``ShipScreens`` is mixed into the app's screen FSM (``gin3d.app.Screens``); it uses the
FSM's panel helpers (``_panel``, ``_close``, ``_esc``). The files behind these screens are
the pure modules ``gin3d.settings``, ``gin3d.stats``, ``gin3d.history`` and ``gin3d.saves``.
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG, DirectEntry, DirectFrame, OnscreenText
from panda3d.core import TextNode, WindowProperties

from .. import settings as settings_mod
from .. import stats as stats_mod
from ..driver import GameDriver, OneHand, ReplayLog
from ..engine import PRESETS, best_melds
from ..history import HandRecord, Replay, read_hands
from ..players import levels, opponent_name
from ..settings import OPPONENT_LEVELS, Settings
from . import layout
from .hud import button, suitify
from .palette import GOLD
from .quality import is_software

RESOLUTIONS = ((1280, 720), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160))
SPEEDS = ((0.0, "Instant"), (0.6, "Slow"), (1.0, "Normal"), (1.8, "Fast"), (3.0, "Fastest"))
VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
STYLE_NAMES = {"classic": "Classic", "four_colour": "Four-colour", "large_index": "Large index"}
LEVEL_NAMES = {lv: opponent_name(lv) for lv, _ in levels()}  # short names: "Walt"
LEVEL_NAMES.update(lan="LAN games", online="Online games")  # network matches (MatchKeeper)
WON, LOST = (0.35, 0.78, 0.42, 1), (0.85, 0.35, 0.3, 1)
HISTORY_PAGE = 8
FAR_SCALE, FAR_STEP, FAR_GAP, FAR_TILT = 1.3, 5.0, 2.6, 35.0  # the far hand in a replay


def _next(options, value):
    """The option after ``value`` (the first one if ``value`` is not among them)."""
    options = list(options)
    return options[(options.index(value) + 1) % len(options)] if value in options else options[0]


def _speed_name(v: float) -> str:
    return next((n for s, n in SPEEDS if s == v), f"{v:g}x")


class ShipScreens:
    """Screen states for the app's FSM: Settings, Stats, History, Replay, Resume."""

    # -- settings -----------------------------------------------------------------------
    def enterSettings(self, back: str = "Menu") -> None:
        self.back_to = back
        self.draft = self.app.user_settings
        p = self._panel("Settings", width=1.45, height=0.9)
        d = lambda: self.draft  # noqa: E731 - rows read the draft as it changes
        left = [
            (
                "resolution",
                "Window size",
                lambda: "{} x {}".format(*d().resolution),
                lambda: self._set(resolution=_next(RESOLUTIONS, d().resolution)),
            ),
            (
                "fullscreen",
                "Full screen",
                lambda: "on" if d().fullscreen else "off",
                lambda: self._set(fullscreen=not d().fullscreen),
            ),
            (
                "antialiasing",
                "Antialiasing",
                lambda: f"{d().antialiasing}x" if d().antialiasing else "off",
                lambda: self._set(antialiasing=_next(settings_mod.MULTISAMPLES, d().antialiasing)),
            ),
            (
                "speed",
                "Animation",
                lambda: _speed_name(d().animation_speed),
                lambda: self._set(
                    animation_speed=_next([s for s, _ in SPEEDS], d().animation_speed)
                ),
            ),
            # the game has sound effects and no music: one honest row (sound_volume, kept
            # in the file for music, is not offered)
            (
                "effects",
                "Sound effects",
                lambda: f"{round(d().effects_volume * 100)}%",
                lambda: self._set(effects_volume=_next(VOLUMES, d().effects_volume)),
            ),
        ]
        right = [
            (
                "style",
                "Card style",
                lambda: STYLE_NAMES[d().card_style],
                lambda: self._set(card_style=_next(settings_mod.CARD_STYLES, d().card_style)),
            ),
            (
                "rules",
                "Default rules",
                lambda: d().rules_preset,
                lambda: self._set(
                    rules_preset=_next(PRESETS, d().rules_preset), rules_overrides={}
                ),
            ),
            (
                "level",
                "Opponent",
                lambda: LEVEL_NAMES.get(d().opponent_level, d().opponent_level),
                lambda: self._set(opponent_level=_next(OPPONENT_LEVELS, d().opponent_level)),
            ),
            (
                "undo",
                "Undo (casual)",
                lambda: "on" if d().undo_enabled else "off",
                lambda: self._set(undo_enabled=not d().undo_enabled),
            ),
            (
                "hints",
                "Hint button",
                lambda: "on" if d().hints_enabled else "off",
                lambda: self._set(hints_enabled=not d().hints_enabled),
            ),
        ]
        self.setting_rows = []
        for column, rows in ((-1.38, left), (0.08, right)):
            for i, (key, label, value, cmd) in enumerate(rows):
                y = 0.55 - i * 0.135
                p.text(label, y, 0.048, x=column, align=TextNode.ALeft)
                b = p.button(
                    key,
                    value(),
                    lambda cmd=cmd: (cmd(), self._refresh_settings()),
                    (column + 0.98, y + 0.012),
                    scale=0.046,
                    frameSize=(-4.6, 4.6, -0.55, 1.05),
                )
                self.setting_rows.append((b, value))
        aa_y = 0.55 - [k for k, *_ in left].index("antialiasing") * 0.135
        self.aa_note = p.text("", aa_y - 0.06, 0.03, x=-1.38 + 0.98, fg=(1, 0.8, 0.6, 1))
        y = 0.55 - len(right) * 0.135
        p.text("Your name", y, 0.048, x=0.08, align=TextNode.ALeft)
        self.name_entry = DirectEntry(
            parent=p.frame,
            initialText=self.draft.player_name,
            scale=0.046,
            width=9.2,
            pos=(0.6, 0, y),
            numLines=1,
            focus=0,
            frameColor=(0.95, 0.9, 0.75, 0.95),
            text_fg=(0.12, 0.08, 0.04, 1),
            relief=DGG.FLAT,
        )
        p.widgets.append(self.name_entry)
        self.settings_note = p.text(
            "Window size, full screen and antialiasing apply when "
            "gin3d starts again; the rest as soon as you save.",
            -0.56,
            0.036,
            fg=(0.85, 0.9, 0.85, 1),
        )
        self._refresh_settings()
        p.button(
            "save",
            "Save",
            self._save_settings,
            (0.35, -0.76),
            scale=0.06,
            frameSize=(-3, 3, -0.55, 1.05),
        )
        p.button(
            "back",
            "Cancel",
            lambda: self.request(self.back_to),
            (-0.35, -0.76),
            scale=0.06,
            frameSize=(-3, 3, -0.55, 1.05),
        )
        self._esc(back)

    def _set(self, **changes) -> None:
        self.draft = self.draft.but(**changes)

    def _refresh_settings(self) -> None:
        for b, value in self.setting_rows:
            b["text"] = value()
        # a software renderer draws without multisampling (quality.fit_framebuffer)
        off = self.draft.antialiasing and is_software(self.app)
        self.aa_note.setText("(not available on this renderer)" if off else "")

    def _save_settings(self) -> bool:
        """Check the draft (name included), write it, and apply what applies at once."""
        try:
            draft = self.draft.but(player_name=self.name_entry.get().strip())
        except ValueError as err:
            self.settings_note.setText(str(err))
            self.settings_note["fg"] = (1, 0.6, 0.5, 1)
            return False
        try:
            settings_mod.save(draft)
        except OSError as err:
            self.settings_note.setText(f"Could not save the settings: {err}")
            return False
        apply_settings(self.app, draft)
        self.request(self.back_to)
        return True

    def exitSettings(self) -> None:
        self._close()

    # -- statistics ---------------------------------------------------------------------
    def enterStats(self, back: str = "Menu") -> None:
        self.back_to = back
        st, message = stats_mod.load()
        p = self._panel("Statistics", width=1.5, height=0.9)
        levels = [lv for lv in OPPONENT_LEVELS if lv in st.levels] + sorted(
            lv for lv in st.levels if lv not in OPPONENT_LEVELS
        )
        heads = (
            "Opponent",
            "Games",
            "Won",
            "Hands",
            "Won",
            "Gins",
            "Big gins",
            "Undercuts",
            "Pts/hand",
            "Best streak",
        )
        xs = (-1.4, -0.72, -0.52, -0.32, -0.1, 0.1, 0.3, 0.55, 0.82, 1.12)
        y = 0.6
        for x, h in zip(xs, heads):
            p.text(h, y, 0.04, x=x, align=TextNode.ALeft, fg=GOLD)
        rows = [(LEVEL_NAMES.get(lv, lv), st.levels[lv]) for lv in levels]
        if len(rows) > 1:
            rows.append(("All", st.total()))
        for i, (name, s) in enumerate(rows):
            yy = y - 0.085 * (i + 1)
            values = (
                name,
                s.games_played,
                s.games_won,
                s.hands_played,
                s.hands_won,
                s.gins,
                s.big_gins,
                s.undercuts,
                f"{s.average_points:.1f}",
                s.best_streak,
            )
            for x, v in zip(xs, values):
                p.text(str(v), yy, 0.042, x=x, align=TextNode.ALeft)
        if not rows:
            p.text("No games finished yet: play one against the computer.", 0.4, 0.048)
        chart_top = y - 0.085 * (len(rows) + 1) - 0.08
        self.chart = draw_chart(
            p.frame, st.chart(OPPONENT_LEVELS), (-1.35, chart_top), 2.0, min(0.7, chart_top + 0.62)
        )
        if message:
            p.text(message, -0.66, 0.034, fg=(1, 0.7, 0.6, 1))
        p.button("back", "Back", lambda: self.request(self.back_to), (0, -0.8), scale=0.06)
        self._esc(back)

    def exitStats(self) -> None:
        self._close()

    # -- hand history ---------------------------------------------------------------------
    def enterHistory(self, page: int = 0) -> None:
        records, skipped = read_hands()
        records = records[::-1]  # newest first
        pages = max(1, (len(records) + HISTORY_PAGE - 1) // HISTORY_PAGE)
        page = max(0, min(page, pages - 1))
        p = self._panel("Hand history", width=1.2, height=0.9)
        shown = records[page * HISTORY_PAGE : (page + 1) * HISTORY_PAGE]
        if not shown:
            p.text("No hands played yet.", 0.3, 0.05)
        for i, r in enumerate(shown):
            opp = r.names[1] + {"lan": " (LAN)", "online": " (online)"}.get(
                r.opponent_level or "", ""
            )
            when = r.finished_at.replace("T", " ")[:16]
            label = f"{when}   vs {opp}   {r.summary()}"
            p.button(
                f"hand{i}",
                label,
                lambda r=r, page=page: self.request("Replay", r, page),
                (0, 0.55 - i * 0.11),
                scale=0.042,
                frameSize=(-26, 26, -0.55, 1.05),
                text_align=TextNode.ACenter,
            )
        p.text(f"Page {page + 1} of {pages}", -0.42, 0.04, fg=(0.85, 0.9, 0.85, 1))
        if skipped:
            p.text(f"{skipped} damaged entries were skipped.", -0.5, 0.035, fg=(1, 0.7, 0.6, 1))
        if page > 0:
            p.button(
                "prev",
                "Newer",
                lambda: self.request("History", page - 1),
                (-0.6, -0.62),
                scale=0.05,
            )
        if page + 1 < pages:
            p.button(
                "next", "Older", lambda: self.request("History", page + 1), (0.6, -0.62), scale=0.05
            )
        p.button("back", "Back", lambda: self.request("Menu"), (0, -0.76), scale=0.06)
        self._esc("Menu")

    def exitHistory(self) -> None:
        self._close()

    # -- replay ---------------------------------------------------------------------------
    def enterReplay(self, record: HandRecord, page: int = 0) -> None:
        self._close()
        self.app.end_game()
        view = self.replay_view = ReplayView(self.app, record)
        top = self._panel("", width=1.25, height=0.15, pos=(0, 0.82))
        top.title.setPos(0, -0.005)
        top.title.setScale(0.05)
        names = record.names
        self.replay_info = top.text(
            f"Replay of hand {record.hand_number + 1}: {names[0]} near, {names[1]} far, "
            "both hands face up",
            0.075,
            0.036,
            fg=GOLD,
        )
        self.replay_step = top.text("", -0.095, 0.034, fg=(0.85, 0.95, 0.85, 1))
        # the step buttons stand at the right edge, clear of both hands
        self.replay_bar = DirectFrame(parent=self.app.a2dRightCenter, frameColor=(0, 0, 0, 0))
        for i, (label, fn) in enumerate(
            (
                ("Start", view.start),
                ("< Back", view.back),
                ("Next >", view.forward),
                ("End", view.end),
                ("Close", lambda: self.request("History", page)),
            )
        ):
            button(
                self.replay_bar,
                label,
                lambda fn=fn: (fn(), self._refresh_replay()),
                (-0.2, 0, 0.26 - i * 0.12 - (0.06 if i == 4 else 0)),
                scale=0.05,
                frameSize=(-2.8, 2.8, -0.55, 1.05),
            )
        for key, fn in (
            ("arrow_left", view.back),
            ("arrow_right", view.forward),
            ("home", view.start),
            ("end", view.end),
        ):
            self.app.accept(key, lambda fn=fn: (fn(), self._refresh_replay()))
        self._refresh_replay()
        self._esc(None)
        self.app.accept("escape", self.request, ["History", page])

    def _refresh_replay(self) -> None:
        if self.panel is None or getattr(self, "replay_view", None) is None:
            return  # "Close" already left the replay
        r = self.replay_view.replay
        self.panel.title.setText(suitify(r.caption()))
        self.replay_step.setText(f"Step {r.step} of {r.length}   (arrow keys step, Esc closes)")

    def exitReplay(self) -> None:
        for key in ("arrow_left", "arrow_right", "home", "end"):
            self.app.ignore(key)
        self.replay_bar.destroy()
        self.replay_view.destroy()
        self.replay_view = None
        self._close()

    # -- resume on start ------------------------------------------------------------------
    def enterResume(self, resume) -> None:
        p = self._panel("Welcome back", width=1.0, height=0.42)
        p.text("You have a game in progress:", 0.14, 0.05)
        p.text(resume.describe(), 0.04, 0.046, fg=GOLD)
        p.button(
            "resume", "Resume", lambda: self.app.resume_game(resume), (0.35, -0.24), scale=0.065
        )
        p.button(
            "new",
            "New game",
            lambda: self.request(
                "Confirm",
                "Start over?",
                "Your game in progress will be deleted.",
                "Delete it",
                self._discard_resume,
                ("Resume", resume),
            ),
            (-0.35, -0.24),
            scale=0.06,
        )
        self._esc("Menu")

    def _discard_resume(self) -> None:
        from ..saves import delete_save

        delete_save()
        self.request("Menu")

    def exitResume(self) -> None:
        self._close()


def draw_chart(parent, rows, origin, width: float, height: float) -> DirectFrame:
    """A bar per level: games won (green) then lost (red), scaled to the most games."""
    root = DirectFrame(
        parent=parent,
        frameColor=(0, 0, 0, 0.25),
        frameSize=(0, width + 0.45, -height, 0.08),
        pos=(origin[0], 0, origin[1]),
    )
    OnscreenText(
        parent=root,
        text="Games won and lost",
        pos=(0.02, 0.01),
        scale=0.04,
        fg=GOLD,
        align=TextNode.ALeft,
    )
    if not rows:
        return root
    most = max(w + lost for _, w, lost in rows) or 1
    bar_h = min(0.1, (height - 0.06) / len(rows) * 0.7)
    step = (height - 0.06) / len(rows)
    x0 = 0.55
    for i, (level, won, lost) in enumerate(rows):
        y = -0.06 - i * step - bar_h
        OnscreenText(
            parent=root,
            text=LEVEL_NAMES.get(level, level),
            pos=(0.02, y + 0.02),
            scale=0.038,
            fg=(1, 1, 1, 1),
            align=TextNode.ALeft,
        )
        w_won = width * won / most
        w_lost = width * lost / most
        if won:
            DirectFrame(
                parent=root,
                frameColor=WON,
                relief=DGG.FLAT,
                frameSize=(x0, x0 + w_won, y, y + bar_h),
            )
        if lost:
            DirectFrame(
                parent=root,
                frameColor=LOST,
                relief=DGG.FLAT,
                frameSize=(x0 + w_won, x0 + w_won + w_lost, y, y + bar_h),
            )
        OnscreenText(
            parent=root,
            text=f"{won} won, {lost} lost",
            pos=(x0 + w_won + w_lost + 0.03, y + 0.02),
            scale=0.034,
            fg=(0.9, 0.9, 0.9, 1),
            align=TextNode.ALeft,
        )
    return root


def apply_settings(app, s: Settings) -> None:
    """Use settings now: animation speed, volumes, window size (where it can change live)."""
    app.user_settings = s
    app.set_speed(s.animation_speed)
    app.scene.set_style(s.card_style)  # at once, on every card
    app.sounds.volume = s.effects_volume
    app.sounds.enabled = s.effects_volume > 0
    setup = app.setup
    setup.level = s.opponent_level
    setup.preset = s.rules_preset
    setup.options = {k: v for k, v in s.rules_overrides.items() if isinstance(v, bool)}
    setup.target = s.rules_overrides.get("game_target")
    win = app.win
    if win is not None and hasattr(win, "requestProperties"):
        props = WindowProperties()
        if not win.isFullscreen():
            props.setSize(*s.resolution)
        win.requestProperties(props)


def window_prc(s: Settings) -> str:
    """Panda3D configuration lines for the window settings (read before the window opens)."""
    aa = s.antialiasing
    return (
        f"win-size {s.resolution[0]} {s.resolution[1]}\n"
        f"fullscreen {'#t' if s.fullscreen else '#f'}\n"
        f"framebuffer-multisample {'1' if aa else '0'}\nmultisamples {aa}\n"
    )


class ReplayView:
    """A recorded hand on the 3D table, both hands face up, stepped forwards and back.

    Every step rebuilds the table from the deal: the game driver plays the log's actions up
    to the step (``ReplaySeat``s), its events shown instantly (the engine is deterministic,
    so back is exact); the far hand is then turned face up."""

    def __init__(self, app, record: HandRecord) -> None:
        self.app = app
        self.scene = app.scene
        self.replay = Replay(record)
        self.show()

    def show(self) -> None:
        app, scene = self.app, self.scene
        queue = app.queue
        queue.clear()
        speed, sound = queue.speed, app.sounds.enabled
        queue.speed, app.sounds.enabled = 0, False
        try:
            for node in scene.cards:
                node.body.setScale(1)
            hand = self.replay.record.replay_hand()
            self._show_events(hand.events)
            log = ReplayLog(self.replay.actions[: self.replay.step])
            driver = GameDriver(OneHand(hand), log.seats(len(hand.hands)))
            driver.on_events.append(lambda action, events: self._show_events(events))
            driver.run()
            queue.finish_all()
            scene.relayout_hand(0)
            self._face_up_far_hand(hand)
        finally:
            queue.speed, app.sounds.enabled = speed, sound

    def _show_events(self, events) -> None:
        """Both hands face up: the replay shows every event as it is, nothing redacted."""
        for e in events:
            self.scene.show_event(e)

    def _face_up_far_hand(self, hand) -> None:
        """Lay seat 1's cards face up, grouped by melds, where its hand lies."""
        scene = self.scene
        nodes = scene.hands[1]
        cards = list(hand.hands[1])
        if not nodes or len(nodes) != len(cards):
            return
        known = {n.card: n for n in nodes if n.card is not None}
        spare = [n for n in nodes if n.card is None or n.card not in cards]
        for c in cards:
            if c not in known:
                node = spare.pop()
                node.set_face(c)
                known[c] = node
        arr = best_melds(cards)
        groups = [sorted(m, key=lambda c: (c.rank, c.suit)) for m in arr.melds]
        groups.append(sorted(arr.deadwood, key=lambda c: (c.rank, c.suit)))
        groups = [g for g in groups if g]
        xs = layout.group_xs([len(g) for g in groups], FAR_STEP, FAR_GAP)
        flat = [c for g in groups for c in g]
        for i, (c, x) in enumerate(zip(flat, xs)):
            node = known[c]
            scene._place(node, scene.anchor_opp, (x, -3.0, 2.0 + i * 0.03), (0.0, FAR_TILT, 0.0))
            node.body.setScale(FAR_SCALE)

    def forward(self) -> None:
        if not self.replay.at_end:
            self.replay.seek(self.replay.step + 1)
            self.show()

    def back(self) -> None:
        if not self.replay.at_start:
            self.replay.back()
            self.show()

    def start(self) -> None:
        self.replay.seek(0)
        self.show()

    def end(self) -> None:
        self.replay.seek(self.replay.length)
        self.show()

    def destroy(self) -> None:
        """Gather the cards back into the deck for the menus."""
        from ..engine import HandStarted

        queue = self.app.queue
        speed, queue.speed = queue.speed, 0
        try:
            for node in self.scene.cards:
                node.body.setScale(1)
            self.scene.show_event(HandStarted(0, 0, 31))
            queue.finish_all()
        finally:
            queue.speed = speed
