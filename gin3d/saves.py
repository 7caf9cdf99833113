"""Save and resume a single-player game. The save file *is* the game's action log.

A save holds the rules, the seed, the first dealer, the seats (human or computer and its
level: two; three for a three-player game, written as version 2, and four for a partnership
game, version 3, so that an older gin3d refuses either with a message instead of misreading
it) and every action so far in text form (``str(action)``; a partnership game's moves with
their table first, and its first dealer is the team that dealt first). Loading rebuilds the
``Game`` (``ThreePlayerGame``, ``PartnershipGame``) by replaying those actions: the engine
is deterministic, so the rebuilt game is the very same state. The file is rewritten
atomically after every action, so quitting, a crash or a power cut loses at most the action
being made.

A save that cannot be read or replayed raises ``SaveError`` with a clear message; the file is
moved aside (``savegame.json.bad``), never deleted, and the game starts fresh.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gin3d import version as gin3d_version

from .engine import Game, LogError, PartnershipGame, RuleSet, ThreePlayerGame
from .paths import (
    FileFormatError,
    SetAside,
    load_or_set_aside,
    read_json,
    save_path,
    write_atomic,
)

FORMAT = "gin3d-save"
VERSION = 1  # a two-player game (files older gin3d versions read too)
THREE_PLAYER_VERSION = 2  # a three-player game: three seats, the first dealer 0, 1 or 2
PARTNERSHIP_VERSION = 3  # four players in two teams: you are player 0, the first dealer a team
PLAYERS_BY_VERSION = {VERSION: 2, THREE_PLAYER_VERSION: 3, PARTNERSHIP_VERSION: 4}
VERSION_BY_PLAYERS = {players: version for version, players in PLAYERS_BY_VERSION.items()}
SavedGame = Game | ThreePlayerGame | PartnershipGame
SEAT_KINDS = ("human", "computer")
MAX_VERSION_TEXT = 40  # "gin3d_version": the version of gin3d that wrote the file


class SaveError(ValueError):
    """The save file cannot be used; the message says why, for the player."""


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a local human, or the computer at a level."""

    kind: str  # human | computer
    name: str
    level: str | None = None  # computer level (beginner, simple, hard, expert)

    def __post_init__(self) -> None:
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"a seat is one of {SEAT_KINDS}, got {self.kind!r}")
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a seat needs a name, got {self.name!r}")
        if self.kind == "computer" and not isinstance(self.level, str):
            raise ValueError("a computer seat needs a level")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.level is not None:
            d["level"] = self.level
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Seat:
        if not isinstance(d, dict) or set(d) - {"kind", "name", "level"}:
            raise ValueError(f"not a seat: {d!r}")
        return cls(d.get("kind"), d.get("name"), d.get("level"))


