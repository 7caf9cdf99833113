"""Actions: what a seat can do. Small frozen values with a text form for logs and the network."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, Card, card


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock."""

    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the upcard or the top of the discard pile."""

    def __str__(self) -> str:
        return "draw discard"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the first-turn upcard, or the last-chance discard."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card face up and end the turn."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Discard a card face down and lay out the rest (gin when no deadwood is left)."""

    card: Card

    def __str__(self) -> str:
        return f"knock {self.card}"


@dataclass(frozen=True, slots=True)
class BigGin:
    """Lay out all 11 cards, every one melded, without discarding."""

    def __str__(self) -> str:
        return "big gin"


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card to the knocker's meld number ``meld``."""

    card: Card
    meld: int

    def __str__(self) -> str:
        return f"layoff {self.card} {self.meld}"


@dataclass(frozen=True, slots=True)
class FinishLayoff:
    """Stop laying off; the hand is scored."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class NextHand:
    """Deal the next hand of the game (after a hand is over)."""

    def __str__(self) -> str:
        return "next hand"


Action = (
    DrawStock | DrawDiscard | Pass | Discard | Knock | BigGin | LayOff | FinishLayoff | NextHand
)

_PLAIN = {str(a()): a() for a in (DrawStock, DrawDiscard, Pass, BigGin, FinishLayoff, NextHand)}


def parse_action(text: str) -> Action:
    """The action written as ``str(action)``; ValueError names what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"an action is text, got {type(text).__name__}")
    words = text.strip().lower().split()
    joined = " ".join(words)
    if joined in _PLAIN:
        return _PLAIN[joined]
    if len(words) == 2 and words[0] in ("discard", "knock"):
        cls = Discard if words[0] == "discard" else Knock
        return cls(card(words[1]))
    if len(words) == 3 and words[0] == "layoff":
        if not words[2].isdigit() or int(words[2]) > 20:
            raise ValueError(f"not a meld number: {words[2]!r}")
        return LayOff(card(words[1]), int(words[2]))
    raise ValueError(f"not an action: {text!r}")


# shared instances: actions are immutable values, so the engine hands out the same objects
DRAW_STOCK, DRAW_DISCARD, PASS, BIG_GIN, FINISH_LAYOFF, NEXT_HAND = (
    DrawStock(),
    DrawDiscard(),
    Pass(),
    BigGin(),
    FinishLayoff(),
    NextHand(),
)
DISCARDS = tuple(Discard(c) for c in CARDS)
KNOCKS = tuple(Knock(c) for c in CARDS)
