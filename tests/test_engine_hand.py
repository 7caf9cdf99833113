"""The hand state machine: deal, upcard offer, turns, knocks, layoffs, stock end, options."""

import random
from dataclasses import fields

import pytest
from engine_helpers import deck_for, rules_strategy_values, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from gin3d.engine import (
    CARDS,
    BigGin,
    CardDealt,
    CardDrawn,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Hand,
    HandDrawn,
    HandScored,
    IllegalAction,
    Knock,
    LayOff,
    LogError,
    Pass,
    RuleSet,
    card,
    parse_action,
    parse_cards,
    shuffled_deck,
)

CLASSIC = RuleSet.preset("classic")
C = card


def test_same_seed_same_hand_and_deal_order():
    a, b = Hand.deal(CLASSIC, dealer=1, seed=7), Hand.deal(CLASSIC, dealer=1, seed=7)
    assert a.hands == b.hands and a.stock == b.stock and a.upcard == b.upcard
    assert Hand.deal(CLASSIC, dealer=1, seed=8).hands != a.hands
    dealt = [e for e in a.events if isinstance(e, CardDealt)]
    assert [e.seat for e in dealt[:4]] == [0, 1, 0, 1]  # non-dealer first
    assert len(a.hands[0]) == len(a.hands[1]) == 10 and len(a.stock) == 31
    assert a.card_count() == 52 and a.phase == "upcard" and a.turn == 0


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3, "match-42"])
def test_seeded_deck_is_the_standard_fisher_yates_order(seed):
    # the order saved games and the rules' worked examples rely on: random.shuffle's
    expected = list(CARDS)
    random.Random(seed).shuffle(expected)
    assert shuffled_deck(seed) == expected
    dealt = Hand.deal(CLASSIC, dealer=0, seed=seed)
    assert list(dealt.deck) == expected and dealt.card_count() == 52


def test_over_follows_the_phase():
    hand = Hand.deal(CLASSIC, dealer=0, seed=3)
    rnd = random.Random(3)
    while not hand.over:
        assert hand.phase != "over"
        hand.apply(rnd.choice(hand.legal_actions()))
    assert hand.phase == "over" and hand.legal_actions() == []


def test_upcard_offer_both_pass_then_stock_only():
    hand = Hand.deal(CLASSIC, dealer=0, seed=1)
    assert hand.turn == 1 and hand.legal_actions() == [DrawDiscard(), Pass()]
    hand.apply(Pass())
    assert hand.turn == 0 and hand.legal_actions() == [DrawDiscard(), Pass()]
    hand.apply(Pass())
    assert hand.turn == 1 and hand.legal_actions() == [DrawStock()]
    hand.apply(DrawStock())
    hand.apply(Discard(hand.hands[1][0]))
    assert hand.turn == 0 and DrawDiscard() in hand.legal_actions()


def test_taking_the_upcard_then_no_throw_back():
    hand = Hand.deal(CLASSIC, dealer=0, seed=2)
    up = hand.upcard
    hand.apply(DrawDiscard())
    assert hand.phase == "discard" and up in hand.hands[1]
    assert Discard(up) not in hand.legal_actions()
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        hand.apply(Discard(up))
    assert snapshot(hand) == before
    other = next(c for c in hand.hands[1] if c != up)
    hand.apply(Discard(other))
    assert hand.turn == 0 and hand.phase == "draw"


def test_stock_card_may_be_discarded_at_once():
    hand = Hand.deal(CLASSIC, dealer=0, seed=3)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    drawn = hand.hands[1][-1]
    assert Discard(drawn) in hand.legal_actions()


def knock_ready_hand(rules=CLASSIC, upcard="KH", stock="2C"):
    # non-dealer (seat 1): 4-5-6H 9-9-9 T-J-QC + 2D, draws the stock's 2C... knock on 2D/2C
    deck = deck_for("4H 5H 6H 9S 9D 9C TC JC QC 2D", "KS KD KC 5S 6S 7S 7H 9H 3C AD", upcard, stock)
    hand = Hand(rules, 0, deck)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    return hand


