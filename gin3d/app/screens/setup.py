"""The new game's setup: opponent, rules preset, game target and rule options.

``SetupScreen`` is mixed into the app's screen FSM; its rows (``_rules_rows``) also make the
network host's table setup (``match.MatchScreens``), and both change ``app.setup``.
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG
from panda3d.core import TextNode

from ...engine.rules import OPTION_NOTES, PRESET_NOTES, TARGET_NOTE
from ...paths import save_path
from ...players import levels, portrait, strength
from ...scene.ui.panel import Panel
from ...scene.ui.portraits import picture, set_picture

TARGETS = (100, 150, 200, 250, 50)
TEAM_TARGETS = (125, 150, 200, 250, 100)  # a partnership game's (the rule pages say 125)
PLAYERS_NOTES = {
    2: "You against one computer",
    3: "You and two computers: the dealer sits each hand out",
    4: "Teams: you and a computer partner against two (first team to 125; not saved)",
}
OPTIONS = (
    ("last_chance", "Last chance"),
    ("allow_throw_back", "Throw-back"),
    ("straight_gin", "Straight gin"),
    ("no_upcard", "No upcard"),
)


class SetupScreen:
    """State ``Setup`` of the app's screen FSM (a mixin), and the rules rows it shares."""

    def enterSetup(self) -> None:
        p = self._panel("New game", width=1.05, height=0.94)
        self._rules_rows(p, 0.68, opponent=True)
        self.portrait = p.text("", -0.5, 0.034, x=0.14, fg=(0.9, 0.92, 0.85, 1))
        self.portrait["wordwrap"] = 48
        self.portrait_picture = picture(p.frame, "guest", (-0.8, -0.54), 0.09)
        self.setup_note = p.text("", -0.69, 0.04, fg=(1, 0.8, 0.6, 1))
        p.button(
            "start", "Deal", self._deal, (0.35, -0.81), scale=0.07, frameSize=(-3, 3, -0.55, 1.05)
        )
        p.button("back", "Back", lambda: self.request("Menu"), (-0.45, -0.81), scale=0.06)
        self._refresh_setup()
        self._esc("Menu")

    def _deal(self) -> None:
        """Start the game; a saved game in progress (of two or three players) is replaced
        only once the player agrees (a team game is not saved: it leaves the save alone)."""
        if self.app.setup.players == 4 or not save_path().exists():
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
                    "players",
                    "Players",
                    lambda: f"{s.players}",
                    self._cycle_players,
                    lambda: PLAYERS_NOTES[s.players],
                ),
                (
                    "level",
                    "Opponent",
                    lambda: dict(lv).get(s.level, s.level),
                    self._cycle_level,
                    lambda: "",
                ),
                (
                    "second",
                    "Second opponent",
                    lambda: dict(lv).get(s.computers()[-1], "") if s.players > 2 else "-",
                    self._cycle_second,
                    lambda: self._second_note(),
                ),
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
                lambda: (
                    f"{s.rules().partnership_target} (teams)"
                    if s.players == 4
                    else str(s.rules().game_target)
                ),
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
            level = self.app.setup.level
            self.portrait.setText("\n".join(t for t in (portrait(level), strength(level)) if t))
            set_picture(self.portrait_picture, level)
        if getattr(self, "setup_summary", None):  # the network host's setup
            self._show_host_rules()

    def _cycle_level(self, step: int = 1) -> None:
        keys = [k for k, _ in levels()]
        s = self.app.setup
        s.level = keys[(keys.index(s.level) + step) % len(keys)] if s.level in keys else keys[0]

    def _cycle_players(self, step: int = 1) -> None:
        s = self.app.setup
        s.players = 2 + (s.players - 2 + step) % 3  # 2, 3, 4 (teams)

    def _second_note(self) -> str:
        """Under the second opponent: in a team game, who your partner is."""
        s = self.app.setup
        if s.players == 4:
            return f"Your partner: {dict(levels()).get(s.computers()[1], '')}"
        return "" if s.players == 3 else "Only in a 3- or 4-player game"

    def _cycle_second(self, step: int = 1) -> None:
        """The second computer's level, never the first's (a 2-player game: to 3 players)."""
        s = self.app.setup
        if s.players == 2:
            s.players = 3
            return
        keys = [k for k, _ in levels() if k != s.level]
        now = s.computers()[-1]
        s.second_level = keys[(keys.index(now) + step) % len(keys)] if now in keys else keys[0]

    def _cycle_preset(self, step: int = 1) -> None:
        names = ("classic", "pagat", "oklahoma")
        s = self.app.setup
        s.preset = names[(names.index(s.preset) + step) % len(names)]
        s.target = None
        self._check_options()

    def _cycle_target(self, step: int = 1) -> None:
        """The game's target; in a team game, the teams' (the two-player one does not
        apply there)."""
        s = self.app.setup
        if s.players == 4:
            now = s.rules().partnership_target
            choices = TEAM_TARGETS
        else:
            now = s.rules().game_target
            choices = TARGETS
        pick = choices[(choices.index(now) + step) % len(choices)] if now in choices else choices[0]
        if s.players == 4:
            s.team_target = pick
        else:
            s.target = pick

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
        self.portrait_picture.destroy()  # kept here, it would keep the closed panel alive
        self._close()
