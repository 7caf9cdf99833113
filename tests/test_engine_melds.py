"""Optimal arrangement: known hands, and a brute-force check on thousands of random hands."""

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gin3d.engine import (
    CARDS,
    all_best_arrangements,
    best_melds,
    deadwood,
    discard_deadwood_array,
    discard_deadwoods,
    is_meld,
    parse_cards,
)


def brute_force_deadwood(cards):
    """Least deadwood by trying every subset of every candidate meld (no shared code)."""
    cards = list(cards)
    groups = [[c for c in cards if c.suit == s] for s in range(4)]
    groups += [[c for c in cards if c.rank == r] for r in range(13)]
    candidates = [
        frozenset(combo)
        for group in groups
        for size in range(3, len(group) + 1)
        for combo in combinations(group, size)
        if is_meld(combo)
    ]
    total = sum(c.value for c in cards)
    best = 0

    def search(i, used, value):
        nonlocal best
        best = max(best, value)
        for j in range(i, len(candidates)):
            m = candidates[j]
            if not m & used:
                search(j + 1, used | m, value + sum(c.value for c in m))

    search(0, frozenset(), 0)
    return total - best


def arrangement_is_valid(cards, arr):
    laid = [c for m in arr.melds for c in m] + list(arr.deadwood)
    return sorted(laid) == sorted(cards) and all(is_meld(m) for m in arr.melds)


any_hand = st.lists(st.sampled_from(CARDS), unique=True, max_size=11)


@st.composite
def dense_hand(draw):
    """Hands drawn from a few neighbouring ranks: full of overlapping sets and runs."""
    low = draw(st.integers(0, 9))
    pool = [c for c in CARDS if low <= c.rank < low + draw(st.integers(3, 5))]
    return draw(st.lists(st.sampled_from(pool), unique=True, max_size=11))


@settings(max_examples=1500, deadline=None)
@given(any_hand)
def test_best_melds_matches_brute_force_on_random_hands(cards):
    arr = best_melds(cards)
    assert arr.deadwood_points == brute_force_deadwood(cards)
    assert arrangement_is_valid(cards, arr)


@settings(max_examples=1500, deadline=None)
@given(dense_hand())
def test_best_melds_matches_brute_force_on_meld_rich_hands(cards):
    arr = best_melds(cards)
    assert arr.deadwood_points == brute_force_deadwood(cards)
    assert arrangement_is_valid(cards, arr)
    assert deadwood(cards) == arr.deadwood_points


@settings(max_examples=300, deadline=None)
@given(st.one_of(dense_hand(), any_hand).filter(lambda h: len(h) == 11))
def test_discard_paths_agree(cards):
    by_dict = discard_deadwoods(cards)
    by_array = discard_deadwood_array(cards)
    assert list(by_array) == [by_dict[c] for c in cards]
    assert all(
        by_dict[c] == best_melds([x for x in cards if x != c]).deadwood_points for c in cards
    )


def test_known_arrangements():
    arr = best_melds(parse_cards("4H 5H 6H 9S 9D 9C TC JC QC 2D"))
    assert arr.deadwood_points == 2 and [str(c) for c in arr.deadwood] == ["2D"]
    # the run beats the set: 6-7-8-9S leaves 7H 7D (14) rather than 6S 8S 9S (23)
    assert best_melds(parse_cards("7S 7H 7D 8S 9S 6S")).deadwood_points == 14
    # a card goes in one meld only: 7S cannot serve both 7-7-7 and 7-8-9S
    one_meld = best_melds(parse_cards("7S 7H 7D 8S 9S"))
    assert one_meld.deadwood_points == 14 and len(one_meld.melds) == 1


def test_ace_is_low_only():
    assert best_melds(parse_cards("QS KS AS")).deadwood_points == 21
    assert best_melds(parse_cards("KS AS 2S")).deadwood_points == 13
    assert best_melds(parse_cards("AS 2S 3S")).deadwood_points == 0


def test_empty_and_single():
    assert best_melds([]).deadwood_points == 0
    assert best_melds(parse_cards("KD")).deadwood_points == 10


def test_ties_are_broken_the_same_way_every_time():
    cards = parse_cards("5S 5H 5D 5C 6S 7S 6H 7H")
    first = best_melds(cards)
    assert all(best_melds(list(reversed(cards))) == first for _ in range(3))
    assert len(all_best_arrangements(cards)) >= 1
    assert all(a.deadwood_points == first.deadwood_points for a in all_best_arrangements(cards))


def test_all_best_arrangements_lists_alternatives():
    # 4-5-6-7H with 7S 7D: 7H can sit in the run or in the set, same deadwood (0 vs 4-5-6H + 7s)
    arrs = all_best_arrangements(parse_cards("4H 5H 6H 7H 7S 7D"))
    assert {len(a.melds) for a in arrs} == {2}
    assert all(a.deadwood_points == 0 for a in arrs)


def test_discard_array_is_numpy():
    hand = parse_cards("AS 2S 3S 4H 5H 6H 9C 9D 9S KD QD")
    arr = discard_deadwood_array(hand)
    assert isinstance(arr, np.ndarray) and arr.shape == (11,)
    assert arr[hand.index(parse_cards("KD")[0])] == 10