def test_knock_then_layoffs_then_score():
    hand = knock_ready_hand(RuleSet.preset("pagat"), stock="8D")
    assert Knock(C("8D")) in hand.legal_actions() and Knock(C("4H")) not in hand.legal_actions()
    hand.apply(Knock(C("8D")))
    assert hand.phase == "layoff" and hand.turn == 0
    legal = hand.legal_actions()
    assert LayOff(C("7H"), 0) in legal and LayOff(C("9H"), 1) in legal
    assert legal[-1] == FinishLayoff()
    assert hand.best_layoff_actions() == [LayOff(C("7H"), 0), LayOff(C("9H"), 1), FinishLayoff()]
    with pytest.raises(IllegalAction):
        hand.apply(LayOff(C("3C"), 0))
    for action in hand.best_layoff_actions():
        hand.apply(action)
    assert hand.over and hand.result.kind == "knock" and hand.result.points == 2
    assert hand.winner == 1 and isinstance(hand.events[-1], HandScored)
    assert hand.card_count() == 52


def test_chain_layoff_through_the_state_machine():
    deck = deck_for("6H 7H 8H 9S 9D 9C TC JC QC 2D", "9H TH 2S 3S 4C 6C 8D TD QD KD", "KH", "AC")
    hand = Hand(CLASSIC, 0, deck)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    hand.apply(Knock(C("2D")))
    assert LayOff(C("TH"), 0) not in hand.legal_actions()  # not until 9H is on
    hand.apply(LayOff(C("9H"), 0))
    assert LayOff(C("TH"), 0) in hand.legal_actions()
    hand.apply(LayOff(C("TH"), 0))
    assert [str(c) for c in hand.table_melds[0]] == ["6H", "7H", "8H", "9H", "TH"]


def test_gin_skips_layoffs():
    deck = deck_for("4H 5H 6H 9S 9D 9C TC JC QC 2D", "7H 8H KS KD 5S 6S 7S 3C AD 4D", "KH", "KC")
    hand = Hand(CLASSIC, 0, deck)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    hand.apply(Knock(C("2D")))
    assert hand.over and hand.result.kind == "gin" and hand.result.layoffs == []
    assert hand.result.points == hand.result.other_deadwood + CLASSIC.gin_bonus


def test_big_gin():
    deck = deck_for("4H 5H 6H 9S 9D 9C TC JC QC KC", "8H KS KD 5S 6S 7S 3C AD 4D 2D", "KH", "7H")
    hand = Hand(CLASSIC, 0, deck)
    hand.apply(Pass())
    hand.apply(Pass())
    hand.apply(DrawStock())
    assert BigGin() in hand.legal_actions()
    hand.apply(BigGin())
    assert hand.result.kind == "big_gin" and hand.result.bonus == 31
    pagat = Hand(RuleSet.preset("pagat"), 0, deck)
    for a in (Pass(), Pass(), DrawStock()):
        pagat.apply(a)
    assert BigGin() not in pagat.legal_actions()


def test_stock_end_is_a_draw():
    hand = Hand.deal(CLASSIC, dealer=0, seed=11)
    rng = random.Random(0)
    while not hand.over:
        legal = [a for a in hand.legal_actions() if not isinstance(a, (Knock, BigGin))]
        hand.apply(rng.choice(legal))
    assert hand.drawn and isinstance(hand.events[-1], HandDrawn) and len(hand.stock) == 2
    assert hand.result is None and hand.winner is None


def test_last_chance_lets_the_other_player_take_the_final_discard():
    rules = RuleSet.preset("classic", last_chance=True)
    hand = Hand.deal(rules, dealer=0, seed=12)
    rng = random.Random(1)
    while hand.phase != "last_chance" and not hand.over:
        legal = [a for a in hand.legal_actions() if not isinstance(a, (Knock, BigGin))]
        hand.apply(rng.choice(legal))
    assert hand.phase == "last_chance"
    assert hand.legal_actions()[-1] == Pass()
    hand.apply(Pass())
    assert hand.drawn


