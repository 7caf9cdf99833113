"""Test helper: hands dealt from chosen cards and played from a script, with known outcomes."""

from __future__ import annotations

from gin3d.engine import (
    CARDS,
    BigGin,
    Discard,
    DrawStock,
    FinishLayoff,
    Hand,
    Knock,
    Pass,
    RuleSet,
    card,
    parse_cards,
)

GIN_HAND = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"  # + 4S from the stock: gin, discarding KD
LOOSE_HAND = "2D 4D 6D 8D TD 3C 5C JC QH KH"  # no melds, 68 deadwood


def deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[int]:
    """A deck in dealing order: the two hands, the upcard, then the stock in drawing order."""
    n, d = parse_cards(non_dealer), parse_cards(dealer)
    first = [c for pair in zip(n, d) for c in pair] + [card(upcard)] + parse_cards(stock)
    rest = [c for c in CARDS if c not in first]
    return [int(c) for c in first + rest]


# (deck, actions) pairs; outcomes are from the non-dealer's side under the classic rules
GIN = (
    deck(GIN_HAND, LOOSE_HAND, "QD", "4S"),
    [Pass(), Pass(), DrawStock(), Knock(card("KD"))],
)  # non-dealer gin: 68 + 25 = 93
UNDERCUT = (
    deck("KS KD KC QS QD QC JS JD JC AD", "7H 8H 9H 2C 3C 4C 5S 5D 5H 6D", "TS", "2H TD"),
    [
        Pass(),
        Pass(),
        DrawStock(),
        Discard(card("2H")),
        DrawStock(),
        Knock(card("TD")),
        FinishLayoff(),
    ],
)  # dealer knocks with 6, non-dealer has 1: undercut 5 + 25 = 30
# the other player melds J-Q-K of spades and of diamonds: 37 - 6 = 31
KNOCK = (
    deck("2C 3C 4C 5S 5D 5H 7H 8H 9H 6D", "KS KD KC QS QD JS JD TC 9D 8S", "AH", "TD"),
    [Pass(), Pass(), DrawStock(), Knock(card("TD")), FinishLayoff()],
)
BIG_GIN = (
    deck("AS 2S 3S 4S 5H 6H 7H 9C 9D 9S", LOOSE_HAND, "QD", "8H"),
    [Pass(), Pass(), DrawStock(), BigGin()],
)  # 68 + 31 = 99


def play_script(script, dealer: int, rules: RuleSet | None = None, number: int = 0) -> Hand:
    """Deal ``script``'s deck with ``dealer`` and apply its actions."""
    d, actions = script
    hand = Hand(rules or RuleSet(), dealer, d, hand_number=number)
    for a in actions:
        hand.apply(a)
    return hand


def drawn_hand(seed: str = "drawn", dealer: int = 0, number: int = 0) -> Hand:
    """Both players pass and throw back every stock card until the stock runs out."""
    hand = Hand.deal(RuleSet(), dealer, seed=seed, hand_number=number)
    hand.apply(Pass())
    hand.apply(Pass())
    while not hand.over:
        drawn = hand.stock[-1]
        hand.apply(DrawStock())
        hand.apply(Discard(drawn))
    return hand
