"""A game (or Hollywood set, or match): hands dealt one after another, scored to the target.

``Game`` wraps the current ``Hand`` and the score sheet. Its actions are the hand's plus
``NextHand`` once a hand is over, so one action list from one seed replays a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .actions import Action, NextHand
from .cards import CARDS, Card
from .events import DealerChosen, Event, GameOver
from .hand import Hand, IllegalAction, rebuild_game, shuffled_deck
from .rules import RuleSet
from .scoring import GameScore, HollywoodScore, MatchScore


def cut_for_deal(seed: int | str) -> tuple[int, tuple[Card, Card]]:
    """Both seats draw a card; the higher deals (ranks K high, then suits S > H > D > C)."""
    a, b = random.Random(f"{seed}:cut").sample(CARDS, 2)

    def strength(c: Card) -> tuple[int, int]:
        return (c.rank, -c.suit)

    return (0 if strength(a) > strength(b) else 1), (a, b)


def next_dealer(rules: RuleSet, dealer: int, winner: int | None) -> int:
    """Who deals the hand after one dealt by ``dealer`` and won by ``winner`` (None: drawn,
    and the same dealer deals again), by ``rules.next_dealer``."""
    if winner is None:
        return dealer
    if rules.next_dealer == "winner":
        return winner
    if rules.next_dealer == "loser":
        return 1 - winner
    return 1 - dealer


class Game:
    """Hands until someone reaches the target; then the bonuses. Seat 0 and 1 are fixed."""

    def __init__(
        self,
        rules: RuleSet | None = None,
        seed: int | str = 0,
        first_dealer: int | None = None,
        decks: list[list[int]] | None = None,
    ) -> None:
        self.rules = rules or RuleSet()
        self.seed = seed
        self.score: GameScore | HollywoodScore = (
            HollywoodScore(self.rules) if self.rules.hollywood else GameScore(self.rules)
        )
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.hands: list[Hand] = []
        # explicit deck orders (tutorial, fair-deal transcripts), copied: see ``add_deck``
        self._decks = None if decks is None else [list(d) for d in decks]
        if first_dealer is None:
            first_dealer, cut = cut_for_deal(seed)
            self.events.append(DealerChosen(first_dealer, cut))
        self.dealer = first_dealer
        self.hand = self._new_hand()

    def _new_hand(self) -> Hand:
        n = len(self.hands)
        if self._decks is not None and n < len(self._decks):
            deck = self._decks[n]
        else:
            deck = shuffled_deck(f"{self.seed}:{n}")
        hand = Hand(self.rules, self.dealer, deck, hand_number=n)
        self.hands.append(hand)
        self.events.extend(hand.events)
        return hand

    @classmethod
    def from_log(
        cls,
        rules: RuleSet,
        seed: int | str,
        first_dealer: int,
        decks: Sequence[Sequence[int]] | None = None,
        actions: Iterable[Action | str] = (),
        *,
        dealer_cut: bool = False,
    ) -> Game:
        """The game rebuilt from its log: rules, seed, the first dealer, the explicit decks
        (or None: every hand shuffled from the seed) and every action so far (``Action``s or
        their texts, ``str(action)``). ``dealer_cut``: the first dealer was chosen by the cut
        for ``seed`` (the game then starts with ``DealerChosen``, as a new game does), and the
        cut must give ``first_dealer``. The engine is deterministic, so the rebuilt game is
        the very same state. ``LogError`` if the log does not rebuild."""
        return rebuild_game(
            lambda: cls(
                rules, seed, first_dealer=None if dealer_cut else first_dealer, decks=decks
            ),
            first_dealer,
            actions,
        )

    # -- queries ------------------------------------------------------------------------
    @property
    def decks(self) -> tuple[tuple[int, ...], ...] | None:
        """The explicit deck orders the game was given (card indices, dealing order; hand
        ``n`` is dealt from the ``n``-th), or None when every hand is shuffled from the seed."""
        if self._decks is None:
            return None
        return tuple(tuple(int(c) for c in d) for d in self._decks)

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first hand."""
        return self.hands[0].dealer

    @property
    def dealer_cut(self) -> bool:
        """Whether the first dealer was chosen by the cut (the game starts with DealerChosen)."""
        return bool(self.events) and isinstance(self.events[0], DealerChosen)

    @property
    def over(self) -> bool:
        return self.score.over

    @property
    def turn(self) -> int:
        return self.hand.turn

    def totals(self) -> list[int]:
        return self.score.totals()

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        t = self.totals()
        return 0 if t[0] > t[1] else 1

    def legal_actions(self) -> list[Action]:
        if self.hand.over:
            return [] if self.over else [NextHand()]
        return self.hand.legal_actions()

    def view(self, seat: int):
        running = self.score.running() if isinstance(self.score, GameScore) else self.totals()
        return self.hand.view(seat, tuple(running), self.rules.game_target)

    # -- changes ------------------------------------------------------------------------
    def add_deck(self, deck: Sequence[int]) -> None:
        """Give the deck order of the next hand, before its ``NextHand`` (a fair deal's deck
        is known only once its hand is played). Only for a game given explicit decks, one
        for each hand dealt so far; ValueError otherwise, and the game is unchanged."""
        if self._decks is None or len(self._decks) != len(self.hands):
            raise ValueError("a deck can be added only for the next hand of a game with decks")
        self._decks.append(list(deck))

    def apply(self, action: Action) -> list[Event]:
        if isinstance(action, NextHand):
            if not self.hand.over or self.over:
                raise IllegalAction("next hand is only possible after a hand, before game over")
            self.actions.append(action)
            before = len(self.events)
            self._advance_dealer()
            self.hand = self._new_hand()
            return self.events[before:]
        events = self.hand.apply(action)
        self.actions.append(action)
        self.events.extend(events)
        if self.hand.over:
            extra = self._record()
            self.events.extend(extra)
            events = events + extra
        return events

    def _record(self) -> list[Event]:
        hand = self.hand
        if hand.result is None:
            self.score.add(None)
        else:
            self.score.add(hand.result, hand.knocker)
        if self.score.over:
            totals = self.totals()
            winner = 0 if totals[0] > totals[1] else 1
            if isinstance(self.score, GameScore):
                breakdown = tuple(self.score.breakdown())
            else:
                breakdown = tuple({"total": t} for t in totals)
            return [GameOver(winner, (totals[0], totals[1]), breakdown)]
        return []

    def _advance_dealer(self) -> None:
        self.dealer = next_dealer(self.rules, self.dealer, self.hand.winner)

    def replay(self) -> Game:
        """A fresh game rebuilt from the seed and the action list."""
        return Game.from_log(
            self.rules,
            self.seed,
            self.first_dealer,
            self._decks,
            self.actions,
            dealer_cut=self.dealer_cut,
        )


class Match:
    """Games one after another until a seat's game totals reach ``match_target``."""

    def __init__(self, rules: RuleSet | None = None, seed: int | str = 0) -> None:
        self.rules = rules or RuleSet()
        self.seed = seed
        self.finished: list[Game] = []
        self.score = MatchScore(self.rules)  # game totals, added as each game ends
        self.game = Game(self.rules, f"{seed}:g0")

    def totals(self) -> list[int]:
        return self.score.totals()

    @property
    def over(self) -> bool:
        return self.score.over

    @property
    def winner(self) -> int | None:
        return self.score.winner

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        if self.game.over:
            return [NextHand()]
        return self.game.legal_actions()

    def apply(self, action: Action) -> list[Event]:
        if self.over:
            raise IllegalAction("the match is over")
        if self.game.over:
            if not isinstance(action, NextHand):
                raise IllegalAction(f"{action} is not legal: the game is over, deal the next")
            # the loser of the last game deals first in the next
            n = len(self.finished)
            self.game = Game(self.rules, f"{self.seed}:g{n}", first_dealer=1 - self.game.winner)
            return list(self.game.events)
        events = self.game.apply(action)
        if self.game.over:
            self.finished.append(self.game)
            self.score.finished.append(self.game.score)
        return events
