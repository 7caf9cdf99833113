"""A network table's game as every player knows it: built by the engine from agreed hands.

No score is taken on trust. Each finished hand comes to every player as a record (the deck
its fair deal produced and its moves), sent by each of its two players; once both agree,
every player replays it with the engine's group game (``ThreePlayerGame`` or
``PartnershipGame``), which says who plays the next hand, who deals and what everyone
scores. The table's move log (a ``MoveLog``: game 0, hand = the table's hand number, seat =
the player) is the same on every peer exactly when all replayed the same hands.
"""

from __future__ import annotations

from gin3d.engine import NextHand, PartnershipGame, RuleSet, ThreePlayerGame, parse_action
from gin3d.engine.groups import (
    cut_among,
    pairings,
    partnership_dealer_seat,
    team_of,
    three_player_seats,
)

from .movelog import MoveLog

Record = tuple[list[int], list[str]]  # a hand's deck (slot order) and its moves


def stand_in(players: int, seats: tuple[int, int], gone: int) -> int:
    """Who runs the computer player for ``gone`` at a hand between ``seats``: a player not
    at that hand (who must not see the computer's cards while playing against it): at
    three, the one sitting the hand out; at four, ``gone``'s partner (at the other table)."""
    if players == 3:
        return next(p for p in range(3) if p not in seats)
    return (gone + 2) % 4


class TableGame:
    """The engine's game of a table of ``players`` (3, or 4 in two teams)."""

    def __init__(self, rules: RuleSet, players: int, seed: str, table_id: str) -> None:
        if players not in (3, 4):
            raise ValueError("a table has 3 or 4 players")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.first = cut_among(seed, players)  # 3: the first dealer; 4: their team deals first
        self.game: ThreePlayerGame | PartnershipGame | None = None
        self.log = MoveLog(table_id)

    def next_hands(self) -> list[tuple[int, tuple[int, int], int]]:
        """The hands to play now: (table hand number, the players at hand seats 0 and 1, the
        hand seat that deals). One for three players, two at once for a partnership round."""
        g = self.game
        if self.players == 3:
            dealer = self.first if g is None else g.next_dealer
            return [(0 if g is None else len(g.hands), three_player_seats(dealer), 1)]
        r = 0 if g is None else len(g.results)
        seat = partnership_dealer_seat(team_of(self.first), r)
        return [(2 * r + t, seats, seat) for t, seats in enumerate(pairings(r))]

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    def totals(self) -> list[int]:
        return [] if self.game is None else self.game.totals()

    def add(self, records: list[Record]) -> None:
        """Replay the hands ``next_hands`` named, from their agreed records, with the engine.
        ValueError (an ``IllegalAction`` or a bad move text) if they do not replay to their
        end; the table then stops, so a half-applied round is never played on."""
        decks = [deck for deck, _ in records]
        if self.players == 3:
            if self.game is None:
                self.game = ThreePlayerGame(self.rules, self.seed, self.first, decks=decks)
            else:
                self.game.add_deck(decks[0])
                self.game.apply(NextHand())
            game = self.game
            self._moves(len(game.hands) - 1, records[0][1], lambda: game.turn, game.apply)
            if not game.hand.over:
                raise ValueError("the hand's moves stop before its end")
            return
        if self.game is None:
            self.game = PartnershipGame(self.rules, self.seed, team_of(self.first), decks=decks)
        else:
            for deck in decks:
                self.game.add_deck(deck)
            self.game.apply(None, NextHand())
        game = self.game
        r = len(game.results)
        for t in (0, 1):
            self._moves(
                2 * r + t,
                records[t][1],
                lambda t=t: game.turn(t),
                lambda a, t=t: game.apply(t, a),
            )
        if not game.round_over:
            raise ValueError("the round's moves stop before its end")

    def played(self) -> list:
        """The engine's hands of the round ``add`` replayed last, in ``next_hands`` order."""
        if self.game is None:
            return []
        return [self.game.hand] if self.players == 3 else list(self.game.tables)

    def _moves(self, hand: int, actions: list[str], turn, apply) -> None:
        for text in actions:
            player = turn()
            apply(parse_action(text))
            self.log.append(0, hand, player, text)
