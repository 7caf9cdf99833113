"""Cards: the integer form, the text form and clear errors."""

import numpy as np
import pytest

from gin3d.engine import CARDS, card, cards_of, format_cards, mask_of, parse_cards, parse_hand


def test_text_round_trip_for_every_card():
    text = " ".join(str(c) for c in CARDS)
    assert parse_cards(text) == list(CARDS)
    assert format_cards(parse_cards(text)) == text


def test_card_fields():
    seven_hearts = card("7H")
    assert str(seven_hearts) == "7H" and seven_hearts.rank == 6 and seven_hearts.suit == 1
    assert seven_hearts.value == 7 and card("KC").value == 10 and card("AS").value == 1
    assert card("TD").pretty == "10\u2666" and card("QS").name == "queen of spades"
    assert card("10h") == card("TH") == card(" th ")


def test_cards_index_numpy_arrays():
    counts = np.zeros(52, dtype=int)
    counts[parse_cards("AS 7H TD KC")] += 1
    assert counts.sum() == 4 and counts[card("KC")] == 1


def test_masks_round_trip():
    hand = parse_cards("AS 7H TD KC 2C")
    assert cards_of(mask_of(hand)) == sorted(hand)


@pytest.mark.parametrize("text, token", [("AS 1X", "1X"), ("ZZ", "ZZ"), ("AS 7", "7"), ("A", "A")])
def test_malformed_card_names_the_token(text, token):
    with pytest.raises(ValueError, match=repr(token)):
        parse_cards(text)


def test_repeated_card_in_a_hand_is_refused():
    with pytest.raises(ValueError, match="'AS' appears twice"):
        parse_hand("AS 2S AS")


def test_hand_size_is_checked():
    twelve = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    with pytest.raises(ValueError, match="at most 10"):
        parse_hand(twelve, size=10)
    with pytest.raises(ValueError, match="has 10 cards, got 3"):
        parse_hand("AS 2S 3S", size=10)


@pytest.mark.parametrize("bad", [52, -1, True, 3.0, None])
def test_bad_indices_are_refused(bad):
    with pytest.raises(ValueError):
        card(bad)
