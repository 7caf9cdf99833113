"""Gin for three players and for four in two teams, over the unchanged two-player ``Hand``.

The rule pages (RULES.md, "Other ways to play" of seed 001) describe both; a hand is always
between two players:

- **Three players**: the dealer deals to the other two and sits that hand out; the loser of
  each hand deals the next, so the winner stays in and plays the player who just dealt. The
  source gives no scoring: each player keeps their own score to ``game_target``, the first
  to reach it wins the game bonus, and (``three_player_boxes``, on by default) every player
  gets ``box_bonus`` for each hand they won. A drawn hand is dealt again by the same dealer.
- **Four players in two teams** (players 0 and 2 against 1 and 3): each round is two
  ordinary hands at once, each player against one player of the other team, partners taking
  turns facing each opponent. If both partners win, the team scores both results added; if
  each team wins one, the team with more points scores the difference (the same thing: the
  team ahead in the round scores the difference of the two teams' points). First team to
  ``partnership_target`` (125) wins; the game and box bonuses are options, off by default
  because the source leaves them open.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .actions import Action, NextHand, parse_action
from .cards import CARDS
from .events import Event
from .hand import Hand, IllegalAction, rebuild_game, shuffled_deck
from .rules import RuleSet

TEAMS = ((0, 2), (1, 3))  # partnership: team 0 and team 1, by player


def cut_among(seed: int | str, players: int) -> int:
    """Every player draws a card; the highest deals (ranks K high, then suits S > H > D > C)."""
    cards = random.Random(f"{seed}:cut{players}").sample(CARDS, players)
    return max(range(players), key=lambda p: (cards[p].rank, -cards[p].suit))


def three_player_seats(dealer: int) -> tuple[int, int]:
    """The two players of a hand dealt by ``dealer`` (who sits it out): the player after the
    dealer is hand seat 0 and acts first, the other is seat 1 and takes the dealer's part."""
    return (dealer + 1) % 3, (dealer + 2) % 3


def three_player_next_dealer(dealer: int, players: tuple[int, int], winner: int | None) -> int:
    """The loser of a hand deals the next one (the winner stays in and meets the player who
    just dealt); after a drawn hand (no winner) the same dealer deals again."""
    if winner is None:
        return dealer
    if winner not in players:
        raise ValueError(f"player {winner} did not play this hand")
    return players[1] if winner == players[0] else players[0]


def round_score(results: list[tuple[int | None, int]]) -> tuple[int | None, int]:
    """A partnership round from its two hands, each ``(winning team or None, points)``: the
    team with more points scores the difference (both hands won by one team: their sum); equal
    points, or two drawn hands, score nothing. Returns ``(team or None, points)``."""
    points = [0, 0]
    for team, won in results:
        if team is not None:
            if team not in (0, 1) or won < 0:
                raise ValueError(f"bad hand result {(team, won)!r}")
            points[team] += won
    if points[0] == points[1]:
        return None, 0
    ahead = 0 if points[0] > points[1] else 1
    return ahead, points[ahead] - points[1 - ahead]


def team_of(player: int) -> int:
    if player not in range(4):
        raise ValueError(f"a partnership game has players 0..3, not {player!r}")
    return player % 2


