"""Keeps a single-player game's files (two, three or four players) up to date while it is
played.

``GameKeeper.update()`` is called after every action (the table controller's change hook):
it rewrites the save atomically, and when a hand ends it counts the hand in the statistics
and keeps it in the hand history; when the game ends it counts the game and removes the save.
Statistics skip what they have already counted, so catching up after a resume (or a crash
between the save and the statistics) never counts a hand twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from . import stats as stats_mod
from .engine import Game, PartnershipGame, ThreePlayerGame
from .engine.groups import team_of
from .history import HandRecord, append_hand
from .paths import history_path, save_path, stats_path
from .saves import SavedGame, Seat, saveable, write_save


def new_game_id(seed: int | str) -> str:
    return f"{seed}-{uuid.uuid4().hex[:8]}"


def count_results(
    stats: stats_mod.Stats,
    game: Game,
    level: str,
    seat: int,
    game_id: str,
    names: tuple[str, str],
    history_file: Path,
) -> bool:
    """Count in ``stats`` every finished hand of ``game`` not counted yet, keeping each in
    the hand history, and the game once it is over (``seat``: the local player's). True if
    anything was counted: the caller then saves the statistics."""
    counted = False
    for hand in game.hands:
        if hand.over and stats.record_hand(level, hand, seat, game_id):
            append_hand(HandRecord.of(hand, names, game_id, level, you=seat), history_file)
            counted = True
    if game.over:
        counted |= stats.record_game(level, game, seat, game_id)
    return counted


THREE_PLAYERS = "three"  # the statistics' pseudo-level of three-player games


def count_three_player_results(
    stats: stats_mod.Stats,
    game: ThreePlayerGame,
    player: int,
    game_id: str,
    names: tuple[str, ...],
    history_file: Path,
) -> bool:
    """``count_results`` for a three-player game: each finished hand ``player`` played (not
    the ones they sat out), in their seat of that hand, kept in the hand history with its
    two players' names, and the game once it is over, all under ``THREE_PLAYERS``."""
    counted = False
    for hand, seats in zip(game.hands, game.seats):
        if not hand.over or player not in seats:
            continue
        if stats.record_hand(THREE_PLAYERS, hand, seats.index(player), game_id):
            pair = (names[seats[0]], names[seats[1]])
            record = HandRecord.of(hand, pair, game_id, THREE_PLAYERS, you=seats.index(player))
            append_hand(record, history_file)
            counted = True
    if game.over:
        counted |= stats.record_game(THREE_PLAYERS, game, player, game_id)
    return counted


PARTNERSHIPS = "teams"  # the statistics' pseudo-level of partnership games


def count_partnership_results(
    stats: stats_mod.Stats,
    game: PartnershipGame,
    game_id: str,
    names: tuple[str, ...],
    history_file: Path,
    player: int = 0,
) -> bool:
    """``count_results`` for a partnership game, from ``player``'s chair (yours; at home
    player 0): your hand of the round once it is over (each round's own, at the table where
    you play it, against the opponent you faced), kept in the hand history with its two
    players' names, and the game once it is over, won when your team won, all under
    ``PARTNERSHIPS``. Called after every action (or every round), so every round's hand is
    counted while it is on the table."""
    counted = False
    table = next(t for t in (0, 1) if player in game.seats[t])
    hand, seats = game.tables[table], game.seats[table]
    if hand.over and stats.record_hand(PARTNERSHIPS, hand, seats.index(player), game_id):
        pair = tuple(names[p] for p in seats)
        partners = tuple(names[(p + 2) % 4] for p in seats)  # each one's teammate
        record = HandRecord.of(
            hand, pair, game_id, PARTNERSHIPS, you=seats.index(player), partners=partners
        )
        append_hand(record, history_file)
        counted = True
    if game.over:
        counted |= stats.record_game(PARTNERSHIPS, game, team_of(player), game_id)
    return counted


@dataclass
class GameKeeper:
    """The save, statistics and history of one single-player game. Two-player games count
    by the opponent's level; a three-player game's hands and the game count together under
    their own row (``THREE_PLAYERS``: a hand there is against whichever computer plays it),
    and a partnership game's under theirs (``PARTNERSHIPS``: your own hand of each round, and
    the game as your team's)."""

    game: SavedGame
    seats: tuple[Seat, ...]
    game_id: str = ""
    save_file: Path = field(default_factory=save_path)
    stats_file: Path = field(default_factory=stats_path)
    history_file: Path = field(default_factory=history_path)
    messages: list[str] = field(default_factory=list)
    error: str = ""  # the last write failed (disk full, read-only): for the table to show

    def __post_init__(self) -> None:
        if not saveable(self.seats):
            raise ValueError("a kept game has one human seat, the others computer seats")
        self.human = [s.kind for s in self.seats].index("human")
        if len(self.seats) == 2:
            self.level = self.seats[1 - self.human].level or "simple"
        else:
            self.level = THREE_PLAYERS if len(self.seats) == 3 else PARTNERSHIPS
        self.game_id = self.game_id or new_game_id(self.game.seed)
        self.stats, message = stats_mod.load(self.stats_file)
        if message:
            self.messages.append(message)
        self._written: tuple[int, int] | None = None
        self._stats_due = False
        self.update()

    @property
    def names(self) -> tuple[str, str]:
        return (self.seats[0].name, self.seats[1].name)

    def update(self, game: SavedGame | None = None) -> bool:
        """Bring the files up to date with ``game`` (a new Game after an undo, or the same
        one after an action). True if anything was written."""
        if game is not None:
            self.game = game
        g = self.game
        key = (id(g), len(g.actions))
        if key == self._written:
            return False
        try:
            self._write(g)
        except OSError as exc:  # the old files stay whole (atomic writes): retry next time
            self.error = (
                f"Your game could not be saved ({exc.strerror or exc}); the last "
                "good save is kept and play goes on."
            )
            return False
        self._written = key
        self.error = ""
        return True

    def _write(self, g: SavedGame) -> None:
        write_save(g, self.seats, self.save_file, self.game_id)
        if isinstance(g, PartnershipGame):
            everyone = tuple(seat.name for seat in self.seats)
            counted = count_partnership_results(
                self.stats, g, self.game_id, everyone, self.history_file
            )
        elif isinstance(g, ThreePlayerGame):
            everyone = tuple(seat.name for seat in self.seats)
            counted = count_three_player_results(
                self.stats, g, self.human, self.game_id, everyone, self.history_file
            )
        else:
            counted = count_results(
                self.stats, g, self.level, self.human, self.game_id, self.names, self.history_file
            )
        if counted or self._stats_due:
            self._stats_due = True
            self.stats.save(self.stats_file)
            self._stats_due = False


NET_KINDS = ("lan", "online")


@dataclass
class MatchKeeper:
    """Statistics and hand history of a network match (or table), from the local player's
    side.

    Fed the match's current game in local seat numbers (seat 0 = this player) after every
    verified hand. Network results are kept under the pseudo-levels ``lan`` and ``online``
    with the opponent's name in the history (a table's game of three or four, after every
    agreed hand or round: ``record_table``, in the rows of those games at home). The game
    id names the match and the game (``net-<match>-<game number>``), so a resumed match
    (its earlier hands fed again) or a rematch (a new game number) never counts anything
    twice.
    """

    kind: str
    names: tuple[str, str]  # (this player, the opponent)
    match_id: str
    stats_file: Path = field(default_factory=stats_path)
    history_file: Path = field(default_factory=history_path)
    messages: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in NET_KINDS:
            raise ValueError(f"a network match is lan or online, not {self.kind!r}")
        if not self.match_id:
            raise ValueError("a network match needs its match id")
        self.stats, message = stats_mod.load(self.stats_file)
        if message:
            self.messages.append(message)

    def game_id(self, game_number: int) -> str:
        return f"net-{self.match_id[:16]}-{game_number}"

    def record(self, game: Game, game_number: int) -> bool:
        """Count every finished hand (and the game, once over) not counted yet."""
        gid = self.game_id(game_number)
        counted = count_results(self.stats, game, self.kind, 0, gid, self.names, self.history_file)
        if counted:
            self.stats.save(self.stats_file)
        return counted

    def record_table(
        self, game: ThreePlayerGame | PartnershipGame, player: int, names: tuple[str, ...]
    ) -> bool:
        """A network table's game (``match_id``: the table's id; it plays one game) after
        each agreed hand or round, from ``player``'s chair: counted as the same game played
        at home is, in its own row (``THREE_PLAYERS``, ``PARTNERSHIPS``), every player by
        ``names``; each hand once."""
        gid = self.game_id(0)
        if isinstance(game, PartnershipGame):
            counted = count_partnership_results(
                self.stats, game, gid, names, self.history_file, player
            )
        else:
            counted = count_three_player_results(
                self.stats, game, player, gid, names, self.history_file
            )
        if counted:
            self.stats.save(self.stats_file)
        return counted