def test_straight_gin_only_allows_gin():
    hand = knock_ready_hand(RuleSet.preset("classic", straight_gin=True), stock="8D")
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())


def test_oklahoma_knock_limit_follows_the_upcard():
    okla = RuleSet.preset("oklahoma")
    three = knock_ready_hand(okla, upcard="3H", stock="8D")
    assert three.knock_limit == 3 and Knock(C("8D")) in three.legal_actions()  # leaves 2
    ace = knock_ready_hand(okla, upcard="AH", stock="8D")
    assert ace.knock_limit == 0 and not any(isinstance(a, Knock) for a in ace.legal_actions())
    assert knock_ready_hand(okla, upcard="QH", stock="8D").knock_limit == 10


def test_no_upcard_deal():
    hand = Hand.deal(RuleSet.preset("classic", no_upcard=True), dealer=0, seed=5)
    assert len(hand.hands[1]) == 11 and len(hand.hands[0]) == 10 and not hand.pile
    assert hand.phase == "discard" and hand.turn == 1 and len(hand.stock) == 31


def test_throw_back_option():
    rules = RuleSet.preset("pagat", allow_throw_back=True)
    hand = Hand.deal(rules, dealer=0, seed=4)
    up = hand.upcard
    hand.apply(DrawDiscard())
    assert Discard(up) in hand.legal_actions()
    hand.apply(Discard(hand.hands[1][0]))
    # seat 0 takes seat 1's discard and throws it straight back
    thrown = hand.pile[-1]
    hand.apply(DrawDiscard())
    hand.apply(Discard(thrown))
    # seat 1 threw it first: it may only take it back to knock this turn
    takes_back = DrawDiscard() in hand.legal_actions()
    assert takes_back == hand._could_knock_with(1, thrown)


def test_illegal_actions_change_nothing():
    hand = Hand.deal(CLASSIC, dealer=0, seed=9)
    before = snapshot(hand)
    for bad in (
        DrawStock(),
        Discard(hand.hands[1][0]),
        Knock(hand.hands[1][0]),
        LayOff(hand.hands[1][0], 0),
        FinishLayoff(),
        BigGin(),
        "draw stock",
        None,
    ):
        with pytest.raises((IllegalAction, ValueError)):
            hand.apply(bad)
        assert snapshot(hand) == before


def test_actions_round_trip_as_text():
    for action in (
        DrawStock(),
        DrawDiscard(),
        Pass(),
        Discard(C("7H")),
        Knock(C("TD")),
        BigGin(),
        LayOff(C("9H"), 2),
        FinishLayoff(),
    ):
        assert parse_action(str(action)) == action
    for bad in ("discard 1X", "layoff 9H x", "dance", "", "knock"):
        with pytest.raises(ValueError):
            parse_action(bad)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(rules_strategy_values()), st.integers(0, 1))
def test_random_legal_hands_account_for_all_cards_and_replay(seed, rules, dealer):
    rng = random.Random(seed)
    hand = Hand.deal(rules, dealer=dealer, seed=seed)
    while not hand.over:
        legal = hand.legal_actions()
        assert legal, "a hand that is not over always has a legal action"
        assert hand.card_count() == 52
        wrong = Discard(CARDS[rng.randrange(52)])
        if wrong not in legal:
            before = snapshot(hand)
            with pytest.raises(IllegalAction):
                hand.apply(wrong)
            assert snapshot(hand) == before
        hand.apply(rng.choice(legal))
    assert hand.card_count() == 52
    everything = sorted(
        [*hand.hands[0], *hand.hands[1], *hand.stock, *hand.pile, *(c for c, _ in hand.layoffs)]
    )
    assert everything == list(CARDS)
    assert snapshot(hand.replay()) == snapshot(hand)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(rules_strategy_values()), st.integers(0, 1))
