"""The single-player tournament: a ladder of four games against the computer opponents in
rising strength, played under the tournament rules, with a trophy at the top.

A climb goes rung by rung (``RUNGS``: Rosie, Walt, Margo, Professor Vance). Each rung is one
whole game to the target; winning it opens the next, losing it leaves the player on the same
rung to try again (every game started counts as a try). Winning the top rung earns the
trophy, kept with its date; then a new climb starts from the bottom, and the trophies of
every climb are kept and counted.

The ladder names the tournament game in progress by its game id (the save's and the
statistics'), so a game that is quit, resumed after a restart or a crash, and finished later
still counts for its rung: ``record`` takes the finished game only when its id is the one
the ladder is waiting for, and only once.

The ladder lives in ``tournament.json`` in the player's data folder, written atomically
after every change. A file that cannot be used is moved aside (``tournament.json.bad``) and
the player starts a fresh ladder with a message saying so; the game never fails to start
for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import RuleSet
from .paths import (
    FileFormatError,
    SetAside,
    data_dir,
    load_or_set_aside,
    read_json,
    write_atomic,
)

FORMAT = "gin3d-tournament"
VERSION = 1
FILE = "tournament.json"
# the opponents in rising strength (the computer levels' ids), the bottom rung first
RUNGS = ("beginner", "simple", "hard", "expert")
MAX_KEPT = 1000  # trophies and rounds kept at most (far beyond any player's climbs)
MAX_COUNT = 1_000_000  # no score, try or climb comes near this: a file saying so is damaged


def tournament_path() -> Path:
    return data_dir() / FILE


def tournament_rules() -> RuleSet:
    """The tournament rules: the game's own guide to them (RULES.md's ``classic`` column,
    from the player's guide of seed 000) exactly as written, every option off and the game
    to 100, whatever the player chose for their own games."""
    return RuleSet.preset("classic").but(name="tournament")


@dataclass(frozen=True)
class Round:
    """One finished tournament game: its rung, which try on that rung it was, whether the
    player won, the final totals (the player's first) and the day it ended."""

    rung: int
    attempt: int
    won: bool
    scores: tuple[int, int]
    game_id: str
    date: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "rung": self.rung,
            "try": self.attempt,
            "won": self.won,
            "scores": list(self.scores),
            "game_id": self.game_id,
            "date": self.date,
        }

    @classmethod
    def parse(cls, d: Any) -> Round:
        keys = {"rung", "try", "won", "scores", "game_id", "date"}
        if not isinstance(d, dict) or set(d) != keys:
            raise ValueError(f"not a tournament round: {str(d)[:60]}")
        rung, attempt, won, scores = d["rung"], d["try"], d["won"], d["scores"]
        if type(rung) is not int or rung not in range(len(RUNGS)):
            raise ValueError(f"bad rung {rung!r}")
        if type(attempt) is not int or not 1 <= attempt <= MAX_COUNT:
            raise ValueError(f"bad try {attempt!r}")
        if not isinstance(won, bool):
            raise ValueError(f"bad result {won!r}")
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or not all(type(s) is int and 0 <= s <= MAX_COUNT for s in scores)
        ):
            raise ValueError(f"bad scores {str(scores)[:40]}")
        for key in ("game_id", "date"):
            if not isinstance(d[key], str) or len(d[key]) > 80:
                raise ValueError(f"bad {key} {str(d[key])[:40]!r}")
        return cls(rung, attempt, won, (scores[0], scores[1]), d["game_id"], d["date"])


