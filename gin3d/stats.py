"""The player's statistics per opponent level, kept in the user's data folder.

Updated from finished hands and games (the engine's ``Hand`` and ``Game``), each counted once:
a hand or game already recorded (same game id and hand number) is skipped, so recording again
after a resume does not count twice. Saved atomically; a damaged file gives empty statistics
and a message, and is kept aside.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .engine import Game, Hand
from .paths import SetAside, load_or_set_aside, stats_path, write_atomic

FORMAT = "gin3d-stats"
VERSION = 1
RECENT_KEYS = 200  # how many recorded hand/game ids are remembered against double counting


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


@dataclass
class Stats:
    """All levels' records plus the ids of recently recorded hands and games."""

    levels: dict[str, LevelStats] = field(default_factory=dict)
    recorded: list[str] = field(default_factory=list)

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

    def record_game(self, level: str, game: Game, seat: int, game_id: str = "") -> bool:
        """Count a finished game (its hands should be recorded one by one as they end)."""
        if not game.over:
            raise ValueError("only a finished game can be counted")
        if not self._once(f"{game_id}:game"):
            return False
        s = self.level(level)
        s.games_played += 1
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

    # -- the file -----------------------------------------------------------------------
    def dumps(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "levels": {k: asdict(v) for k, v in sorted(self.levels.items())},
                    "recorded": self.recorded,
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
        if not isinstance(levels, dict):
            raise ValueError("has no levels")
        if not isinstance(recorded, list) or not all(isinstance(k, str) for k in recorded):
            raise ValueError("has a bad list of recorded hands")
        return cls(
            {str(k): LevelStats.from_dict(v) for k, v in levels.items()},
            list(recorded)[-RECENT_KEYS:],
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