def test_legal_actions_match_the_independent_check_and_events_are_whole(seed, rules, dealer):
    """The discard phase's list comes from kept-in-step state and the turn events are built
    field by field: both are checked here against the plain way at every step."""
    rng = random.Random(seed)
    candidates = [
        DrawStock(),
        DrawDiscard(),
        Pass(),
        BigGin(),
        FinishLayoff(),
        *(Discard(c) for c in CARDS),
        *(Knock(c) for c in CARDS),
    ]
    hand = Hand.deal(rules, dealer=dealer, seed=seed)
    while not hand.over:
        legal = hand.legal_actions()
        if hand.phase in ("draw", "discard"):
            assert sorted(map(str, legal)) == sorted(str(a) for a in candidates if hand.is_legal(a))
        hand.apply(rng.choice(legal))
    for event in hand.events:
        values = {f.name: getattr(event, f.name) for f in fields(event)}
        assert type(event)(**values) == event


def test_views_hide_the_opponents_cards():
    deck_a = deck_for("4H 5H 6H 9S 9D 9C TC JC QC 2D", "KS KD KC 5S 6S 7S 7H 9H 3C AD", "KH")
    deck_b = deck_for("4H 5H 6H 9S 9D 9C TC JC QC 2D", "AS 2S 3S 8S TS 8H 2H 3H 4C 5C", "KH")
    va, vb = Hand(CLASSIC, 0, deck_a).view(1), Hand(CLASSIC, 0, deck_b).view(1)
    assert va == vb  # the views of seat 1 cannot tell the two deals apart
    hidden = set(parse_cards("KS KD KC 5S 6S 7S 7H 9H 3C AD"))
    assert not hidden & set(va.hand) and not hidden & set(va.opponent_known)
    assert all(e.card is None for e in va.history if isinstance(e, CardDealt) and e.seat == 0)


def test_views_show_only_own_stock_draws():
    hand = Hand.deal(CLASSIC, dealer=0, seed=3)
    for a in (Pass(), Pass(), DrawStock()):
        hand.apply(a)
    drawn = [e for e in hand.view(0).history if isinstance(e, CardDrawn)]
    assert drawn[-1].card is None
    assert hand.view(1).history[-1].card == hand.hands[1][-1]


def test_view_tracks_cards_taken_from_the_pile():
    hand = Hand.deal(CLASSIC, dealer=0, seed=2)
    up = hand.upcard
    hand.apply(DrawDiscard())
    assert hand.view(0).opponent_known == (up,)
    keep = next(c for c in hand.hands[1] if c != up)
    hand.apply(Discard(keep))
    assert hand.view(0).opponent_known == (up,)
    assert set(parse_cards(str(up))) <= set(hand.view(1).hand)


@pytest.mark.parametrize(
    "deck",
    [list(range(51)), [*range(51), 51, 0], [-1, *range(51)], [*range(51), 60], ["AS"] * 52, None],
)
def test_bad_decks_are_refused(deck):
    with pytest.raises(ValueError):
        Hand(CLASSIC, 0, deck)


def test_hand_from_log_rebuilds_the_hand_and_names_a_bad_action():
    rng = random.Random(9)
    hand = Hand.deal(RuleSet(), dealer=1, seed="log", hand_number=3)
    for _ in range(25):
        if hand.over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    texts = [str(a) for a in hand.actions]
    again = Hand.from_log(hand.rules, 1, hand.deck, texts, hand_number=3)
    assert snapshot(again) == snapshot(hand) and again.events == hand.events
    assert again.hand_number == 3
    with pytest.raises(LogError) as caught:
        Hand.from_log(hand.rules, 1, hand.deck, [*texts[:4], "next hand", *texts[4:]])
    assert (caught.value.part, caught.value.step, caught.value.action) == ("action", 4, "next hand")
    with pytest.raises(LogError, match="cannot be set up") as caught:
        Hand.from_log(hand.rules, 2, hand.deck, texts)
    assert caught.value.part == "setup"
