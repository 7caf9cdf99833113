"""The player's statistics per opponent level, kept in the user's data folder.

Updated from finished hands and games (the engine's ``Hand`` and ``Game``), each counted once:
a finished game is also kept in a list of recent games (``GameEntry``: when, against whom, under
which rules, won or lost, the hand points of each side) for the charts and the achievements;
a hand or game already recorded (same game id and hand number) is skipped, so recording again
after a resume does not count twice. Saved atomically; a damaged file gives empty statistics
and a message, and is kept aside.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .engine import Game, Hand, PartnershipGame, ThreePlayerGame
from .paths import SetAside, load_or_set_aside, stats_path, write_atomic

FORMAT = "gin3d-stats"
VERSION = 1
RECENT_KEYS = 200  # how many recorded hand/game ids are remembered against double counting
RECENT_GAMES = 500  # how many finished games the charts look back on


@dataclass
class LevelStats:
    """One opponent level's record, from the human player's side."""

    games_played: int = 0
    games_won: int = 0
    hands_played: int = 0  # drawn hands included
    hands_won: int = 0
    hands_drawn: int = 0
    knocks: int = 0  # hands the player knocked and won without gin
    gins: int = 0
    big_gins: int = 0
    undercuts: int = 0  # the player undercut the opponent's knock
    undercut_against: int = 0  # the opponent undercut the player's knock
    points: int = 0  # hand points the player won (before game bonuses)
    points_against: int = 0
    streak: int = 0  # games won in a row, now
    best_streak: int = 0
    hand_streak: int = 0  # hands won in a row, now (a drawn hand does not break it)
    best_hand_streak: int = 0

    @property
    def average_points(self) -> float:
        """Points won per hand played."""
        return self.points / self.hands_played if self.hands_played else 0.0

    @property
    def game_win_rate(self) -> float:
        return self.games_won / self.games_played if self.games_played else 0.0

    @property
    def hand_win_rate(self) -> float:
        return self.hands_won / self.hands_played if self.hands_played else 0.0

    @classmethod
    def from_dict(cls, d: Any) -> LevelStats:
        if not isinstance(d, dict):
            raise ValueError(f"not a statistics record: {d!r}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - names)
        if unknown:
            raise ValueError(f"unknown statistic {unknown[0]!r}")
        for k, v in d.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"statistic {k} must be a whole number >= 0, got {v!r}")
        return cls(**d)


@dataclass(frozen=True)
class GameEntry:
    """One finished game, from the player's side: what the charts and achievements read.
    ``points`` and ``against`` are hand points without bonuses (the opponents' best side in a
    game of three or of teams), so a game won with ``against == 0`` is a shutout."""

    when: str  # ISO time, UTC
    level: str  # the opponent's level, or the pseudo-level (three, teams, lan, online)
    rules: str  # the rules' preset name
    won: bool
    points: int
    against: int

    @property
    def shutout(self) -> bool:
        return self.won and self.against == 0

    @classmethod
    def from_dict(cls, d: Any) -> GameEntry:
        if not isinstance(d, dict) or set(d) != {f.name for f in fields(cls)}:
            raise ValueError(f"not a finished game: {d!r:.60}")
        for k in ("when", "level", "rules"):
            if not isinstance(d[k], str) or len(d[k]) > 60:
                raise ValueError(f"a finished game's {k} must be a short text")
        if not isinstance(d["won"], bool):
            raise ValueError("a finished game's won must be true or false")
        for k in ("points", "against"):
            v = d[k]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"a finished game's {k} must be a whole number >= 0")
        return cls(**d)


def hand_points(game: Game | ThreePlayerGame | PartnershipGame, side: int) -> tuple[int, int]:
    """(hand points of ``side``, the best of the other sides') in a finished game: a
    two-player ``Game`` from its hands, a game of three or of teams from its tally."""
    if isinstance(game, Game):
        won = [0, 0]
        for h in game.hands:
            if h.over and h.result is not None and h.winner is not None:
                won[h.winner] += h.result.points
        return won[side], won[1 - side]
    running = game.running()
    return running[side], max(p for i, p in enumerate(running) if i != side)


@dataclass
class Stats:
    """All levels' records plus the ids of recently recorded hands and games, and the
    recent games themselves (oldest first)."""

    levels: dict[str, LevelStats] = field(default_factory=dict)
    recorded: list[str] = field(default_factory=list)
    games: list[GameEntry] = field(default_factory=list)

    def level(self, level: str) -> LevelStats:
        return self.levels.setdefault(level, LevelStats())

    def total(self) -> LevelStats:
        """All levels added up (streaks: the best of any level)."""
        out = LevelStats()
        for s in self.levels.values():
            for f in fields(LevelStats):
                if f.name in ("streak", "best_streak", "hand_streak", "best_hand_streak"):
                    setattr(out, f.name, max(getattr(out, f.name), getattr(s, f.name)))
                else:
                    setattr(out, f.name, getattr(out, f.name) + getattr(s, f.name))
        return out

    def _once(self, key: str) -> bool:
        """True the first time ``key`` is seen (and remember it)."""
        if key in self.recorded:
            return False
        self.recorded.append(key)
        del self.recorded[:-RECENT_KEYS]
        return True

    def record_hand(self, level: str, hand: Hand, seat: int, game_id: str = "") -> bool:
        """Count a finished hand for the player in ``seat`` against ``level``.
        Returns False (and changes nothing) if it was already counted or is not over."""
        if not hand.over:
            raise ValueError("only a finished hand can be counted")
        if not self._once(f"{game_id}:hand:{hand.hand_number}"):
            return False
        s = self.level(level)
        s.hands_played += 1
        if hand.result is None:
            s.hands_drawn += 1
            return True
        r = hand.result
        won = hand.winner == seat
        if won:
            s.hands_won += 1
            s.points += r.points
            s.hand_streak += 1
            s.best_hand_streak = max(s.best_hand_streak, s.hand_streak)
        else:
            s.points_against += r.points
            s.hand_streak = 0
        i_knocked = hand.knocker == seat
        if r.kind == "gin" and i_knocked:
            s.gins += 1
        elif r.kind == "big_gin" and i_knocked:
            s.big_gins += 1
        elif r.kind == "knock" and i_knocked:
            s.knocks += 1
        elif r.kind == "undercut":
            if i_knocked:
                s.undercut_against += 1
            else:
                s.undercuts += 1
        return True

    def record_game(
        self,
        level: str,
        game: Game | ThreePlayerGame | PartnershipGame,
        seat: int,
        game_id: str = "",
        when: datetime | None = None,
    ) -> bool:
        """Count a finished game (its hands should be recorded one by one as they end):
        a two-player ``Game``, or a game of three or of teams (``seat``: the player's side)."""
        if not game.over:
            raise ValueError("only a finished game can be counted")
        if not self._once(f"{game_id}:game"):
            return False
        s = self.level(level)
        s.games_played += 1
        points, against = hand_points(game, seat)
        when = when or datetime.now(timezone.utc)
        self.games.append(
            GameEntry(
                when.isoformat(timespec="seconds"),
                level,
                game.rules.name,
                game.winner == seat,
                points,
                against,
            )
        )
        del self.games[:-RECENT_GAMES]
        if game.winner == seat:
            s.games_won += 1
            s.streak += 1
            s.best_streak = max(s.best_streak, s.streak)
        else:
            s.streak = 0
        return True

    def chart(self, order: tuple[str, ...] = ()) -> list[tuple[str, int, int]]:
        """(level, games won, games lost) per level, in ``order`` then the rest, for the chart."""
        names = [n for n in order if n in self.levels] + sorted(
            n for n in self.levels if n not in order
        )
        return [
            (n, self.levels[n].games_won, self.levels[n].games_played - self.levels[n].games_won)
            for n in names
        ]

    def rules_chart(self) -> list[tuple[str, int, int]]:
        """(rules, games won, games lost) per rules preset of the recent games, most played
        first."""
        tally: dict[str, list[int]] = {}
        for g in self.games:
            won_lost = tally.setdefault(g.rules, [0, 0])
            won_lost[0 if g.won else 1] += 1
        return sorted(
            ((name, w, lost) for name, (w, lost) in tally.items()), key=lambda r: -(r[1] + r[2])
        )

    def win_rate_line(self, last: int = 40, window: int = 10) -> list[float]:
        """The share of games won over the ``window`` games up to each of the ``last``
        recent games (fewer at the start), for the line chart: the game keeps no rating."""
        results = [g.won for g in self.games]
        out = []
        for i in range(max(0, len(results) - last), len(results)):
            span = results[max(0, i + 1 - window) : i + 1]
            out.append(sum(span) / len(span))
        return out

    # -- the file -----------------------------------------------------------------------
    def dumps(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "levels": {k: asdict(v) for k, v in sorted(self.levels.items())},
                    "recorded": self.recorded,
                    "games": [asdict(g) for g in self.games],
                },
                indent=1,
            )
            + "\n"
        )

    @classmethod
    def parse(cls, data: Any) -> Stats:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("is not a gin3d statistics file")
        if data.get("version") != VERSION:
            raise ValueError(f"has an unknown version ({data.get('version')!r})")
        levels = data.get("levels")
        recorded = data.get("recorded", [])
        games = data.get("games", [])
        if not isinstance(levels, dict):
            raise ValueError("has no levels")
        if not isinstance(recorded, list) or not all(isinstance(k, str) for k in recorded):
            raise ValueError("has a bad list of recorded hands")
        if not isinstance(games, list):
            raise ValueError("has a bad list of finished games")
        return cls(
            {str(k): LevelStats.from_dict(v) for k, v in levels.items()},
            list(recorded)[-RECENT_KEYS:],
            [GameEntry.from_dict(g) for g in games][-RECENT_GAMES:],
        )

    def save(self, path: Path | str | None = None) -> Path:
        path = Path(path) if path is not None else stats_path()
        write_atomic(path, self.dumps())
        return path


def load(path: Path | str | None = None) -> tuple[Stats, str | None]:
    """(statistics, message or None). A damaged file gives empty statistics, kept aside."""
    path = Path(path) if path is not None else stats_path()
    try:
        stats = load_or_set_aside(path, Stats.parse)
    except SetAside as e:
        return Stats(), f"Your statistics file {e.why}; statistics start afresh.{e.where}"
    return (Stats() if stats is None else stats), None
