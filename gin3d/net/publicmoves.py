"""A hand as someone at neither of its seats sees it: the moves a table's other players
watch while it is played (docs/net.md, *Watching the other table*).

At a table of four, your partner's hand is played at the same time as yours; at three, the
player sitting a hand out waits for it. Each player of a hand tells the table its public
moves as they happen (a ``tplay`` message): the hand's events with every card that neither
seat shows the table hidden (``public``: the dealt cards and the stock draws), as short
texts (``encode`` / ``decode``). What a player is told is shown only: nothing is scored
from it. A stream that does not make sense as a hand (a card in two places, a draw from an
empty stock, a discard from an empty hand, a move after the end) is refused when it
arrives (``PublicHand.take``: nothing of it is kept), so the table that shows it never
meets an impossible move; and once the hand's record is agreed, what each player told is
checked against the hand replayed (``told_truly``).

No Panda3D here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from gin3d.engine import Card
from gin3d.engine.events import (
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
from gin3d.engine.hand import STOCK_END
from gin3d.engine.scoring import HandResult

from .protocol import MAX_HAND_EVENTS, ProtocolError

DECK = 52
MOST_DEALT = 21  # cards dealt to the two hands (20, or 21 without an upcard)
KINDS = ("knock", "undercut", "gin", "big_gin")  # a scored hand's kinds
KNOCKS = ("knock", "gin", "big_gin")


def public(event: Event) -> Event:
    """``event`` as the table sees it: a dealt card and a card drawn from the stock hidden."""
    if isinstance(event, CardDealt) and event.card is not None:
        return replace(event, card=None)
    if isinstance(event, CardDrawn) and event.source == "stock" and event.card is not None:
        return replace(event, card=None)
    return event


def public_events(events: Iterable[Event]) -> list[Event]:
    """The events a table is told of (a game's own events, such as its end, are not)."""
    return [public(e) for e in events if isinstance(e, SHOWN)]


# -- texts ------------------------------------------------------------------------------
def _cards(cards: Iterable[Card]) -> str:
    return ".".join(str(c) for c in cards) or "-"


def _melds(melds: Iterable[Iterable[Card]]) -> str:
    return "/".join(_cards(m) for m in melds) or "-"


def encode(event: Event) -> str:
    """One public event as a short text, such as ``discard 1 7H``."""
    e = public(event)
    if isinstance(e, HandStarted):
        return f"start {e.dealer} {e.stock_size}"  # (its number is the table's to say)
    if isinstance(e, CardDealt):
        return f"deal {e.seat} {e.index}"
    if isinstance(e, UpcardTurned):
        return f"up {e.card} {e.knock_limit}"
    if isinstance(e, Passed):
        return f"pass {e.seat} {e.what}"
    if isinstance(e, CardDrawn):
        return f"draw {e.seat} stock" if e.source == "stock" else f"draw {e.seat} pile {e.card}"
    if isinstance(e, Discarded):
        return f"discard {e.seat} {e.card}"
    if isinstance(e, Knocked):
        card = "-" if e.card is None else str(e.card)
        return f"knock {e.seat} {e.kind} {card} {_melds(e.melds)} {_cards(e.deadwood)}"
    if isinstance(e, LaidOff):
        return f"layoff {e.seat} {e.card} {e.meld}"
    if isinstance(e, HandRevealed):
        return f"reveal {e.seat} {_melds(e.melds)} {_cards(e.deadwood)}"
    if isinstance(e, HandScored):
        return f"scored {e.knocker} {e.winner} {e.points} {e.result.kind}"
    if isinstance(e, HandDrawn):
        return f"drawn {e.stock_left}"
    raise ValueError(f"{type(e).__name__} is not told to the table")


SHOWN = (
    HandStarted,
    CardDealt,
    UpcardTurned,
    Passed,
    CardDrawn,
    Discarded,
    Knocked,
    LaidOff,
    HandRevealed,
    HandScored,
    HandDrawn,
)


def _seat(text: str) -> int:
    if text not in ("0", "1"):
        raise ProtocolError(f"a hand's seat is 0 or 1, not {text!r:.20}")
    return int(text)


def _number(text: str, most: int) -> int:
    if not text.isdigit() or len(text) > 4 or int(text) > most:
        raise ProtocolError(f"expected a whole number in 0..{most}, not {text!r:.20}")
    return int(text)


def _card(text: str) -> Card:
    if len(text) != 2:  # Card.parse also takes "10H" and lower case: one spelling here
        raise ProtocolError(f"not a card: {text!r:.20}")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None


def _card_list(text: str) -> list[Card]:
    return [] if text == "-" else [_card(t) for t in text.split(".")]


def _meld_list(text: str) -> list[list[Card]]:
    if text == "-":
        return []
    melds = [_card_list(t) for t in text.split("/")]
    if any(len(m) < 3 for m in melds):
        raise ProtocolError("a meld has at least three cards")
    return melds


def _start(rest: list[str]) -> Event:
    return HandStarted(_seat(rest[0]), 0, _number(rest[1], DECK))


def _deal(rest: list[str]) -> Event:
    return CardDealt(_seat(rest[0]), None, _number(rest[1], MOST_DEALT - 1))


def _up(rest: list[str]) -> Event:
    return UpcardTurned(_card(rest[0]), _number(rest[1], 10))


def _pass(rest: list[str]) -> Event:
    if rest[1] not in ("upcard", "last_chance"):
        raise ProtocolError(f"nothing to pass named {rest[1]!r:.20}")
    return Passed(_seat(rest[0]), rest[1])


def _draw(rest: list[str]) -> Event:
    if rest[1:] == ["stock"]:
        return CardDrawn(_seat(rest[0]), "stock", None)
    if len(rest) == 3 and rest[1] == "pile":
        return CardDrawn(_seat(rest[0]), "discard", _card(rest[2]))
    raise ProtocolError("a draw is from the stock or the pile")


def _discard(rest: list[str]) -> Event:
    return Discarded(_seat(rest[0]), _card(rest[1]))


def _knock(rest: list[str]) -> Event:
    if rest[1] not in KNOCKS:
        raise ProtocolError(f"no knock of the kind {rest[1]!r:.20}")
    card = None if rest[2] == "-" else _card(rest[2])
    if (card is None) != (rest[1] == "big_gin"):
        raise ProtocolError("a knock discards a card, Big Gin none")
    return Knocked(_seat(rest[0]), card, rest[1], _meld_list(rest[3]), _card_list(rest[4]))


def _layoff(rest: list[str]) -> Event:
    return LaidOff(_seat(rest[0]), _card(rest[1]), _number(rest[2], 10))


def _reveal(rest: list[str]) -> Event:
    return HandRevealed(_seat(rest[0]), _meld_list(rest[1]), _card_list(rest[2]))


def _scored(rest: list[str]) -> Event:
    knocker, winner = _seat(rest[0]), _seat(rest[1])
    points, kind = _number(rest[2], 1000), rest[3]
    if kind not in KINDS:
        raise ProtocolError(f"no hand scored as {kind!r:.20}")
    side = "knocker" if winner == knocker else "other"
    return HandScored(HandResult(kind, side, points, 0, 0), knocker, winner, points)


def _drawn(rest: list[str]) -> Event:
    return HandDrawn(_number(rest[0], DECK))


# each move's first word: the words that may follow it, and what reads them
DECODERS = {
    "start": ((2,), _start),
    "deal": ((2,), _deal),
    "up": ((2,), _up),
    "pass": ((2,), _pass),
    "draw": ((2, 3), _draw),
    "discard": ((2,), _discard),
    "knock": ((5,), _knock),
    "layoff": ((3,), _layoff),
    "reveal": ((3,), _reveal),
    "scored": ((4,), _scored),
    "drawn": ((1,), _drawn),
}


def decode(text: str) -> Event:
    """One text of ``encode`` back to its event; ProtocolError (never anything else) if it
    is not one."""
    if not isinstance(text, str) or len(text) > 200:
        raise ProtocolError("a public move is a text of at most 200 characters")
    word, *rest = text.split(" ")
    sizes, read = DECODERS.get(word, ((), None))
    if read is None or len(rest) not in sizes:
        raise ProtocolError(f"not a public move: {text!r:.60}")
    return read(rest)


# -- the hand they make -----------------------------------------------------------------
@dataclass
class PublicHand:
    """A hand as its public moves build it, each checked to fit what came before; ``take``
    refuses one that does not (ProtocolError) and keeps nothing of it."""

    events: list[Event] = field(default_factory=list)
    dealer: int = 0
    stock: int = 0  # cards in the stock
    counts: list[int] = field(default_factory=lambda: [0, 0])  # cards in each hand
    known: list[set[Card]] = field(default_factory=lambda: [set(), set()])  # seen in a hand
    pile: list[Card] = field(default_factory=list)
    out: set[Card] = field(default_factory=set)  # face up outside the hands (pile, spreads)
    melds: int = 0  # the knocker's melds on the table
    knocker: int | None = None
    turn: int = -1  # the hand seat to move, -1 before the deal and once over
    over: bool = False
    result: tuple[int, int] | None = None  # (winner's seat, points) once scored
    upcard_phase: bool = False

    def take(self, events: list[Event]) -> None:
        """Add ``events`` in order, all or none."""
        if len(self.events) + len(events) > MAX_HAND_EVENTS:
            raise ProtocolError(f"a hand of more than {MAX_HAND_EVENTS} moves")
        trial = _copy(self)
        for i, e in enumerate(events):
            try:
                trial._add(e)
            except ProtocolError as exc:
                raise ProtocolError(f"move {len(self.events) + i + 1}: {exc}") from None
        self.__dict__.update(trial.__dict__)

    def _add(self, e: Event) -> None:
        started = bool(self.events)
        if self.over:
            raise ProtocolError("a move after the hand's end")
        if isinstance(e, HandStarted) != (not started):
            raise ProtocolError("a hand starts once, with its deal")
        handler = getattr(self, f"_{type(e).__name__}")
        handler(e)
        self.events.append(e)

    def _HandStarted(self, e: HandStarted) -> None:  # noqa: N802 - the event's name
        self.dealer = e.dealer
        self.stock = DECK

    def _dealing(self) -> bool:
        return len(self.events) - 1 == sum(self.counts) and self.turn == -1

    def _CardDealt(self, e: CardDealt) -> None:  # noqa: N802
        if not self._dealing() or e.index != sum(self.counts) or e.index >= MOST_DEALT:
            raise ProtocolError("a card dealt out of order")
        if e.seat != (1 - self.dealer if e.index % 2 == 0 else self.dealer):
            raise ProtocolError("a card dealt to the wrong seat")
        self.counts[e.seat] += 1
        self.stock -= 1
        if e.index == MOST_DEALT - 1:  # 21 cards: no upcard, the non-dealer discards first
            self.turn = 1 - self.dealer

    def _UpcardTurned(self, e: UpcardTurned) -> None:  # noqa: N802
        if not self._dealing() or sum(self.counts) != MOST_DEALT - 1:
            raise ProtocolError("the upcard is turned after a deal of 20 cards")
        self._show(e.card)
        self.pile.append(e.card)
        self.stock -= 1
        self.turn = 1 - self.dealer
        self.upcard_phase = True

    def _Passed(self, e: Passed) -> None:  # noqa: N802
        self._mover(e.seat)
        if e.what == "upcard":
            if not self.upcard_phase:
                raise ProtocolError("the upcard is passed only before the first draw")
            if e.seat == self.dealer:  # both passed: the non-dealer draws from the stock
                self.upcard_phase = False
            self.turn = 1 - e.seat
        else:
            if self.stock > STOCK_END or self.upcard_phase:
                raise ProtocolError("a last chance is passed only at the stock's end")
            self.turn = 1 - e.seat

    def _CardDrawn(self, e: CardDrawn) -> None:  # noqa: N802
        self._mover(e.seat)
        if self.counts[e.seat] != 10:
            raise ProtocolError("a draw into a hand not of ten cards")
        if e.source == "stock":
            if self.stock <= 0 or self.upcard_phase:
                raise ProtocolError("a draw from the stock when it cannot be drawn")
            self.stock -= 1
        else:
            if not self.pile or self.pile[-1] != e.card:
                raise ProtocolError(f"{e.card} is not on top of the pile")
            self.pile.pop()
            self.out.discard(e.card)
            self.known[e.seat].add(e.card)
        self.upcard_phase = False
        self.counts[e.seat] += 1

    def _Discarded(self, e: Discarded) -> None:  # noqa: N802
        self._mover(e.seat)
        if self.counts[e.seat] != 11:
            raise ProtocolError("a discard from a hand not of eleven cards")
        self._from_hand(e.seat, e.card)
        self._show(e.card)
        self.pile.append(e.card)
        self.turn = 1 - e.seat

    def _Knocked(self, e: Knocked) -> None:  # noqa: N802
        self._mover(e.seat)
        if self.counts[e.seat] != 11:
            raise ProtocolError("a knock from a hand not of eleven cards")
        laid = [c for m in e.melds for c in m] + list(e.deadwood)
        if e.card is not None:
            self._from_hand(e.seat, e.card)
            self._show(e.card)
            self.pile.append(e.card)
        self._lay_down(e.seat, laid)
        self.melds = len(e.melds)
        self.knocker = e.seat
        self.turn = 1 - e.seat

    def _LaidOff(self, e: LaidOff) -> None:  # noqa: N802
        if self.knocker is None or e.seat == self.knocker or e.meld >= self.melds:
            raise ProtocolError("a layoff onto no meld of the knocker's")
        self._mover(e.seat)
        self._from_hand(e.seat, e.card)
        self._show(e.card)

    def _HandRevealed(self, e: HandRevealed) -> None:  # noqa: N802
        if self.knocker is None or e.seat == self.knocker:
            raise ProtocolError("a hand laid out before the other's knock")
        self._lay_down(e.seat, [c for m in e.melds for c in m] + list(e.deadwood))
        self.turn = -1

    def _HandScored(self, e: HandScored) -> None:  # noqa: N802
        if self.knocker is None or e.knocker != self.knocker or self.counts[1 - e.knocker]:
            raise ProtocolError("a hand scored before both hands are laid out")
        self.result = (e.winner, e.points)
        self.over = True

    def _HandDrawn(self, e: HandDrawn) -> None:  # noqa: N802
        if self.knocker is not None or e.stock_left != self.stock or self.stock > STOCK_END:
            raise ProtocolError("a drawn hand with the stock not run down")
        self.turn = -1
        self.over = True

    # -- checks ---------------------------------------------------------------------------
    def _mover(self, seat: int) -> None:
        if seat != self.turn:
            raise ProtocolError(f"seat {seat} moved out of turn")

    def _show(self, card: Card) -> None:
        """``card`` is face up outside the hands from now: it was nowhere seen before."""
        if card in self.out or any(card in k for k in self.known):
            raise ProtocolError(f"{card} is in two places")
        self.out.add(card)

    def _from_hand(self, seat: int, card: Card) -> None:
        """``card`` leaves ``seat``'s hand: one it took from the pile, or one never seen."""
        if self.counts[seat] <= 0:
            raise ProtocolError("a card from an empty hand")
        if card in self.known[seat]:
            self.known[seat].discard(card)
        elif card in self.out or card in self.known[1 - seat]:
            raise ProtocolError(f"{card} is not in seat {seat}'s hand")
        self.counts[seat] -= 1

    def _lay_down(self, seat: int, cards: list[Card]) -> None:
        """``seat``'s whole hand face up (a knock's melds and deadwood, a hand revealed)."""
        if len(cards) != self.counts[seat] or len(set(cards)) != len(cards):
            raise ProtocolError("a hand laid out is not the cards it holds")
        if not self.known[seat] <= set(cards):
            raise ProtocolError("a hand laid out lacks a card it took from the pile")
        for c in cards:
            self._from_hand(seat, c)
            self._show(c)


def _copy(hand: PublicHand) -> PublicHand:
    return PublicHand(
        events=list(hand.events),
        dealer=hand.dealer,
        stock=hand.stock,
        counts=list(hand.counts),
        known=[set(k) for k in hand.known],
        pile=list(hand.pile),
        out=set(hand.out),
        melds=hand.melds,
        knocker=hand.knocker,
        turn=hand.turn,
        over=hand.over,
        result=hand.result,
        upcard_phase=hand.upcard_phase,
    )


def told_truly(told: list[Event], played: Iterable[Event]) -> bool:
    """Whether the moves a player told of a hand are those it played, so far as told."""
    real = [encode(e) for e in public_events(played)]
    return [encode(e) for e in told] == real[: len(told)]


__all__ = [
    "PublicHand",
    "decode",
    "encode",
    "public",
    "public_events",
    "told_truly",
]
