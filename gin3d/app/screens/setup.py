"""The new game's setup: opponent, rules preset, game target and rule options.

Its rows (``RulesRows``) also make the network host's table setup (``match.HostSetupScreen``);
both change the services' ``setup``, the next game's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from direct.gui.DirectGui import DGG
from panda3d.core import TextNode

from ...engine.rules import OPTION_NOTES, PRESET_NOTES, TARGET_NOTE
from ...paths import save_path
from ...players import levels, portrait, strength
from ...scene.ui.panel import Panel
from ...scene.ui.portraits import picture, set_picture
from .base import Screen

if TYPE_CHECKING:
    from ..game_app import GameSetup

TARGETS = (100, 150, 200, 250, 50)
TEAM_TARGETS = (125, 150, 200, 250, 100, 50)  # a partnership game's (the rule pages say 125)
PLAYERS_NOTES = {
    2: "You against one computer",
    3: "You and two computers: the dealer sits each hand out",
    4: "Teams: you and a computer partner against two (first team to 125)",
}
OPTIONS = (
    ("last_chance", "Last chance"),
    ("allow_throw_back", "Throw-back"),
    ("straight_gin", "Straight gin"),
    ("no_upcard", "No upcard"),
)


class SetupScreen(Screen):
    """State ``Setup``: the New game screen (its rows, the opponent's portrait, Deal)."""

    name = "Setup"

    def enter(self) -> None:
        p = self._panel("New game", width=1.05, height=0.94)
        self.rows = RulesRows(self.services.setup, p, 0.68, opponent=True, on_change=self._refresh)
        self.portrait = p.text("", -0.5, 0.034, x=0.14, fg=(0.9, 0.92, 0.85, 1))
        self.portrait["wordwrap"] = 48
        self.portrait_picture = picture(p.frame, "guest", (-0.8, -0.54), 0.09)
        self.rows.note = p.text("", -0.69, 0.04, fg=(1, 0.8, 0.6, 1))
        p.button(
            "start", "Deal", self._deal, (0.35, -0.81), scale=0.07, frameSize=(-3, 3, -0.55, 1.05)
        )
        p.button("back", "Back", lambda: self.request("Menu"), (-0.45, -0.81), scale=0.06)
        self._refresh()
        self._esc("Menu")

    def _refresh(self) -> None:
        """The rows, and the chosen opponent's portrait and strength."""
        self.rows.refresh()
        level = self.services.setup.level
        self.portrait.setText("\n".join(t for t in (portrait(level), strength(level)) if t))
        set_picture(self.portrait_picture, level)

    def _deal(self) -> None:
        """Start the game; a saved game in progress (of any kind: there is one save) is
        replaced only once the player agrees."""
        if not save_path().exists():
            self.services.start_single_player()
            return
        self.request(
            "Confirm",
            "Replace your game in progress?",
            "Dealing a new game ends the saved one (Resume game on the menu continues it).",
            "Deal",
            self.services.start_single_player,
            ("Setup",),
        )

    def exit(self) -> None:
        self.portrait = None
        self.portrait_picture.destroy()  # kept here, it would keep the closed panel alive
        self._close()


class RulesRows:
    """The setup's rows (opponent level, rules preset, game target, rule options) as label
    + cycling button, each with a line saying what it means, on any panel: the single-player
    setup and the network host's table setup share them (and the ``GameSetup``). A click
    moves to the next choice, a right-click (or the ``<`` button) back to the one before;
    then ``on_change`` redraws (``refresh`` when not given). ``note`` is a text the screen
    places for "not with these rules"; ``last_y`` the y of the last row's line. ``players``
    fixes how many play (a network table's host: 2, 3 or 4), else the setup's row says it."""

    def __init__(
        self,
        setup: GameSetup,
        p: Panel,
        top: float,
        opponent: bool,
        x: float = -0.9,
        step: float = 0.13,
        on_change: Callable[[], None] | None = None,
        players: int | None = None,
    ) -> None:
        self.setup = setup
        self.fixed_players = players
        self.note = None
        self.on_change = on_change or self.refresh
        self.last_y = self._build(p, top, opponent, x, step)

    @property
    def players(self) -> int:
        return self.fixed_players or self.setup.players

    def _build(self, p: Panel, top: float, opponent: bool, x: float, step: float) -> float:
        s = self.setup
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
                    if self.players == 4
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
        self.rows = []
        self.notes: list = []  # (text, what it says now)
        y = top
        for i, (key, label, value, cmd, note) in enumerate(rows):
            y = top - i * step
            p.text(label, y, 0.05, x=x, align=TextNode.ALeft)
            bx = x + 1.25
            b = p.button(
                key,
                value(),
                lambda cmd=cmd: (cmd(1), self.on_change()),
                (bx, y + 0.012),
                scale=0.05,
                frameSize=(-6.5, 6.5, -0.55, 1.05),
            )
            b.bind(DGG.B3PRESS, lambda _ev, cmd=cmd: (cmd(-1), self.on_change()))
            for sign, mark in ((-1, "<"), (1, ">")):
                p.button(
                    f"{key}:{'prev' if sign < 0 else 'next'}",
                    mark,
                    lambda cmd=cmd, sign=sign: (cmd(sign), self.on_change()),
                    (bx + sign * 0.4, y + 0.012),
                    scale=0.05,
                    frameSize=(-0.9, 0.9, -0.55, 1.05),
                )
            line = p.text(
                "", y - 0.046, 0.028, x=x + 0.03, align=TextNode.ALeft, fg=(0.8, 0.88, 0.8, 1)
            )
            self.rows.append((b, value))
            self.notes.append((line, note))
        return y - 0.058

    def refresh(self) -> None:
        for b, value in self.rows:
            b["text"] = value()
        for line, note in self.notes:
            line.setText(note())

    def _cycle_level(self, step: int = 1) -> None:
        keys = [k for k, _ in levels()]
        s = self.setup
        s.level = keys[(keys.index(s.level) + step) % len(keys)] if s.level in keys else keys[0]

    def _cycle_players(self, step: int = 1) -> None:
        s = self.setup
        s.players = 2 + (s.players - 2 + step) % 3  # 2, 3, 4 (teams)

    def _second_note(self) -> str:
        """Under the second opponent: in a team game, who your partner is."""
        s = self.setup
        if s.players == 4:
            return f"Your partner: {dict(levels()).get(s.computers()[1], '')}"
        return "" if s.players == 3 else "Only in a 3- or 4-player game"

    def _cycle_second(self, step: int = 1) -> None:
        """The second computer's level, never the first's (a 2-player game: to 3 players)."""
        s = self.setup
        if s.players == 2:
            s.players = 3
            return
        keys = [k for k, _ in levels() if k != s.level]
        now = s.computers()[-1]
        s.second_level = keys[(keys.index(now) + step) % len(keys)] if now in keys else keys[0]

    def _cycle_preset(self, step: int = 1) -> None:
        names = ("classic", "pagat", "oklahoma")
        s = self.setup
        s.preset = names[(names.index(s.preset) + step) % len(names)]
        s.target = None
        self._check_options()

    def _cycle_target(self, step: int = 1) -> None:
        """The game's target; in a team game, the teams' (the two-player one does not
        apply there)."""
        s = self.setup
        if self.players == 4:
            now = s.rules().partnership_target
            choices = TEAM_TARGETS
        else:
            now = s.rules().game_target
            choices = TARGETS
        pick = choices[(choices.index(now) + step) % len(choices)] if now in choices else choices[0]
        if self.players == 4:
            s.team_target = pick
        else:
            s.target = pick

    def _toggle(self, key: str) -> None:
        s = self.setup
        s.options[key] = not s.options.get(key, False)
        self._check_options()

    def _check_options(self) -> None:
        s = self.setup
        try:
            s.rules()
            self.note.setText("")
        except ValueError as err:  # e.g. no upcard with Oklahoma's upcard rules
            self.note.setText(f"Not with these rules: {err}")
            for k in list(s.options):
                s.options[k] = False
            s.rules()