def pairings(round_number: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Who plays whom in a round, as (team-0 player, team-1 player) per table: partners take
    turns facing each opponent (0 meets 1 and 3 in turn, 2 meets 3 and 1)."""
    if round_number % 2 == 0:
        return (0, 1), (2, 3)
    return (0, 3), (2, 1)


def partnership_dealer_seat(first_dealer_team: int, round_number: int) -> int:
    """The hand seat that deals at both tables in a round (hand seat 0 is the team-0 player):
    the teams deal in turn, ``first_dealer_team`` first."""
    return (first_dealer_team + round_number) % 2


def table_move_text(table: int | None, action: Action) -> str:
    """A partnership game's logged action as text: its table, then the action (the next
    round's ``NextHand``, which belongs to no table, as it is)."""
    return str(action) if table is None else f"{table} {action}"


def parse_table_move(text: str) -> tuple[int | None, Action]:
    """``table_move_text`` read back; ValueError for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"a logged move is a text, not {text!r}")
    if text == str(NextHand()):
        return None, NextHand()
    table, _, rest = text.partition(" ")
    if table not in ("0", "1"):
        raise ValueError(f"a logged move starts with its table, 0 or 1: {text!r}")
    return int(table), parse_action(rest)


class ExplicitDecks:
    """The deck orders a game was given (a network table's fair deals, known only once each
    hand is played); without them every hand is shuffled from the seed."""

    def __init__(self, decks: Sequence[Sequence[int]] | None) -> None:
        self._decks = None if decks is None else [list(d) for d in decks]

    def get(self, n: int, seed: str) -> list:
        if self._decks is not None and n < len(self._decks):
            return self._decks[n]
        return shuffled_deck(seed)

    def add(self, deck: Sequence[int], most: int) -> None:
        """Append a deck; at most ``most`` decks may be known now. ValueError (nothing
        changes) for a game without explicit decks or a deck too far ahead."""
        if self._decks is None or len(self._decks) >= most:
            raise ValueError("a deck can be added only for the next hand of a game with decks")
        self._decks.append(list(deck))

    def orders(self) -> tuple[tuple[int, ...], ...] | None:
        if self._decks is None:
            return None
        return tuple(tuple(int(c) for c in d) for d in self._decks)


class PointsToTarget:
    """Hand (or round) results, ``(winner or None, points)``, tallied per player or team
    until one reaches the target: what both ways of playing share."""

    sides: int
    results: list[tuple[int | None, int]]

    @property
    def target(self) -> int:
        raise NotImplementedError

    def running(self) -> list[int]:
        """Points per side so far, without bonuses."""
        totals = [0] * self.sides
        for side, points in self.results:
            if side is not None:
                totals[side] += points
        return totals

    def boxes(self) -> list[int]:
        """Hands (rounds) won per side."""
        return [sum(1 for s, _ in self.results if s == side) for side in range(self.sides)]

    @property
    def over(self) -> bool:
        return max(self.running()) >= self.target

    @property
    def winner(self) -> int | None:
        """The side that reached the target (only one gains points at a time)."""
        if not self.over:
            return None
        run = self.running()
        return run.index(max(run))


class ThreePlayerGame(PointsToTarget):
    """Hands between two of three players until one reaches ``game_target``."""

    players = sides = 3

    def __init__(
        self,
        rules: RuleSet | None = None,
        seed: int | str = 0,
        first_dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules or RuleSet()
        self.seed = seed
        self._decks = ExplicitDecks(decks)
        self.dealer_cut = first_dealer is None  # chosen by the cut for the seed
        if first_dealer is None:
            first_dealer = cut_among(seed, 3)
        if first_dealer not in range(3) or isinstance(first_dealer, bool):
            raise ValueError(f"first_dealer must be 0, 1 or 2, got {first_dealer!r}")
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.hands: list[Hand] = []
        self.seats: list[tuple[int, int]] = []  # per hand: the players at hand seats 0 and 1
        self.results: list[tuple[int | None, int]] = []  # per finished hand: (player, points)
        self.actions: list[Action] = []
        self._deal()

    @classmethod
    def from_log(
        cls,
        rules: RuleSet,
        seed: int | str,
        actions: Iterable[Action | str] = (),
        *,
        first_dealer: int,
        dealer_cut: bool = False,
    ) -> ThreePlayerGame:
        """The game rebuilt from its log (as ``Game.from_log``: the same state, since the
        engine is deterministic); ``dealer_cut``: the cut for ``seed`` chose the first dealer
        and must give ``first_dealer``. ``LogError`` if the log does not rebuild."""
        return rebuild_game(
            lambda: cls(rules, seed, first_dealer=None if dealer_cut else first_dealer),
            first_dealer,
            actions,
            who="player",
        )

    def _deal(self) -> None:
        n = len(self.hands)
        deck = self._decks.get(n, f"{self.seed}:3p:{n}")
        self.hand = Hand(self.rules, 1, deck, hand_number=n)
        self.hands.append(self.hand)
        self.seats.append(three_player_seats(self.dealer))

    # -- queries ------------------------------------------------------------------------
    @property
    def playing(self) -> tuple[int, int]:
        """The two players of the hand in progress (hand seats 0 and 1)."""
        return self.seats[-1]

    @property
    def sitting_out(self) -> int:
        return self.dealer

    @property
    def decks(self) -> tuple[tuple[int, ...], ...] | None:
        """The explicit deck orders (a network table's fair deals), or None: every hand is
        shuffled from the seed (as ``Game.decks``)."""
        return self._decks.orders()

    def add_deck(self, deck: Sequence[int]) -> None:
        """The next hand's deck, before its ``NextHand`` (see ``Game.add_deck``)."""
        self._decks.add(deck, len(self.hands) + 1)

    @property
    def next_dealer(self) -> int:
        """Who deals the hand after this one, once it is over (the loser; the same dealer
        after a drawn hand): a network table knows its players before the deck exists."""
        if not self.hand.over:
            raise ValueError("the hand is not over")
        return three_player_next_dealer(self.dealer, self.playing, self.results[-1][0])

    @property
    def turn(self) -> int:
        """The player whose move it is."""
        return self.playing[self.hand.turn]

    @property
    def target(self) -> int:
        return self.rules.game_target

    def totals(self) -> list[int]:
        """Each player's score: hand points, and once the game is over the game bonus to the
        winner and the box bonuses."""
        totals = self.running()
        if self.over:
            totals[self.winner] += self.rules.game_bonus
            if self.rules.three_player_boxes:
                totals = [t + self.rules.box_bonus * b for t, b in zip(totals, self.boxes())]
        return totals

    def legal_actions(self) -> list[Action]:
        if self.hand.over:
            return [] if self.over else [NextHand()]
        return self.hand.legal_actions()

    def view(self, player: int):
        """What ``player`` may know of the hand in progress (ValueError for the player who
        sits it out: they see the table, not a hand)."""
        if player not in self.playing:
            raise ValueError(f"player {player} sits out this hand")
        seat = self.playing.index(player)
        run = self.running()
        scores = (run[player], run[self.playing[1 - seat]])
        return self.hand.view(seat, scores, self.rules.game_target)

    # -- changes ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """The move of the player whose turn it is, or NextHand after a hand. IllegalAction
        (and nothing changes) for anything not legal now."""
        if isinstance(action, NextHand):
            if not self.hand.over or self.over:
                raise IllegalAction("next hand is only possible after a hand, before game over")
            self.actions.append(action)
            winner = self.results[-1][0]
            self.dealer = three_player_next_dealer(self.dealer, self.playing, winner)
            self._deal()
            return list(self.hand.events)
        events = self.hand.apply(action)
        self.actions.append(action)
        if self.hand.over:
            seat = self.hand.winner
            if seat is None or self.hand.result is None:
                self.results.append((None, 0))
            else:
                self.results.append((self.playing[seat], self.hand.result.points))
        return events


class PartnershipGame(PointsToTarget):
    """Rounds of two hands at once, team 0 (players 0, 2) against team 1 (players 1, 3)."""

    players = 4
    sides = 2  # the teams

    def __init__(
        self,
        rules: RuleSet | None = None,
        seed: int | str = 0,
        first_dealer_team: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.rules = rules or RuleSet()
        self.seed = seed
        self._decks = ExplicitDecks(decks)  # round r, table t: deck 2r + t
        dealer_cut = first_dealer_team is None
        if first_dealer_team is None:
            first_dealer_team = team_of(cut_among(seed, 4))
        if first_dealer_team not in (0, 1):
            raise ValueError(f"first_dealer_team must be 0 or 1, got {first_dealer_team!r}")
        self.first_dealer_team = first_dealer_team
        self.dealer_cut = dealer_cut  # chosen by the cut for the seed
        self.results: list[tuple[int | None, int]] = []  # per finished round: (team, points)
        self.actions: list[tuple[int | None, Action]] = []  # (table or None, action)
        self.tables: list[Hand] = []
        self._deal()

    @classmethod
    def from_log(
        cls,
        rules: RuleSet,
        seed: int | str,
        log: Iterable[str],
        *,
        first_dealer: int,
        dealer_cut: bool = False,
    ) -> PartnershipGame:
        """The game rebuilt from its log (``log()``'s texts), as ``Game.from_log``:
        ``first_dealer`` is the team that dealt first; ``dealer_cut``: the cut for ``seed``
        chose it and must give it again. ``LogError`` if the log does not rebuild."""
        return rebuild_game(
            lambda: cls(rules, seed, first_dealer_team=None if dealer_cut else first_dealer),
            first_dealer,
            log,
            who="team",
            apply=lambda game, entry: game.apply(*parse_table_move(entry)),
        )

    @property
    def first_dealer(self) -> int:
        """The team that dealt the first round (what a save calls the first dealer)."""
        return self.first_dealer_team

    def log(self) -> list[str]:
        """Every action in text form, a move with its table first (``"1 discard 7H"``),
        ``"next hand"`` as it is: what ``from_log`` reads back."""
        return [table_move_text(table, action) for table, action in self.actions]

    def _deal(self) -> None:
        """A new round: one hand per table; the same team deals at both tables, in turn."""
        r = len(self.results)
        dealer_seat = self.dealer_seat(r)
        self.tables = [
            Hand(
                self.rules,
                dealer_seat,
                self._decks.get(2 * r + t, f"{self.seed}:4p:{r}:{t}"),
                hand_number=r,
            )
            for t in (0, 1)
        ]

    def dealer_seat(self, round_number: int) -> int:
        return partnership_dealer_seat(self.first_dealer_team, round_number)

    @property
    def decks(self) -> tuple[tuple[int, ...], ...] | None:
        """The explicit deck orders, two a round (table 0, then table 1), or None."""
        return self._decks.orders()

    def add_deck(self, deck: Sequence[int]) -> None:
        """A deck of the next round (table 0's, then table 1's), before its ``NextHand``."""
        self._decks.add(deck, 2 * len(self.results) + 2)

    # -- queries ------------------------------------------------------------------------
    @property
    def round_number(self) -> int:
        return len(self.results) - (1 if self.round_over else 0)

    @property
    def seats(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Per table, the players at hand seats 0 and 1."""
        return pairings(self.round_number)

    @property
    def round_over(self) -> bool:
        return all(hand.over for hand in self.tables)

    def turn(self, table: int) -> int:
        """The player whose move it is at ``table``."""
        return self.seats[table][self.tables[table].turn]

    @property
    def target(self) -> int:
        return self.rules.partnership_target

    def totals(self) -> list[int]:
        """Per team: round points, and once over the game and box bonuses where the rules
        turn them on (``partnership_game_bonus``, ``partnership_box_bonus``)."""
        totals = self.running()
        if self.over:
            if self.rules.partnership_game_bonus:
                totals[self.winner] += self.rules.game_bonus
            if self.rules.partnership_box_bonus:
                totals = [t + self.rules.box_bonus * b for t, b in zip(totals, self.boxes())]
        return totals

    def legal_actions(self, table: int) -> list[Action]:
        if self.round_over:
            return [] if self.over else [NextHand()]
        return self.tables[self._table(table)].legal_actions()

    def view(self, player: int):
        """What ``player`` may know of their own hand this round."""
        team = team_of(player)
        for table, seats in enumerate(self.seats):
            if player in seats:
                seat = seats.index(player)
                run = self.running()
                return self.tables[table].view(seat, (run[team], run[1 - team]), None)
        raise AssertionError("every player plays every round")  # pragma: no cover

    # -- changes ------------------------------------------------------------------------
    def _table(self, table: int) -> int:
        if table not in (0, 1):
            raise IllegalAction(f"there are tables 0 and 1, not {table!r}")
        return table

    def apply(self, table: int | None, action: Action) -> list[Event]:
        """A move at ``table``, or ``NextHand`` (table None) once both hands of the round are
        over. IllegalAction, and nothing changes, for anything not legal now."""
        if isinstance(action, NextHand):
            if not self.round_over or self.over:
                raise IllegalAction("the next round starts once both hands are over")
            self.actions.append((None, action))
            self._deal()
            return [e for hand in self.tables for e in hand.events]
        hand = self.tables[self._table(table)]
        if hand.over:
            raise IllegalAction(f"the hand at table {table} is over")
        events = hand.apply(action)
        self.actions.append((table, action))
        if self.round_over:
            self.results.append(round_score([self._result(t) for t in (0, 1)]))
        return events

    def _result(self, table: int) -> tuple[int | None, int]:
        hand = self.tables[table]
        if hand.winner is None or hand.result is None:
            return None, 0
        return team_of(self.seats[table][hand.winner]), hand.result.points
