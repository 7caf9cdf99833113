"""Playing a sampled deal out to the hand's end (the expert's price of playing on)."""

from gin3d.ai.rollout import RolloutRules, best_throw, play_out
from gin3d.engine import card, deadwood_of_mask, mask_of, parse_hand

RULES = RolloutRules(knock_limit=10, gin_bonus=25, undercut_bonus=25, their_knock=10, wait_stock=4)


def stock_of(*tokens: str) -> list[int]:
    """A stock drawn from its end: the first card named is drawn first."""
    return [int(card(t)) for t in reversed(tokens)]


def test_the_best_throw_leaves_the_least_deadwood_and_keeps_the_card_taken():
    full = mask_of(parse_hand("AS 2S 3S 4H 5H 6H 7D 8D 9D KC QH"))
    assert best_throw(full) == (10, int(card("KC")))  # of two tens, the higher card goes
    assert best_throw(full, keep=int(card("KC")))[1] == int(card("QH"))


def test_our_next_draw_goes_gin_and_scores_their_deadwood_and_the_bonus():
    mine = mask_of(parse_hand("AS 2S 3S 4H 5H 6H 7D 8D 9D KC"))
    theirs = mask_of(parse_hand("2H 4C 6D 8S TH JC QD KS 9C 7C"))
    # they draw the 3C, we the KD (it melds nothing), they the AD, we the 4S: gin
    stock = stock_of("3C", "KD", "AD", "4S", "5C", "5S", "6C", "6S")
    points = play_out(mine, theirs, int(card("QS")), stock, RULES)
    assert points > RULES.gin_bonus
    assert points == deadwood_of_mask(_their_hand_after(theirs)) + RULES.gin_bonus


def _their_hand_after(theirs: int) -> int:
    """Their hand after drawing 3C then AD, throwing the least-deadwood card each time."""
    hand = theirs
    for drawn in ("3C", "AD"):
        d, thrown = best_throw(hand | 1 << int(card(drawn)))
        hand = (hand | 1 << int(card(drawn))) & ~(1 << thrown)
    return hand


def test_an_opponent_knocking_with_more_deadwood_than_ours_is_undercut():
    mine = mask_of(parse_hand("AS 2S 3S 4H 5H 6H 7D 8D 9D 2C"))  # 2 deadwood
    theirs = mask_of(parse_hand("AC AH AD 5S 6S 7S TC JC QC 9H"))  # 9H: 9 deadwood
    stock = stock_of("KD", "KS", "QS", "QH")
    points = play_out(mine, theirs, int(card("KH")), stock, RULES)
    assert points == (9 - 2) + RULES.undercut_bonus  # it knocks at once and is undercut


def test_an_opponent_that_knocks_only_low_lets_the_hand_run_to_a_draw():
    mine = mask_of(parse_hand("AS 2S 3S 4H 5H 6H 7D 8D 9D QC"))  # 10 deadwood
    theirs = mask_of(parse_hand("AC AH AD 5S 6S 7S TC JC QD 9H"))
    patient = RolloutRules(10, 25, 25, their_knock=3, wait_stock=0)
    stock = stock_of("KH", "KD", "KS", "JH", "TD", "8C")
    assert play_out(mine, theirs, int(card("QS")), stock, patient) == 0
