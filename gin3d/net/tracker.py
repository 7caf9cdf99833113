"""What one peer knows of a hand it cannot fully see, checked with the real rules engine.

A peer knows its own cards, the upcard, every face-up card and whatever cards the other peer
has opened. ``HandTracker`` keeps those (slot -> card) and the action list, and replays the
hand with the engine over a deck in which every slot it has *not* seen holds a stand-in card.
Each legality question that matters while cards are hidden (is it your turn, is that card in
your hand, may you take the pile) depends only on seen cards, because the protocol makes a peer
open its cards exactly when the rules depend on them (a discard opens the card, a knock opens
the hand). So the replay accepts exactly the legal actions, and ``view(seat)`` is a true
``PlayerView``: the stand-ins never reach it (the engine redacts hidden cards).
"""

from __future__ import annotations

from gin3d.engine import CARDS, Action, Card, Hand, IllegalAction, RuleSet
from gin3d.engine.events import CardDealt, CardDrawn

DECK = 52


class DuplicateCard(Exception):
    """Two slots of one deck opened to the same card: the deal was not a permutation.

    Not a ValueError on purpose: a refused message may be sent again, but this is proof that
    the peer's shuffle or keys were dishonest, and ends the match as cheating.
    """


class HandTracker:
    """One hand as seat ``seat`` knows it; ``apply`` refuses anything the engine refuses."""

    def __init__(self, rules: RuleSet, dealer: int, hand_number: int, seat: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.hand_number = hand_number
        self.seat = seat
        self.known: dict[int, Card] = {}
        self.actions: list[Action] = []
        self.dealt = 21 if rules.no_upcard else 20
        self.hand = self._replay(self.known, self.actions)

    # -- slots -------------------------------------------------------------------------
    def deal_slots(self, seat: int) -> list[int]:
        non_dealer = 1 - self.dealer
        return [i for i in range(self.dealt) if (non_dealer if i % 2 == 0 else self.dealer) == seat]

    @property
    def upcard_slot(self) -> int | None:
        return None if self.rules.no_upcard else self.dealt

    @property
    def stock_start(self) -> int:
        return self.dealt + (0 if self.rules.no_upcard else 1)

    def next_stock_slot(self) -> int:
        """The slot of the card on top of the stock."""
        return DECK - len(self.hand.stock)

    def held_slots(self, seat: int) -> list[int]:
        """Slots dealt to ``seat`` or drawn by it from the stock (whether still held or not)."""
        slots = []
        draws = 0
        for e in self.hand.events:
            if isinstance(e, CardDealt) and e.seat == seat:
                slots.append(e.index)
            elif isinstance(e, CardDrawn) and e.source == "stock":
                if e.seat == seat:
                    slots.append(self.stock_start + draws)
                draws += 1
        return slots

    def hidden_slots(self, seat: int) -> list[int]:
        """Slots ``seat`` holds whose card this tracker has not seen, still in that hand."""
        return [s for s in self.held_slots(seat) if s not in self.known]

    def slot_of(self, card: Card) -> int | None:
        """The slot this seat knows ``card`` came from."""
        for s, c in self.known.items():
            if c == card:
                return s
        return None

    # -- replay ------------------------------------------------------------------------
    def _replay(self, known: dict[int, Card], actions: list[Action]) -> Hand:
        deck: list[Card | None] = [None] * DECK
        for slot, c in known.items():
            deck[slot] = c
        spare = iter(sorted(set(CARDS) - set(known.values())))
        filled = [c if c is not None else next(spare) for c in deck]
        hand = Hand(self.rules, self.dealer, filled, self.hand_number)
        for a in actions:
            hand.apply(a)
        return hand

    def learn(self, cards: dict[int, Card]) -> None:
        """Record opened cards (slot -> card); ValueError if they contradict what is known,
        DuplicateCard if a card would be in two slots."""
        self.hand = self._checked(cards, self.actions)
        self.known.update(cards)

    def _checked(self, cards: dict[int, Card], actions: list[Action]) -> Hand:
        known = dict(self.known)
        for slot, c in cards.items():
            if slot in known and known[slot] != c:
                raise ValueError(f"slot {slot} was {known[slot]}, now claimed as {c}")
            other = next((s for s, k in known.items() if k == c and s != slot), None)
            if other is not None:
                raise DuplicateCard(
                    f"slot {slot} opened as {CARDS[c]}, a card already known in slot {other}"
                )
            known[slot] = CARDS[c]
        return self._replay(known, actions)

    def check(self, action: Action, cards: dict[int, Card] | None = None) -> None:
        """Raise IllegalAction (or ValueError) if ``action``, with these opened cards, is wrong."""
        hand = self._checked(cards or {}, self.actions)
        if not hand.is_legal(action):
            raise IllegalAction(
                f"{action} is not legal now (phase {hand.phase}, seat {hand.turn} to act)"
            )

    def apply(self, action: Action, cards: dict[int, Card] | None = None) -> list:
        """Apply an action (and the cards it opened); nothing changes if it is refused."""
        cards = cards or {}
        self.check(action, cards)
        hand = self._checked(cards, self.actions)
        events = hand.apply(action)
        self.known.update({s: CARDS[c] for s, c in cards.items()})
        self.actions.append(action)
        self.hand = hand
        return events

    def view(self, scores: tuple[int, int] = (0, 0), target: int | None = None):
        return self.hand.view(self.seat, scores, target)

    @property
    def turn(self) -> int:
        return self.hand.turn

    @property
    def over(self) -> bool:
        return self.hand.over
