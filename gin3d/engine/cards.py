"""Cards as small integers (numpy-friendly) with the text form `AS 7H TD KC`.

A card is ``suit * 13 + rank``: suits S, H, D, C are 0..3 (the first-dealer draw ranks them
S > H > D > C), ranks A, 2..9, T, J, Q, K are 0..12. ``Card`` subclasses ``int`` so a card
is its own index into numpy arrays and bit masks, yet prints as ``AS``.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
DECK_SIZE = 52


class Card(int):
    """One of the 52 cards; use ``CARDS[i]`` or ``Card.parse("AS")`` rather than ``Card(i)``."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= int(index) < DECK_SIZE:
            raise ValueError(f"card index {index!r} is outside 0..51")
        return int.__new__(cls, index)

    @property
    def rank(self) -> int:
        """0 for the ace up to 12 for the king."""
        return int(self) % 13

    @property
    def suit(self) -> int:
        """0 spades, 1 hearts, 2 diamonds, 3 clubs."""
        return int(self) // 13

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, pip cards their number, court cards 10."""
        return VALUES[int(self)]

    @property
    def bit(self) -> int:
        """This card's bit in a 52-bit hand mask."""
        return 1 << int(self)

    @property
    def pretty(self) -> str:
        """Rank and suit symbol, e.g. ``7♥`` (``10♠`` for tens): for text shown to players."""
        rank = "10" if self.rank == 9 else RANKS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """``seven of hearts``: for narration and screen readers."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @staticmethod
    def parse(token: str) -> Card:
        """Parse one card such as ``AS``, ``th`` or ``10H``; raise ValueError naming the token."""
        text = token.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise ValueError(f"not a card: {token!r} (expected rank A23456789TJQK + suit SHDC)")
        return CARDS[SUITS.index(text[1]) * 13 + RANKS.index(text[0])]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return str(self)

    def __reduce__(self):  # pickles/copies as the shared instance
        return (_card_of, (int(self),))


def _card_of(index: int) -> Card:
    return CARDS[index]


VALUES: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(DECK_SIZE))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(DECK_SIZE))


def card(token: str | int) -> Card:
    """One card from its text form or index."""
    if isinstance(token, str):
        return Card.parse(token)
    if isinstance(token, bool) or not isinstance(token, int):
        raise ValueError(f"not a card: {token!r}")
    if not 0 <= token < DECK_SIZE:
        raise ValueError(f"card index {token!r} is outside 0..51")
    return CARDS[token]


def parse_cards(
    text: str | Iterable[str | int], *, hand: bool = False, max_cards: int | None = None
) -> list[Card]:
    """Parse ``"AS 2S 3S"`` (or a list of tokens/indices) into cards.

    With ``hand=True`` a repeated card is an error; ``max_cards`` bounds the count. Every error
    is a ValueError whose message names the bad token.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [card(t) for t in tokens]
    if hand:
        seen: set[int] = set()
        for t, c in zip(tokens, cards):
            if c in seen:
                raise ValueError(f"card {t!r} appears twice in the hand")
            seen.add(c)
    if max_cards is not None and len(cards) > max_cards:
        raise ValueError(
            f"{len(cards)} cards given, at most {max_cards} allowed (extra: {tokens[max_cards]!r})"
        )
    return cards


def parse_hand(text: str | Iterable[str | int], size: int | None = None) -> list[Card]:
    """Parse a hand: distinct cards, and exactly ``size`` of them when given."""
    cards = parse_cards(text, hand=True, max_cards=size)
    if size is not None and len(cards) != size:
        raise ValueError(f"a hand here has {size} cards, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """The text form ``AS 7H TD`` of any cards or indices."""
    return " ".join(str(CARDS[c]) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    """52-bit mask of the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards in a 52-bit mask, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def sort_cards(cards: Iterable[int], by: str = "suit") -> list[Card]:
    """Sort by ``suit`` (suit then rank) or ``rank`` (rank then suit)."""
    if by == "suit":
        return sorted((CARDS[c] for c in cards), key=int)
    if by == "rank":
        return sorted((CARDS[c] for c in cards), key=lambda c: (c % 13, c // 13))
    raise ValueError(f"unknown sort order {by!r} (use 'suit' or 'rank')")
