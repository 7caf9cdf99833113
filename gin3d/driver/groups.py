"""The group games on the one game loop: three players, and four in two teams.

A three-player game (``engine.ThreePlayerGame``) runs on a ``GameDriver`` as it is: a seat
per player, and each hand asks only the two players of that hand (``game.turn`` is a
player). A partnership round is two hands at once, one at each table: ``PartnershipTable``
shows one table of an ``engine.PartnershipGame`` with the face of a game, so each table has
its own driver, and ``PartnershipDriver`` pumps both and deals the next round
(``NextHand``) once both tables have shown their finished hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine import Action, Event, Hand, NextHand, PartnershipGame, PlayerView
from .loop import HAND_OVER, MOVED, GameDriver
from .seats import Seat


class PartnershipTable:
    """Table 0 or 1 of a partnership game, as a driver reads a game."""

    players = 4

    def __init__(self, game: PartnershipGame, table: int) -> None:
        if table not in (0, 1):
            raise ValueError(f"a partnership game has tables 0 and 1, not {table!r}")
        self.game = game
        self.table = table
        self.hands: list[Hand] = [game.tables[table]]  # this table's hands, one per round

    @property
    def hand(self) -> Hand:
        now = self.game.tables[self.table]
        if now is not self.hands[-1]:  # a new round was dealt (by either table)
            self.hands.append(now)
        return now

    @property
    def actions(self) -> list[Action]:
        return [a for t, a in self.game.actions if t == self.table]

    @property
    def playing(self) -> tuple[int, int]:
        """The two players at this table this round."""
        return self.game.seats[self.table]

    over = property(lambda self: self.game.over)
    turn = property(lambda self: self.game.turn(self.table))

    def legal_actions(self) -> list[Action]:
        if self.hand.over:
            return self.game.legal_actions(self.table) if self.game.round_over else []
        return self.game.legal_actions(self.table)

    def view(self, player: int) -> PlayerView:
        return self.game.view(player)

    def apply(self, action: Action) -> list[Event]:
        return self.game.apply(None if isinstance(action, NextHand) else self.table, action)


class PartnershipDriver:
    """Both tables of a partnership game, each on its own ``GameDriver`` over the same four
    seats (players 0 and 2 against 1 and 3); the hooks are each table's driver's."""

    def __init__(
        self,
        game: PartnershipGame,
        seats: Sequence[Seat],
        pace: Callable[[float], float] = float,
        deal_next: bool = False,
    ) -> None:
        self.game = game
        self.deal_next = deal_next  # deal the next round without being asked
        self.tables = [GameDriver(PartnershipTable(game, t), seats, pace) for t in (0, 1)]

    def pump(self, now: float) -> tuple[str, str]:
        """One step at each table (see ``GameDriver.pump``); each table's status. The next
        round is dealt once both tables have reported their finished hand."""
        status = self.tables[0].pump(now), self.tables[1].pump(now)
        if self.deal_next and status == (HAND_OVER, HAND_OVER):
            self.next_round()
            return MOVED, MOVED
        return status

    def next_round(self) -> bool:
        """Deal the next round once both hands are over (False when not possible)."""
        return self.tables[0].next_hand()

    def run(self, now: float = 0.0, limit: int = 100_000) -> tuple[str, str]:
        """Pump both tables until neither can move on (a test's or a tool's whole game)."""
        for _ in range(limit):
            status = self.pump(now)
            if MOVED not in status:
                return status
        raise RuntimeError(f"the game did not stop within {limit} steps")
