"""Events: every change of a hand, in order. The scene, saves, replays and network read these.

``redact(event, seat)`` gives the event as ``seat`` may see it: cards that seat cannot see
(the opponent's dealt cards and stock draws) become None.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import Card
from .scoring import HandResult


@dataclass(slots=True)
class HandStarted:
    dealer: int
    hand_number: int
    stock_size: int  # cards in the stock after the deal


@dataclass(slots=True)
class CardDealt:
    seat: int
    card: Card | None
    index: int  # 0.. order of dealing


@dataclass(slots=True)
class UpcardTurned:
    card: Card
    knock_limit: int


@dataclass(slots=True)
class Passed:
    seat: int
    what: str  # "upcard" | "last_chance"


@dataclass(slots=True)
class CardDrawn:
    seat: int
    source: str  # "stock" | "discard"
    card: Card | None


@dataclass(slots=True)
class Discarded:
    seat: int
    card: Card


@dataclass(slots=True)
class Knocked:
    seat: int
    card: Card | None  # the face-down discard; None for Big Gin
    kind: str  # knock | gin | big_gin
    melds: list[list[Card]] = field(default_factory=list)
    deadwood: list[Card] = field(default_factory=list)


@dataclass(slots=True)
class LaidOff:
    seat: int
    card: Card
    meld: int


@dataclass(slots=True)
class HandRevealed:
    """The non-knocker's hand laid out as melds and deadwood (after layoffs)."""

    seat: int
    melds: list[list[Card]]
    deadwood: list[Card]


@dataclass(slots=True)
class HandScored:
    result: HandResult
    knocker: int
    winner: int
    points: int


@dataclass(slots=True)
class HandDrawn:
    """The stock ran down to two cards with no knock: nobody scores, same dealer again."""

    stock_left: int


@dataclass(slots=True)
class DealerChosen:
    dealer: int
    cut: tuple[Card, Card]  # the card each seat drew


@dataclass(slots=True)
class GameOver:
    winner: int
    totals: tuple[int, int]
    breakdown: tuple[dict, dict]


Event = (
    HandStarted
    | CardDealt
    | UpcardTurned
    | Passed
    | CardDrawn
    | Discarded
    | Knocked
    | LaidOff
    | HandRevealed
    | HandScored
    | HandDrawn
    | DealerChosen
    | GameOver
)


def redact(event: Event, seat: int) -> Event:
    """The event as ``seat`` sees it."""
    if isinstance(event, CardDealt) and event.seat != seat:
        return replace(event, card=None)
    if isinstance(event, CardDrawn) and event.seat != seat and event.source == "stock":
        return replace(event, card=None)
    return event