@dataclass
class GameRecord:
    """Everything needed to rebuild a game: its setup and its actions in text form."""

    rules: RuleSet
    seed: int | str
    first_dealer: int
    dealer_cut: bool  # the first dealer was chosen by the cut (the game has DealerChosen)
    seats: tuple[Seat, ...]  # two, three for a three-player game, four for partnerships
    actions: list[str] = field(default_factory=list)
    decks: list[list[int]] | None = None
    game_id: str = ""  # names the game in statistics and history (seeds may repeat)
    written_by: str = ""  # the gin3d version that wrote the file read ("" if it says none)

    @classmethod
    def of(cls, game: SavedGame, seats: tuple[Seat, ...], game_id: str = "") -> GameRecord:
        if isinstance(game, PartnershipGame):
            actions = game.log()
        else:
            actions = [str(a) for a in game.actions]
        return cls(
            rules=game.rules,
            seed=game.seed,
            first_dealer=game.first_dealer,
            dealer_cut=game.dealer_cut,
            seats=tuple(seats),
            actions=actions,
            decks=[list(d) for d in game.decks] if game.decks else None,
            game_id=game_id,
        )

    @property
    def human_seat(self) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "human":
                return i
        return None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "format": FORMAT,
            "version": VERSION_BY_PLAYERS[len(self.seats)],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "dealer_cut": self.dealer_cut,
            "seats": [s.to_dict() for s in self.seats],
            "actions": list(self.actions),
        }
        if self.decks is not None:
            d["decks"] = self.decks
        if self.game_id:
            d["game_id"] = self.game_id
        d["gin3d_version"] = gin3d_version()  # the version writing it, now
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"

    @classmethod
    def from_dict(cls, d: Any) -> GameRecord:
        """Check the shape of a decoded save; SaveError names the first problem."""
        if not isinstance(d, dict):
            raise SaveError("the save file does not hold a JSON object")
        if d.get("format") != FORMAT:
            raise SaveError("this is not a gin3d save file")
        version = d.get("version")
        if type(version) is not int or version not in PLAYERS_BY_VERSION:
            raise SaveError(f"the save was written by another gin3d version ({version!r})")
        try:
            return cls._checked(d, PLAYERS_BY_VERSION[version])
        except KeyError as e:
            raise SaveError(f"the save file lacks {e.args[0]!r}") from None
        except (TypeError, ValueError) as e:
            raise SaveError(f"the save file is damaged: {e}") from None

    @classmethod
    def _checked(cls, d: dict, players: int) -> GameRecord:
        """The record of a save of ``players`` seats (ValueError, KeyError: what is wrong)."""
        rules = RuleSet.from_dict(d["rules"])
        seed = d["seed"]
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"bad seed {seed!r}")
        first = d["first_dealer"]  # a partnership game's: the team, 0 or 1
        if first not in range(2 if players == 4 else players) or isinstance(first, bool):
            raise ValueError(f"bad first dealer {first!r}")
        cut = d["dealer_cut"]
        if not isinstance(cut, bool):
            raise ValueError(f"bad dealer_cut {cut!r}")
        seats = d["seats"]
        if not isinstance(seats, list) or len(seats) != players:
            raise ValueError(f"a game of this version has {players} seats")
        seats = tuple(Seat.from_dict(s) for s in seats)
        if players == 3 and not saveable(seats):
            raise ValueError("a three-player game has one human and two computer seats")
        if players == 4 and not (saveable(seats) and seats[0].kind == "human"):
            raise ValueError("a partnership game has you as player 0 and three computer seats")
        actions = d["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("the actions must be a list of texts")
        decks = _decks(d.get("decks"), players)
        game_id = d.get("game_id", "")
        if not isinstance(game_id, str):
            raise ValueError(f"bad game id {game_id!r}")
        written_by = d.get("gin3d_version", "")  # older saves do not say
        if not isinstance(written_by, str) or len(written_by) > MAX_VERSION_TEXT:
            raise ValueError(f"bad gin3d version {written_by!r}")
        return cls(rules, seed, first, cut, seats, list(actions), decks, game_id, written_by)

    def rebuild(self) -> SavedGame:
        """The game replayed from its setup and actions (SaveError if they don't fit)."""
        try:
            if len(self.seats) == 4:
                return PartnershipGame.from_log(
                    self.rules,
                    self.seed,
                    self.actions,
                    first_dealer=self.first_dealer,
                    dealer_cut=self.dealer_cut,
                )
            if len(self.seats) == 3:
                return ThreePlayerGame.from_log(
                    self.rules,
                    self.seed,
                    self.actions,
                    first_dealer=self.first_dealer,
                    dealer_cut=self.dealer_cut,
                )
            return Game.from_log(
                self.rules,
                self.seed,
                self.first_dealer,
                self.decks,
                self.actions,
                dealer_cut=self.dealer_cut,
            )
        except LogError as e:
            if e.part == "action":
                raise SaveError(
                    f"saved action {e.step + 1} ({e.action!r}) cannot be replayed: {e.reason}"
                ) from None
            if e.part == "dealer":
                raise SaveError(
                    "the saved first dealer does not match the cut for this seed"
                ) from None
            raise SaveError(f"the saved game cannot be set up: {e.reason}") from None


def _decks(decks: Any, players: int) -> list[list[int]] | None:
    """A save's explicit deck orders (a two-player game's; a group game has none)."""
    if decks is None:
        return None
    if players != 2:
        raise ValueError(f"a {players}-player game is dealt from its seed, not from saved decks")
    if not isinstance(decks, list) or not all(
        isinstance(x, list) and all(isinstance(c, int) for c in x) for x in decks
    ):
        raise ValueError("bad deck list")
    return decks


def saveable(seats: tuple[Seat, ...]) -> bool:
    """Only single-player games are saved: exactly one local human against the computer
    (two computers in a three-player game, three in a partnership game)."""
    kinds = sorted(s.kind for s in seats)
    return len(seats) in PLAYERS_BY_VERSION.values() and kinds == ["computer"] * (
        len(seats) - 1
    ) + ["human"]


def write_save(
    game: SavedGame,
    seats: tuple[Seat, ...],
    path: Path | str | None = None,
    game_id: str = "",
) -> Path:
    """Write the game atomically (call after every action). A finished game removes the save."""
    if not saveable(seats):
        raise ValueError("only a single-player game (one human, the rest computers) is saved")
    path = Path(path) if path is not None else save_path()
    if game.over:
        delete_save(path)
        return path
    write_atomic(path, GameRecord.of(game, seats, game_id).dumps())
    return path


def delete_save(path: Path | str | None = None) -> None:
    path = Path(path) if path is not None else save_path()
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def read_save(path: Path | str | None = None) -> GameRecord:
    """The record in a save file, not yet replayed. SaveError if it cannot be used."""
    path = Path(path) if path is not None else save_path()
    try:
        data = read_json(path)
    except FileNotFoundError:
        raise SaveError("there is no saved game") from None
    except (OSError, UnicodeDecodeError, FileFormatError) as e:
        raise _unreadable(e) from None
    return GameRecord.from_dict(data)


def _unreadable(error: Exception) -> SaveError:
    """The SaveError for a save file that could not be read or decoded (or ``error`` itself)."""
    if isinstance(error, FileFormatError):
        return SaveError(f"the save file is damaged: it {error}")
    if isinstance(error, (OSError, UnicodeDecodeError)):
        return SaveError(f"the save file cannot be read: {error}")
    return error


@dataclass(frozen=True)
class Resume:
    """A saved game offered on start: its record and the rebuilt game."""

    record: GameRecord
    game: SavedGame

    def describe(self) -> str:
        """One line for the resume prompt."""
        if len(self.record.seats) == 4:
            return self._describe_teams()
        if len(self.record.seats) == 3:
            return self._describe_three()
        opp = next((s for s in self.record.seats if s.kind == "computer"), None)
        totals = self.game.totals()
        human = self.record.human_seat or 0
        who = f" against {opp.name}" if opp else ""
        them = opp.name if opp else self.record.seats[1 - human].name
        return (
            f"Game{who}, hand {self.game.hand.hand_number + 1}, "
            f"score you {totals[human]}, {them} {totals[1 - human]}"
        )

    def _describe_three(self) -> str:
        """A three-player game's line: the two computers, the hand, the three scores."""
        seats, totals = self.record.seats, self.game.totals()
        human = self.record.human_seat or 0
        others = [i for i in range(3) if i != human]
        scores = ", ".join(
            f"{'you' if i == human else seats[i].name} {totals[i]}" for i in (human, *others)
        )
        return (
            f"Three players with {seats[others[0]].name} and {seats[others[1]].name}, "
            f"hand {self.game.hand.hand_number + 1}, score {scores}"
        )

    def _describe_teams(self) -> str:
        """A partnership game's line: your partner, the opponents, the round, both teams'
        scores (yours first)."""
        seats, (ours, theirs) = self.record.seats, self.game.totals()
        return (
            f"Partners with {seats[2].name} against {seats[1].name} and {seats[3].name}, "
            f"round {self.game.round_number + 1}, score your team {ours}, theirs {theirs}"
        )


def load_save(path: Path | str | None = None) -> Resume:
    """Read and replay a save. On any problem the file is set aside and SaveError raised."""
    path = Path(path) if path is not None else save_path()

    def resume(data: Any) -> Resume:
        record = GameRecord.from_dict(data)
        return Resume(record, record.rebuild())

    try:
        loaded = load_or_set_aside(path, resume, refused=(SaveError,))
    except SetAside as e:
        error = _unreadable(e.error)
        if e.kept is not None:
            raise SaveError(f"{error}. The file was kept as {e.kept.name}.") from None
        raise error from None
    if loaded is None:
        raise SaveError("there is no saved game")
    return loaded


def offer_resume(path: Path | str | None = None) -> tuple[Resume | None, str | None]:
    """What to offer on start: (a resumable game or None, a message for the player or None).
    Never raises for a bad file."""
    path = Path(path) if path is not None else save_path()
    if not path.exists():
        return None, None
    try:
        return load_save(path), None
    except SaveError as e:
        return None, f"Your saved game could not be restored: {e}"
