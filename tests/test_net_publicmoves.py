"""The public moves of a hand, as a table's other players are told them: every hand of
every rule set goes through as texts and back unchanged, the hand they build keeps the
real hand's stock, pile, hand sizes and turn, and a stream that cannot be a hand is refused
with nothing of it kept."""

from __future__ import annotations

import random

import pytest
from engine_helpers import rules_strategy_values

from gin3d.engine import Hand, Knock
from gin3d.engine.events import CardDealt, CardDrawn, Discarded, HandScored
from gin3d.net.protocol import ProtocolError
from gin3d.net.publicmoves import PublicHand, decode, encode, public_events, told_truly


def knocking_hand(rules, seed: int) -> Hand:
    """A hand played by random legal moves that knock (or go gin) whenever they may."""
    rng = random.Random(seed)
    hand = Hand.deal(rules, dealer=seed % 2, seed=seed)
    while not hand.over:
        legal = hand.legal_actions()
        knocks = [a for a in legal if isinstance(a, Knock)]
        hand.apply(rng.choice(knocks) if knocks and rng.random() < 0.7 else rng.choice(legal))
    return hand


@pytest.mark.parametrize("rules", rules_strategy_values())
def test_every_hand_goes_through_as_texts_and_builds_the_same_table(rules):
    for seed in range(12):
        hand = knocking_hand(rules, seed)
        # the real hand replayed move by move, beside the public one built from the texts
        replay = Hand(rules, hand.dealer, hand.deck, hand.hand_number)
        told = PublicHand()
        told.take([decode(encode(e)) for e in public_events(replay.events)])
        assert told.stock == len(replay.stock) and told.turn == replay.turn
        for action in hand.actions:
            events = replay.apply(action)
            texts = [encode(e) for e in public_events(events)]
            told.take([decode(t) for t in texts])
            assert told.stock == len(replay.stock), (seed, action)
            assert told.counts == [len(h) for h in replay.hands] or replay.knocker is not None
            assert told.pile == list(replay.pile), (seed, action)
            assert told.turn == replay.turn, (seed, action)
        assert told.over
        assert [encode(e) for e in told.events] == [encode(e) for e in public_events(hand.events)]
        if hand.result is not None:
            assert told.result == (hand.winner, hand.result.points)
        assert told_truly(told.events, hand.events)


def test_no_hidden_card_is_told():
    hand = knocking_hand(rules_strategy_values()[0], 3)
    for e in public_events(hand.events):
        if isinstance(e, CardDealt) or (isinstance(e, CardDrawn) and e.source == "stock"):
            assert e.card is None
            assert not any(str(c) in encode(e).split() for c in hand.deck), encode(e)


def _started(rules=None) -> tuple[Hand, PublicHand]:
    hand = knocking_hand(rules or rules_strategy_values()[0], 4)  # dealer 0
    told = PublicHand()
    told.take(public_events(hand.events)[:22])  # the deal and the upcard
    return hand, told


@pytest.mark.parametrize(
    "texts, why",
    [
        (["discard 0 AS"], "out of turn"),  # the non-dealer is to take or pass the upcard
        (["start 0 31"], "starts once"),
        (["draw 1 stock"], "cannot be drawn"),  # the upcard first
        (["draw 1 pile KH"], "not on top of the pile"),
        (["pass 1 upcard", "pass 0 upcard", "draw 1 stock", "discard 1 XX"], "not a card"),
        (["pass 1 upcard", "pass 0 upcard", "draw 1 stock", "draw 1 stock"], "not of ten"),
        (["drawn 31"], "not run down"),
        (["layoff 1 AS 0"], "no meld"),
        (["scored 0 0 25 gin"], "before both hands"),
        (["knock 0 knock AS 2S.3S.4S -"], "out of turn"),
        (["knock 1 knock AS 2S.3S.4S -"], "not of eleven"),
        (["hello"], "not a public move"),
        (["deal 0 3"], "out of order"),
    ],
)
def test_a_stream_that_cannot_be_a_hand_is_refused_and_nothing_is_kept(texts, why):
    hand, told = _started()
    assert told.turn == 1 - hand.dealer == 1  # the non-dealer is to move
    before = (list(told.events), told.stock, list(told.counts), told.turn, list(told.pile))
    with pytest.raises(ProtocolError, match=why):
        told.take([decode(t) for t in texts])
    assert (list(told.events), told.stock, list(told.counts), told.turn, list(told.pile)) == before


def test_a_card_on_the_pile_and_a_knock_of_cards_not_held_are_refused():
    hand, told = _started()
    upcard = told.pile[-1]
    told.take([decode("pass 1 upcard"), decode("pass 0 upcard"), decode("draw 1 stock")])
    with pytest.raises(ProtocolError, match="not in seat 1's hand"):
        told.take([decode(f"discard 1 {upcard}")])  # the upcard lies on the pile
    with pytest.raises(ProtocolError, match="not the cards it holds"):
        told.take([decode("knock 1 knock AS 2S.3S.4S 5S")])  # 4 cards laid, 10 held
    told.take([decode("discard 1 AS" if upcard != "AS" else "discard 1 2S")])
    assert told.turn == 0


def test_what_a_player_told_is_checked_against_the_hand_played():
    hand = knocking_hand(rules_strategy_values()[0], 7)
    real = public_events(hand.events)
    assert told_truly(real[:30], hand.events) and told_truly([], hand.events)
    i = next(i for i, e in enumerate(real) if isinstance(e, Discarded))
    forged = [*real[:i], Discarded(real[i].seat, next(c for c in hand.deck if c != real[i].card))]
    assert not told_truly(forged, hand.events)
    assert not any(isinstance(e, HandScored) for e in real[:30])
