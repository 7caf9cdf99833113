"""Helpers for engine tests: decks that deal chosen hands, state snapshots, a random player."""

from __future__ import annotations

import random

from gin3d.engine import CARDS, Hand, RuleSet, parse_cards


def deck_for(non_dealer: str, dealer: str, upcard: str | None = None, stock: str = "") -> list:
    """A deck order dealing these hands (10 each, or 11 to the non-dealer with no upcard),
    then the upcard, then the stock from the top down; unnamed cards fill the rest."""
    nd, dl = parse_cards(non_dealer), parse_cards(dealer)
    order = []
    for i in range(max(len(nd), len(dl))):
        if i < len(nd):
            order.append(nd[i])
        if i < len(dl):
            order.append(dl[i])
    if upcard:
        order += parse_cards(upcard)
    order += parse_cards(stock)
    order += [c for c in CARDS if c not in order]
    assert len(set(order)) == 52
    return order


def snapshot(hand: Hand) -> tuple:
    """Everything that defines a hand's state, for 'nothing changed' checks."""
    return (
        [list(h) for h in hand.hands],
        list(hand.stock),
        list(hand.pile),
        hand.phase,
        hand.turn,
        len(hand.events),
        len(hand.actions),
        hand.taken,
        hand.must_knock,
        [list(m) for m in hand.table_melds],
        hand.result,
    )


def play_randomly(hand: Hand, rng: random.Random, limit: int = 1000) -> None:
    for _ in range(limit):
        if hand.over:
            return
        hand.apply(rng.choice(hand.legal_actions()))
    raise AssertionError("hand did not end")


def rules_strategy_values():
    """A spread of rule sets covering every option."""
    return [
        RuleSet.preset("classic"),
        RuleSet.preset("pagat"),
        RuleSet.preset("oklahoma"),
        RuleSet.preset("classic", last_chance=True),
        RuleSet.preset("pagat", allow_throw_back=True),
        RuleSet.preset("classic", no_upcard=True),
        RuleSet.preset("classic", straight_gin=True),
        RuleSet.preset("pagat", big_gin_bonus=50, knock_limit=5, next_dealer="alternate"),
        RuleSet.preset("classic", hollywood=True, next_dealer="loser"),
    ]