@dataclass
class Ladder:
    """Where the player stands: the rungs won in this climb, the tries on each rung, the
    finished games of this climb, the trophies of every climb (dates) and the tournament
    game in progress (its game id, "" when none)."""

    climb: int = 1  # which climb this is (a second one after the first trophy, ...)
    won: int = 0  # rungs won in this climb; len(RUNGS): the top reached
    tries: list[int] = field(default_factory=lambda: [0] * len(RUNGS))
    rounds: list[Round] = field(default_factory=list)
    trophies: list[str] = field(default_factory=list)
    playing: str = ""

    @property
    def finished(self) -> bool:
        """Whether this climb reached the top (its trophy is won)."""
        return self.won == len(RUNGS)

    @property
    def rung(self) -> int:
        """The rung to play next: the lowest not won (the top one when the climb is over)."""
        return min(self.won, len(RUNGS) - 1)

    def start(self, game_id: str) -> int:
        """A tournament game begins: a try on the next rung (a new climb from the bottom
        when this one is finished). Returns its rung."""
        if not game_id:
            raise ValueError("a tournament game needs its game id")
        if self.finished:
            self.climb += 1
            self.won, self.tries, self.rounds = 0, [0] * len(RUNGS), []
        self.tries[self.rung] += 1
        self.playing = game_id
        return self.rung

    def record(self, game_id: str, won: bool, scores: tuple[int, int], date: str) -> bool:
        """The tournament game ``game_id`` ended (``won`` by the player, final ``scores``,
        the player's first): the ladder climbs on a win, the trophy comes with the top
        rung. False, and nothing changes, for any other game or one already counted."""
        if not game_id or game_id != self.playing or self.finished:
            return False
        rung = self.rung
        self.rounds.append(Round(rung, self.tries[rung], won, scores, game_id, date))
        self.playing = ""
        if won:
            self.won += 1
            if self.finished:
                self.trophies.append(date)
        # the file keeps the newest MAX_KEPT of each (a file with more is refused as damaged)
        self.rounds, self.trophies = self.rounds[-MAX_KEPT:], self.trophies[-MAX_KEPT:]
        return True

    def title(self) -> str:
        """What the table calls the rung's game: "Tournament - rung 2 of 4, try 3"."""
        tries = self.tries[self.rung]
        again = f", try {tries}" if tries > 1 else ""
        return f"Tournament - rung {self.rung + 1} of {len(RUNGS)}{again}"

    def round_of(self, game_id: str) -> Round | None:
        """The finished game ``game_id`` of this climb (None: not one of its games)."""
        return next((r for r in self.rounds if r.game_id == game_id), None)

    def verdict(self, game_id: str, names: dict[str, str]) -> str:
        """What the finished game ``game_id`` meant for the ladder, in a line ("Rung 2
        won - next: Margo"), ``names`` the opponents' by level; "" when it is none of this
        climb's games."""
        r = self.round_of(game_id)
        if r is None:
            return ""
        who = names.get(RUNGS[r.rung], RUNGS[r.rung])
        if not r.won:
            return f"Rung {r.rung + 1} lost to {who} - try again (that was try {r.attempt})"
        if r.rung == len(RUNGS) - 1:
            n = len(self.trophies)
            return "Tournament won - the trophy is yours!" + (f" ({n} trophies)" if n > 1 else "")
        nxt = names.get(RUNGS[r.rung + 1], RUNGS[r.rung + 1])
        return f"Rung {r.rung + 1} won - next: {nxt}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "climb": self.climb,
            "won": self.won,
            "tries": list(self.tries),
            "rounds": [r.to_dict() for r in self.rounds],
            "trophies": list(self.trophies),
            "playing": self.playing,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"

    @classmethod
    def parse(cls, d: Any) -> Ladder:
        """A ladder from decoded JSON; ValueError names the first thing wrong."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ValueError("it is not a gin3d tournament file")
        if d.get("version") != VERSION:
            raise ValueError(f"it was written by another gin3d version ({d.get('version')!r})")
        known = {"format", "version", "climb", "won", "tries", "rounds", "trophies", "playing"}
        if set(d) != known:
            raise ValueError(f"it holds {sorted(set(d) ^ known)[0]!r} where it should not")
        climb, won, tries = d["climb"], d["won"], d["tries"]
        if type(climb) is not int or not 1 <= climb <= MAX_COUNT:
            raise ValueError(f"bad climb {climb!r}")
        if type(won) is not int or won not in range(len(RUNGS) + 1):
            raise ValueError(f"bad rungs won {won!r}")
        if (
            not isinstance(tries, list)
            or len(tries) != len(RUNGS)
            or not all(type(t) is int and 0 <= t <= MAX_COUNT for t in tries)
        ):
            raise ValueError(f"bad tries {str(tries)[:40]}")
        rounds, trophies, playing = d["rounds"], d["trophies"], d["playing"]
        if not isinstance(rounds, list) or len(rounds) > MAX_KEPT:
            raise ValueError("bad rounds")
        if (
            not isinstance(trophies, list)
            or len(trophies) > MAX_KEPT
            or not all(isinstance(t, str) and len(t) <= 40 for t in trophies)
        ):
            raise ValueError("bad trophies")
        if not isinstance(playing, str) or len(playing) > 80:
            raise ValueError("bad game in progress")
        return cls(climb, won, list(tries), [Round.parse(r) for r in rounds], trophies, playing)

    def save(self, path: Path | str | None = None) -> None:
        """Write the ladder atomically (an OSError leaves the old file whole)."""
        write_atomic(Path(path) if path is not None else tournament_path(), self.dumps())


def load(path: Path | str | None = None) -> tuple[Ladder, str | None]:
    """(the ladder, a message or None). No file: a fresh ladder. A file that cannot be used:
    a fresh ladder, the file kept aside, and a message saying so."""
    path = Path(path) if path is not None else tournament_path()
    try:
        ladder = load_or_set_aside(path, Ladder.parse)
    except SetAside as e:
        return Ladder(), f"Your tournament file {e.why}; the ladder starts afresh.{e.where}"
    return (Ladder() if ladder is None else ladder), None


def peek(path: Path | str | None = None) -> Ladder | None:
    """The ladder as saved, read without moving a damaged file aside (None: no file, or one
    that cannot be used). For a look from elsewhere (is this saved game the tournament's?):
    the ladder screen's ``load`` is the one that sets a damaged file aside and says so."""
    try:
        return Ladder.parse(read_json(path if path is not None else tournament_path()))
    except (OSError, UnicodeDecodeError, FileFormatError, TypeError, ValueError, RecursionError):
        return None


def settle(
    game_id: str,
    won: bool,
    scores: tuple[int, int],
    date: str,
    path: Path | str | None = None,
) -> tuple[Ladder, str | None]:
    """Count the finished game ``game_id`` on the saved ladder when it is the tournament
    game in progress, and write the ladder. (the ladder, a message when it could not be
    read or written, else None)."""
    ladder, message = load(path)
    if ladder.record(game_id, won, scores, date):
        try:
            ladder.save(path)
        except OSError as exc:
            message = f"The tournament could not be saved ({exc.strerror or exc})."
    return ladder, message
