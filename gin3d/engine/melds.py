"""Sets, runs and the least-deadwood arrangement of up to 11 cards.

Hands are handled as 52-bit masks (bit ``suit*13 + rank``). The melds a hand contains come
from lookup tables (every run inside a 13-bit suit pattern, made the first time that pattern
is met; every set for every pattern of suits holding a rank), and a small depth-first search
picks the disjoint melds worth the most. That keeps one 11-card hand in the tens of
microseconds in pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .cards import CARDS, VALUES, Card, cards_of

SUIT_BITS = 0x1FFF

Meld = tuple[int, int]  # (52-bit mask, point value)


def _runs_in(suit: int, pattern: int) -> tuple[Meld, ...]:
    """Every run (3+ consecutive ranks) inside a 13-bit pattern of one suit, longest first
    within a start (the search tries big melds early)."""
    runs: list[Meld] = []
    for lo in range(13):
        if not pattern >> lo & 1:
            continue
        hi = lo
        while hi + 1 < 13 and pattern >> (hi + 1) & 1:
            hi += 1
            if hi - lo >= 2:
                bits = ((1 << (hi - lo + 1)) - 1) << lo
                value = sum(VALUES[r] for r in range(lo, hi + 1))
                runs.append((bits << (13 * suit), value))
    runs.sort(key=lambda m: (m[0] & -m[0], -m[1]))
    return tuple(runs)


class _SuitRuns(dict):
    """``RUNS[suit][pattern]``: a pattern's runs, worked out the first time it is asked for
    and kept (all 4 x 8192 built at import took a third of the engine's import time; a game
    meets a few hundred patterns)."""

    def __init__(self, suit: int) -> None:
        super().__init__()
        self.suit = suit

    def __missing__(self, pattern: int) -> tuple[Meld, ...]:
        runs = self[pattern] = _runs_in(self.suit, pattern)
        return runs


def _build_set_table() -> list[list[tuple[Meld, ...]]]:
    """SETS[rank][suits] = every set of that rank inside a 4-bit pattern of suits held."""
    table: list[list[tuple[Meld, ...]]] = []
    for rank in range(13):
        value = VALUES[rank]
        per_pattern: list[tuple[Meld, ...]] = []
        for suits in range(16):
            held = [s for s in range(4) if suits >> s & 1]
            melds: list[Meld] = []
            if len(held) == 4:
                melds.append((sum(1 << (13 * s + rank) for s in held), 4 * value))
            if len(held) >= 3:
                for drop in held if len(held) == 4 else [None]:
                    chosen = [s for s in held if s != drop]
                    melds.append((sum(1 << (13 * s + rank) for s in chosen), 3 * value))
            per_pattern.append(tuple(melds))
        table.append(per_pattern)
    return table


RUNS = tuple(_SuitRuns(suit) for suit in range(4))
SETS = _build_set_table()


# per 13-bit suit pattern: the value of its cards, its cards that lie in no run, their value
def _suit_values() -> tuple[int, ...]:
    """The value of every 13-bit pattern, each from the pattern without its top card (one
    addition a pattern: summing 13 bits for each took a tenth of the engine's import)."""
    values = [0] * (1 << 13)
    for p in range(1, 1 << 13):
        top = p.bit_length() - 1
        values[p] = values[p ^ (1 << top)] + VALUES[top]
    return tuple(values)


SUIT_VALUE = _suit_values()
_STARTS = tuple(p & (p >> 1) & (p >> 2) for p in range(1 << 13))  # lowest card of each 3-run
OFF_RUN = tuple(p & ~(s | s << 1 | s << 2) for p, s in enumerate(_STARTS))
OFF_RUN_VALUE = tuple(SUIT_VALUE[p] for p in OFF_RUN)


def mask_value(mask: int) -> int:
    """Sum of the card values in a mask."""
    return (
        SUIT_VALUE[mask & SUIT_BITS]
        + SUIT_VALUE[mask >> 13 & SUIT_BITS]
        + SUIT_VALUE[mask >> 26 & SUIT_BITS]
        + SUIT_VALUE[mask >> 39 & SUIT_BITS]
    )


def isolated_value(mask: int) -> int:
    """Value of the cards that fit in no meld at all: a cheap lower bound on deadwood."""
    s0 = mask & SUIT_BITS
    s1 = mask >> 13 & SUIT_BITS
    s2 = mask >> 26 & SUIT_BITS
    s3 = mask >> 39
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not three:
        return OFF_RUN_VALUE[s0] + OFF_RUN_VALUE[s1] + OFF_RUN_VALUE[s2] + OFF_RUN_VALUE[s3]
    keep = ~three
    return (
        SUIT_VALUE[OFF_RUN[s0] & keep]
        + SUIT_VALUE[OFF_RUN[s1] & keep]
        + SUIT_VALUE[OFF_RUN[s2] & keep]
        + SUIT_VALUE[OFF_RUN[s3] & keep]
    )


def melds_in(mask: int) -> list[Meld]:
    """Every set and run (as (mask, value)) made only of cards in ``mask``."""
    s0 = mask & SUIT_BITS
    s1 = mask >> 13 & SUIT_BITS
    s2 = mask >> 26 & SUIT_BITS
    s3 = mask >> 39 & SUIT_BITS
    found: list[Meld] = []
    if s0:
        found += RUNS[0][s0]
    if s1:
        found += RUNS[1][s1]
    if s2:
        found += RUNS[2][s2]
    if s3:
        found += RUNS[3][s3]
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    while three:
        low = three & -three
        rank = low.bit_length() - 1
        found += SETS[rank][
            (s0 >> rank & 1) | (s1 >> rank & 1) << 1 | (s2 >> rank & 1) << 2 | (s3 >> rank & 1) << 3
        ]
        three ^= low
    return found


def _best_packing(melds: list[Meld]) -> tuple[int, tuple[int, ...]]:
    """(melded value, chosen meld masks) of the best disjoint choice; the first found wins."""
    n = len(melds)
    if n == 1:
        return melds[0][1], (melds[0][0],)
    best_value = 0
    best_picked: tuple[int, ...] = ()

    def search(i: int, used: int, value: int, picked: tuple[int, ...]) -> None:
        nonlocal best_value, best_picked
        while i < n:
            m, v = melds[i]
            i += 1
            if not m & used:
                search(i, used | m, value + v, picked + (m,))
        if value > best_value:
            best_value = value
            best_picked = picked

    search(0, 0, 0, ())
    return best_value, best_picked


def _packings(melds: list[Meld]) -> list[tuple[int, tuple[int, ...]]]:
    """The maximal disjoint choices of melds as (value, meld indices)."""
    out: list[tuple[int, tuple[int, ...]]] = []
    n = len(melds)

    def search(i: int, used: int, value: int, picked: tuple[int, ...]) -> None:
        extended = False
        for j in range(i, n):
            m, v = melds[j]
            if not m & used:
                extended = True
                search(j + 1, used | m, value + v, picked + (j,))
        if not extended:
            out.append((value, picked))

    search(0, 0, 0, ())
    return out


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of one hand; ``melds`` are sorted lists of cards."""

    melds: list[list[Card]]
    deadwood: list[Card]
    deadwood_points: int

    def __str__(self) -> str:
        parts = ["-".join(str(c) for c in m) for m in self.melds]
        dead = " ".join(str(c) for c in self.deadwood)
        return f"[{' | '.join(parts)}] deadwood {dead or '-'} ({self.deadwood_points})"


def _mask_from(cards: Iterable[int]) -> tuple[int, int]:
    mask = 0
    count = 0
    for c in cards:
        mask |= 1 << c
        count += 1
    if mask.bit_count() != count:
        raise ValueError("a card appears twice in the hand")
    return mask, count


def _meld_order(mask: int) -> tuple[int, int]:
    """Sort key for melds on the table: sets before runs by lowest card."""
    cards = cards_of(mask)
    return (cards[0] % 13, cards[0] // 13)


def arrangement_from_masks(hand_mask: int, meld_masks: Sequence[int]) -> Arrangement:
    """Build an Arrangement from a hand mask and chosen disjoint meld masks."""
    used = 0
    for m in meld_masks:
        used |= m
    dead_mask = hand_mask & ~used
    melds = [cards_of(m) for m in sorted(meld_masks, key=_meld_order)]
    return Arrangement(melds, cards_of(dead_mask), mask_value(dead_mask))


def best_melds(cards: Iterable[int]) -> Arrangement:
    """The least-deadwood arrangement of 0–11 distinct cards (ties broken deterministically)."""
    mask, _ = _mask_from(cards)
    melds = melds_in(mask)
    if not melds:
        dead = cards_of(mask)
        return Arrangement([], dead, sum(VALUES[c] for c in dead))
    return arrangement_from_masks(mask, _best_packing(melds)[1])


def deadwood_of_mask(mask: int) -> int:
    """Least deadwood of a hand mask (no objects built): the fast path for search and AI."""
    cached = _DEADWOOD_CACHE.get(mask)
    if cached is not None:
        return cached
    melds = melds_in(mask)
    total = mask_value(mask)
    if melds:
        total -= _best_packing(melds)[0]
    if len(_DEADWOOD_CACHE) > 200_000:
        _DEADWOOD_CACHE.clear()
    _DEADWOOD_CACHE[mask] = total
    return total


_DEADWOOD_CACHE: dict[int, int] = {}


def deadwood(cards: Iterable[int]) -> int:
    """Least deadwood points of the given cards."""
    mask, _ = _mask_from(cards)
    return deadwood_of_mask(mask)


def all_best_arrangements(cards: Iterable[int]) -> list[Arrangement]:
    """Every arrangement with the least deadwood, in a deterministic order."""
    mask, _ = _mask_from(cards)
    melds = melds_in(mask)
    packings = _packings(melds) if melds else [(0, ())]
    best = max(v for v, _ in packings)
    seen: set[tuple[int, ...]] = set()
    out = []
    for value, picked in packings:
        if value != best:
            continue
        key = tuple(sorted(melds[i][0] for i in picked))
        if key in seen:
            continue
        seen.add(key)
        out.append(arrangement_from_masks(mask, key))
    return out


def discard_deadwoods(cards: Sequence[int]) -> dict[Card, int]:
    """For an 11-card hand: the least deadwood left after each possible discard (in the
    order the cards were given)."""
    mask, _ = _mask_from(cards)
    left = deadwood_after_discards(mask)
    return {CARDS[c]: left[c] for c in cards}


def deadwood_after_discards(mask: int) -> dict[Card, int]:
    """The least deadwood left after discarding each card of ``mask``, from one search.

    A choice of disjoint melds of the whole hand survives a discard exactly when it does not
    use that card, so the best survivor (the first in order of value) scores each discard.
    """
    total = mask_value(mask)
    cards = cards_of(mask)
    melds = melds_in(mask)
    if not melds:
        return {c: total - VALUES[c] for c in cards}
    choices = _packing_unions(melds)
    out = {}
    for c in cards:
        bit = 1 << c
        for value, used in choices:
            if not used & bit:
                out[c] = total - VALUES[c] - value
                break
    return out


def _packing_unions(melds: list[Meld]) -> list[tuple[int, int]]:
    """Every disjoint choice of melds (the empty one too) as (value, cards used), best first."""
    out = [(0, 0)]
    n = len(melds)

    def search(i: int, used: int, value: int) -> None:
        for j in range(i, n):
            m, v = melds[j]
            if not m & used:
                out.append((value + v, used | m))
                search(j + 1, used | m, value + v)

    search(0, 0, 0)
    out.sort(reverse=True)
    return out


def is_meld(cards: Iterable[int]) -> bool:
    """Whether the cards form exactly one valid set or run."""
    cs = sorted(set(int(c) for c in cards))
    if len(cs) < 3:
        return False
    ranks = [c % 13 for c in cs]
    suits = [c // 13 for c in cs]
    if len(set(ranks)) == 1:
        return len(cs) <= 4
    if len(set(suits)) == 1:
        return all(b - a == 1 for a, b in zip(ranks, ranks[1:]))
    return False


def discard_deadwood_array(cards: Sequence[int]) -> np.ndarray:
    """Deadwood after each discard of ``cards`` (numpy batch path), in the order given.

    Every disjoint choice of melds of the whole hand is found once (``_packing_unions``, as
    for ``deadwood_after_discards``); the melds left after discarding card ``i`` are exactly
    the choices that avoid ``i``, so one masked max over a (choices x cards) matrix scores
    all discards together.
    """
    mask, n = _mask_from(cards)
    melds = melds_in(mask)
    values = np.fromiter((VALUES[c] for c in cards), dtype=np.int32, count=n)
    total = int(values.sum())
    if not melds:
        return total - values
    choices = _packing_unions(melds)
    bits = np.array([1 << int(c) for c in cards], dtype=object)
    used = np.zeros((len(choices), n), dtype=bool)
    melded = np.empty(len(choices), dtype=np.int32)
    for row, (value, union) in enumerate(choices):
        used[row] = (bits & union) != 0
        melded[row] = value
    # a packing that uses card i cannot stay whole once i is discarded
    best_without = np.where(used, 0, melded[:, None]).max(axis=0)
    return total - values - best_without
