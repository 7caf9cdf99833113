"""One hand of Gin Rummy as a deterministic state machine.

``Hand.deal(rules, dealer, seed=…)`` (or ``deck=…``) deals; ``legal_actions()`` lists exactly
what the seat to act may do; ``apply(action)`` checks it, changes the state and returns the
events. Anything illegal raises ``IllegalAction`` and changes nothing. A hand is fully defined
by its rules, dealer, deck order and action list, so replaying the actions rebuilds it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .actions import (
    BIG_GIN,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    FINISH_LAYOFF,
    KNOCKS,
    PASS,
    Action,
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    parse_action,
)
from .cards import CARDS, DECK_SIZE, Card
from .events import (
    CardDealt,
    CardDrawn,
    Discarded,
    Event,
    HandDrawn,
    HandRevealed,
    HandScored,
    HandStarted,
    Knocked,
    LaidOff,
    Passed,
    UpcardTurned,
)
from .layoffs import MeldShape, best_layoff
from .melds import best_melds, deadwood_after_discards, deadwood_of_mask, isolated_value
from .rules import RuleSet
from .scoring import HandResult, knock_layout, settle

UPCARD, DRAW, DISCARD, LAYOFF, LAST_CHANCE, OVER = (
    "upcard",
    "draw",
    "discard",
    "layoff",
    "last_chance",
    "over",
)
STOCK_END = 2  # the hand is drawn when a discard leaves this many cards in the stock


_ALL_INDICES = list(range(DECK_SIZE))

# The events of every turn (dealt, drawn, discarded) are built field by field: calling a
# dataclass's generated __init__ costs twice as much, and every field is set here all the same
# (tests/test_engine_hand.py checks they equal constructor-built ones).
_new = object.__new__


class IllegalAction(ValueError):
    """An action the rules do not allow now; the hand is unchanged."""


class LogError(ValueError):
    """A log that does not rebuild (``Game.from_log``, ``Hand.from_log``); nothing changed.

    ``part`` says where: ``"setup"`` (rules, seed, decks, dealer), ``"dealer"`` (the cut for
    the seed gives another first dealer) or ``"action"``; for an action, ``step`` is its
    index in the log and ``action`` the entry as given. ``reason`` is why, in words."""

    def __init__(
        self, part: str, reason: str, step: int | None = None, action: object = None
    ) -> None:
        self.part, self.reason, self.step, self.action = part, reason, step, action
        if part == "action":
            super().__init__(f"action {step + 1} ({action}) does not replay: {reason}")
        elif part == "dealer":
            super().__init__(f"the first dealer does not match the cut for this seed: {reason}")
        else:
            super().__init__(f"the deal cannot be set up: {reason}")


def apply_entry(target: Any, entry: Action | str) -> None:
    """Apply one log entry (an ``Action`` or its text) to a Hand or a two- or three-player
    game; ValueError if it is no action or not legal now."""
    target.apply(entry if isinstance(entry, Action) else parse_action(entry))


def apply_log(
    target: Any,
    actions: Iterable[Any],
    apply: Callable[[Any, Any], None] = apply_entry,
) -> None:
    """Apply a log's entries to a Hand or game in order (``apply``: how one entry is
    applied, by default as an action or its text); LogError names the first one that does
    not apply."""
    for i, entry in enumerate(actions):
        try:
            apply(target, entry)
        except ValueError as e:  # IllegalAction, or a text that is no action
            raise LogError("action", str(e), i, entry) from None


def rebuild_game(
    make: Callable[[], Any],
    first_dealer: int,
    actions,
    who: str = "seat",
    apply: Callable[[Any, Any], None] = apply_entry,
) -> Any:
    """A game (``Game``, ``ThreePlayerGame``, ``PartnershipGame``) made by ``make`` and
    replayed from its log (``apply``: how one entry is applied): LogError if it cannot be
    set up, if its ``first_dealer`` is not the one logged (a dealer drawn by the cut for
    another seed), or at the first entry that does not apply."""
    try:
        game = make()
    except (TypeError, ValueError) as e:
        raise LogError("setup", str(e)) from None
    if game.first_dealer != first_dealer:
        raise LogError("dealer", f"the cut gives {who} {game.first_dealer}")
    apply_log(game, actions, apply)
    return game


def shuffled_deck(seed: int | str) -> list[Card]:
    """The deck in dealing order for a seed (same seed, same order, on every platform).

    The Fisher-Yates shuffle of ``random.Random(seed).shuffle`` written out, so the order is
    pinned here rather than by the standard library, and each deal skips a method call per card.
    """
    order = list(CARDS)
    getrandbits = random.Random(seed).getrandbits
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]
    return order


# (position, random bits for a draw among positions 0..position), last position first
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(DECK_SIZE - 1, 0, -1))


class Hand:
    """The full (hidden-information) state of one hand. Players only ever see ``view``s."""

    __slots__ = (
        "actions",
        "barred",
        "dealer",
        "deck",
        "discards",
        "events",
        "hand_number",
        "hands",
        "knock_card",
        "knock_kind",
        "knock_limit",
        "knocker",
        "knocker_deadwood",
        "knocker_melds",
        "layoffs",
        "masks",
        "offers",
        "must_knock",
        "over",
        "phase",
        "pile",
        "result",
        "rules",
        "seen_taken",
        "stock",
        "stock_only",
        "table_melds",
        "taken",
        "turn",
        "upcard",
        "upcard_passes",
        "winner",
    )

    def __init__(
        self,
        rules: RuleSet,
        dealer: int,
        deck: Sequence[int],
        hand_number: int = 0,
        *,
        _checked: bool = False,
    ) -> None:
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")
        if not _checked:  # a deck from shuffled_deck is already 52 distinct Cards
            try:
                order = [int(c) for c in deck]
            except (TypeError, ValueError):
                raise ValueError("a deck is a sequence of 52 card indices") from None
            if sorted(order) != _ALL_INDICES:
                raise ValueError("a deck must hold each of the 52 cards exactly once")
            deck = [CARDS[i] for i in order]
        self.rules = rules
        self.dealer = dealer
        self.deck = tuple(deck)
        self.hand_number = hand_number
        self.hands: list[list[Card]] = [[], []]
        self.masks = [0, 0]  # the same hands as 52-bit masks, kept in step
        # each hand's Discard actions in hand order, kept in step: the discard phase's legal
        # list is then one copy, not 11 look-ups, on the path every turn takes
        self.offers: list[list[Discard]] = [[], []]
        self.stock: list[Card] = []  # top of the stock is the last item
        self.pile: list[Card] = []  # top of the discard pile is the last item
        self.phase = UPCARD
        self.over = False  # phase == OVER, kept as a plain attribute for the play loops
        self.turn = 1 - dealer
        self.upcard: Card | None = None
        self.knock_limit = rules.knock_limit
        self.taken: Card | None = None  # card taken from the pile this turn
        self.barred: tuple[int, Card] | None = None  # throw-back: seat may not retake card
        self.must_knock = False
        self.upcard_passes = 0
        self.stock_only = False  # both passed the upcard: the non-dealer must draw the stock
        self.seen_taken: list[list[Card]] = [[], []]  # pile cards each seat took, still held
        self.discards: list[tuple[int, Card]] = []  # every face-up discard, in order
        self.knocker: int | None = None
        self.knock_kind: str | None = None
        self.knock_card: Card | None = None
        self.knocker_melds: list[list[Card]] = []
        self.knocker_deadwood: list[Card] = []
        self.table_melds: list[list[Card]] = []  # knocker melds with layoffs added
        self.layoffs: list[tuple[Card, int]] = []
        self.result: HandResult | None = None
        self.winner: int | None = None
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._deal()

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        rules: RuleSet | None = None,
        dealer: int = 0,
        seed: int | str | None = None,
        deck: Sequence[int] | None = None,
        hand_number: int = 0,
    ) -> Hand:
        """Deal a hand from a seed or an explicit deck order (first card dealt first)."""
        if (seed is None) == (deck is None):
            raise ValueError("give exactly one of seed or deck")
        if deck is None:
            return cls(rules or RuleSet(), dealer, shuffled_deck(seed), hand_number, _checked=True)
        return cls(rules or RuleSet(), dealer, deck, hand_number)

    def _deal(self) -> None:
        rules = self.rules
        deck = self.deck
        dealer = self.dealer
        non_dealer = 1 - dealer
        dealt = 21 if rules.no_upcard else 20
        stock_size = DECK_SIZE - dealt - (0 if rules.no_upcard else 1)
        ev: list[Event] = [HandStarted(dealer, self.hand_number, stock_size)]
        seats = (non_dealer, dealer)
        for i in range(dealt):
            card = deck[i]
            seat = seats[i & 1]
            self.hands[seat].append(card)
            self.offers[seat].append(DISCARDS[card])
            self.masks[seat] |= 1 << card
            e = _new(CardDealt)
            e.seat, e.card, e.index = seat, card, i
            ev.append(e)
        if rules.no_upcard:
            self.phase = DISCARD
            self.turn = non_dealer
        else:
            self.upcard = deck[dealt]
            dealt += 1
            self.pile.append(self.upcard)
            self.knock_limit = rules.knock_limit_for(self.upcard)
            ev.append(UpcardTurned(self.upcard, self.knock_limit))
        if rules.straight_gin:
            self.knock_limit = 0
        self.stock = list(deck[: dealt - 1 : -1])
        self.events.extend(ev)

    # -- queries ------------------------------------------------------------------------
    @property
    def drawn(self) -> bool:
        """Whether the hand ended at the stock's end with nobody scoring."""
        return self.phase == OVER and self.result is None

    def knock_cards(self, seat: int | None = None) -> list[Card]:
        """Cards whose discard lets ``seat`` (11 cards in hand) knock."""
        seat = self.turn if seat is None else seat
        hand = self.hands[seat]
        if len(hand) != 11:
            return []
        mask = self.masks[seat]
        limit = self.knock_limit
        if isolated_value(mask) - 10 > limit:
            return []
        left = deadwood_after_discards(mask)
        return [c for c in hand if left[c] <= limit]

    def can_big_gin(self, seat: int | None = None) -> bool:
        seat = self.turn if seat is None else seat
        return (
            self.rules.big_gin_allowed
            and len(self.hands[seat]) == 11
            and isolated_value(self.masks[seat]) == 0
            and deadwood_of_mask(self.masks[seat]) == 0
        )

    def _could_knock_with(self, seat: int, card: Card) -> bool:
        """Whether taking ``card`` would let ``seat`` knock (or go Big Gin) this turn."""
        mask = self.masks[seat] | (1 << card)
        if self.rules.big_gin_allowed and deadwood_of_mask(mask) == 0:
            return True
        throw_back = self.rules.allow_throw_back
        return any(
            d <= self.knock_limit and (c != card or throw_back)
            for c, d in deadwood_after_discards(mask).items()
        )

    def _may_take_pile(self, seat: int) -> bool:
        if not self.pile:
            return False
        top = self.pile[-1]
        if self.barred == (seat, top):
            return self._could_knock_with(seat, top)
        return True

    def legal_actions(self) -> list[Action]:
        """Exactly the moves the seat to act (``turn``) may make, in a fixed order."""
        phase = self.phase
        seat = self.turn
        if phase == DRAW:
            if self.stock_only or not self.pile:
                return [DRAW_STOCK]
            if self.barred is None or self._may_take_pile(seat):
                return [DRAW_STOCK, DRAW_DISCARD]
            return [DRAW_STOCK]
        if phase == DISCARD:
            blocked = None if self.rules.allow_throw_back else self.taken
            if self.must_knock:
                acts = []
            else:
                acts = self.offers[seat][:]
                if blocked is not None:
                    del acts[self.hands[seat].index(blocked)]
            if isolated_value(self.masks[seat]) - 10 <= self.knock_limit:
                acts += [KNOCKS[c] for c in self.knock_cards(seat) if c != blocked]
                if self.can_big_gin(seat):
                    acts.append(BIG_GIN)
            return acts
        if phase == UPCARD:
            return [DRAW_DISCARD, PASS]
        if phase == LAYOFF:
            acts = [
                LayOff(c, i)
                for c in sorted(self.hands[seat])
                for i, m in enumerate(self.table_melds)
                if MeldShape.of(m).fits(c)
            ]
            acts.append(FINISH_LAYOFF)
            return acts
        if phase == LAST_CHANCE:
            acts = []
            if self._could_knock_with(seat, self.pile[-1]):
                acts.append(DRAW_DISCARD)
            acts.append(PASS)
            return acts
        return []

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (cheaper than searching ``legal_actions``)."""
        phase = self.phase
        seat = self.turn
        t = type(action)
        if phase == DRAW:
            if t is DrawStock:
                return True
            return t is DrawDiscard and not self.stock_only and self._may_take_pile(seat)
        if phase == DISCARD:
            hand = self.hands[seat]
            if t is BigGin:
                return self.can_big_gin(seat)
            if t not in (Discard, Knock) or action.card not in hand:
                return False
            if action.card == self.taken and not self.rules.allow_throw_back:
                return False
            if t is Discard:
                return not self.must_knock
            return deadwood_of_mask(self.masks[seat] & ~(1 << action.card)) <= self.knock_limit
        if phase == LAYOFF and t is LayOff:
            return (
                action.card in self.hands[seat]
                and type(action.meld) is int
                and 0 <= action.meld < len(self.table_melds)
                and MeldShape.of(self.table_melds[action.meld]).fits(action.card)
            )
        return action in self.legal_actions()

    # -- changes ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action for the seat to act; return the events it caused."""
        t = type(action)
        # the three moves of almost every turn check and apply themselves on a short path
        if t is Discard:
            return self._apply_discard(action)
        if t is DrawStock and self.phase == DRAW:
            return self._draw_stock(action)
        if t is DrawDiscard and self.phase == DRAW:
            if (
                self.stock_only
                or not self.pile
                or (self.barred is not None and not self._may_take_pile(self.turn))
            ):
                raise IllegalAction(self._why_illegal(action))
            self.actions.append(action)
            return [self._take_pile(self.turn)]
        if not self.is_legal(action):
            raise IllegalAction(self._why_illegal(action))
        seat = self.turn
        before = len(self.events)
        self.actions.append(action)
        if t is Pass:
            self._pass(seat)
        elif t is DrawDiscard:
            self._take_pile(seat)
        elif t is Knock:
            self._knock(seat, action.card)
        elif t is BigGin:
            self._knock(seat, None)
        elif t is LayOff:
            self._remove(seat, action.card)
            self.table_melds[action.meld] = sorted(
                [*self.table_melds[action.meld], action.card],
                key=lambda c: (c % 13, c // 13),
            )
            self.layoffs.append((action.card, action.meld))
            self.events.append(LaidOff(seat, action.card, action.meld))
        elif t is FinishLayoff:
            self._score()
        return self.events[before:]

    def _why_illegal(self, action: object) -> str:
        if self.phase == OVER:
            return f"the hand is over; {action} is not possible"
        return f"{action} is not legal now (phase {self.phase}, seat {self.turn} to act)"

    def _pass(self, seat: int) -> None:
        self.events.append(Passed(seat, "upcard" if self.phase == UPCARD else "last_chance"))
        if self.phase == LAST_CHANCE:
            self._end_drawn()
            return
        self.upcard_passes += 1
        self.turn = 1 - seat
        if self.upcard_passes == 2:  # both passed: the non-dealer draws from the stock
            self.phase = DRAW
            self.stock_only = True

    def _draw_stock(self, action: DrawStock) -> list[Event]:
        seat = self.turn
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.offers[seat].append(DISCARDS[card])
        self.masks[seat] |= 1 << card
        self.stock_only = False
        self.phase = DISCARD
        event = _new(CardDrawn)
        event.seat, event.source, event.card = seat, "stock", card
        self.events.append(event)
        self.actions.append(action)
        return [event]

    def _take_pile(self, seat: int) -> CardDrawn:
        card = self.pile.pop()
        self.hands[seat].append(card)
        self.offers[seat].append(DISCARDS[card])
        self.masks[seat] |= 1 << card
        self.seen_taken[seat].append(card)
        if self.barred == (seat, card) or self.phase == LAST_CHANCE:
            self.must_knock = True
        self.taken = card
        self.phase = DISCARD
        event = _new(CardDrawn)
        event.seat, event.source, event.card = seat, "discard", card
        self.events.append(event)
        return event

    def _remove(self, seat: int, card: Card) -> None:
        """Take ``card`` out of ``seat``'s hand (IllegalAction, nothing changed, if not there)."""
        hand = self.hands[seat]
        try:
            i = hand.index(card)
        except ValueError:
            raise IllegalAction(f"{card} is not in seat {seat}'s hand") from None
        del hand[i]
        del self.offers[seat][i]
        self.masks[seat] ^= 1 << card
        seen = self.seen_taken[seat]
        if seen and card in seen:
            seen.remove(card)

    def _apply_discard(self, action: Discard) -> list[Event]:
        seat = self.turn
        card = action.card
        taken = self.taken
        if (
            self.phase != DISCARD
            or self.must_knock
            or type(card) is not Card
            or (taken is not None and card == taken and not self.rules.allow_throw_back)
        ):
            raise IllegalAction(self._why_illegal(action))
        self._remove(seat, card)
        self.actions.append(action)
        self.pile.append(card)
        discards = self.discards
        discards.append((seat, card))
        # throw-back: the player who first threw this card may not simply take it back
        if self.barred is not None and self.barred[0] == seat:
            self.barred = None
        if (
            taken is not None
            and card == taken
            and len(discards) >= 2
            and (discards[-2] == (1 - seat, card))
        ):
            self.barred = (1 - seat, card)
        event = _new(Discarded)
        event.seat, event.card = seat, card
        self.events.append(event)
        self.taken = None  # (must_knock is already False: a must-knock turn cannot discard)
        self.turn = 1 - seat
        if len(self.stock) > STOCK_END:
            self.phase = DRAW
            return [event]
        if self.rules.last_chance:
            self.phase = LAST_CHANCE
            return [event]
        self._end_drawn()
        return [event, self.events[-1]]

    def _end_drawn(self) -> None:
        self.phase = OVER
        self.over = True
        self.turn = -1
        self.events.append(HandDrawn(len(self.stock)))

    def _knock(self, seat: int, card: Card | None) -> None:
        if card is not None:
            self._remove(seat, card)
            self.pile.append(card)
        other = 1 - seat
        layout = knock_layout(self.hands[seat], self.hands[other])
        kind = "big_gin" if card is None else ("gin" if layout.deadwood_points == 0 else "knock")
        self.knocker, self.knock_kind, self.knock_card = seat, kind, card
        self.knocker_melds = [list(m) for m in layout.melds]
        self.knocker_deadwood = list(layout.deadwood)
        self.table_melds = [list(m) for m in layout.melds]
        self.taken = None
        self.events.append(Knocked(seat, card, kind, self.knocker_melds, self.knocker_deadwood))
        self.turn = other
        if kind == "knock":
            self.phase = LAYOFF
        else:
            self._score()

    def _score(self) -> None:
        knocker = self.knocker
        other = 1 - knocker
        result = settle(
            self.knock_kind,
            self.knocker_melds,
            self.knocker_deadwood,
            self.hands[other],
            self.layoffs,
            self.rules,
            self.upcard,
        )
        self.result = result
        self.winner = knocker if result.winner == "knocker" else other
        self.phase = OVER
        self.over = True
        self.turn = -1
        self.events.append(HandRevealed(other, result.other_melds, result.other_deadwood_cards))
        self.events.append(HandScored(result, knocker, self.winner, result.points))

    # -- helpers for players ------------------------------------------------------------
    def best_layoff_actions(self) -> list[Action]:
        """The layoffs that leave the non-knocker the least deadwood, then FinishLayoff."""
        if self.phase != LAYOFF:
            return []
        _, plan = best_layoff(self.table_melds, self.hands[self.turn])
        return [*(LayOff(c, i) for c, i in plan), FINISH_LAYOFF]

    def arrangement(self, seat: int):
        """Best melds of a seat's current cards (for the HUD's deadwood count)."""
        return best_melds(self.hands[seat])

    def view(self, seat: int, scores: tuple[int, int] = (0, 0), target: int | None = None):
        """What ``seat`` may know, as a PlayerView."""
        from .view import PlayerView  # local: view imports this module's constants

        return PlayerView.of(self, seat, scores, target)

    @classmethod
    def from_log(
        cls,
        rules: RuleSet,
        dealer: int,
        deck: Sequence[int],
        actions: Iterable[Action | str] = (),
        hand_number: int = 0,
    ) -> Hand:
        """The hand rebuilt from its deal (rules, dealer, the deck in dealing order, its
        number) and its actions (``Action``s or their texts). LogError if they do not."""
        try:
            hand = cls(rules, dealer, deck, hand_number)
        except (TypeError, ValueError) as e:
            raise LogError("setup", str(e)) from None
        apply_log(hand, actions)
        return hand

    def replay(self) -> Hand:
        """A fresh hand rebuilt from the deck and the action list (for checks and saves)."""
        return Hand.from_log(self.rules, self.dealer, self.deck, self.actions, self.hand_number)

    def card_count(self) -> int:
        """Every card accounted for: hands + stock + pile + laid-off cards."""
        return (
            len(self.hands[0])
            + len(self.hands[1])
            + len(self.stock)
            + len(self.pile)
            + len(self.layoffs)
        )
