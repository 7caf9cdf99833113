"""A game (or Hollywood set, or match): hands dealt one after another, scored to the target.

``Game`` wraps the current ``Hand`` and the score sheet. Its actions are the hand's plus
``NextHand`` once a hand is over, so one action list from one seed replays a whole game.
"""

from __future__ import annotations

import random

from .actions import Action, NextHand
from .cards import CARDS, Card
from .events import DealerChosen, Event, GameOver
from .hand import Hand, IllegalAction, shuffled_deck
from .rules import RuleSet
from .scoring import GameScore, HollywoodScore, MatchScore


def cut_for_deal(seed: int | str) -> tuple[int, tuple[Card, Card]]:
    """Both seats draw a card; the higher deals (ranks K high, then suits S > H > D > C)."""
    a, b = random.Random(f"{seed}:cut").sample(CARDS, 2)

    def strength(c: Card) -> tuple[int, int]:
        return (c.rank, -c.suit)

    return (0 if strength(a) > strength(b) else 1), (a, b)


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
        self._decks = decks  # explicit deck orders (tutorial, fair-deal transcripts)
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

    # -- queries ------------------------------------------------------------------------
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
        hand = self.hand
        if hand.winner is None:  # drawn hand: same dealer deals again
            return
        rule = self.rules.next_dealer
        if rule == "winner":
            self.dealer = hand.winner
        elif rule == "loser":
            self.dealer = 1 - hand.winner
        else:
            self.dealer = 1 - self.dealer

    def replay(self) -> Game:
        """A fresh game rebuilt from the seed and the action list."""
        first = self.events[0].dealer if isinstance(self.events[0], DealerChosen) else None
        copy = Game(
            self.rules,
            self.seed,
            first_dealer=None if first is not None else self.hands[0].dealer,
            decks=self._decks,
        )
        for a in self.actions:
            copy.apply(a)
        return copy


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
