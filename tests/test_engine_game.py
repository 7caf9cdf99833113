"""Games and matches: dealer rotation, drawn hands, game over, replay from the action list."""

import random

import pytest

from gin3d.engine import (
    DealerChosen,
    Game,
    GameOver,
    HandDrawn,
    IllegalAction,
    Match,
    NextHand,
    RuleSet,
    cut_for_deal,
)


def play(game, seed=0, limit=200_000):
    rng = random.Random(seed)
    for _ in range(limit):
        if game.over:
            return game
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("game did not end")


def test_first_dealer_by_cut_is_the_higher_card():
    for seed in range(40):
        dealer, (a, b) = cut_for_deal(seed)
        stronger = a if (a.rank, -a.suit) > (b.rank, -b.suit) else b
        assert (a, b)[dealer] == stronger
    game = Game(seed=5)
    assert isinstance(game.events[0], DealerChosen) and game.hand.dealer == game.events[0].dealer


@pytest.mark.parametrize("rule", ["winner", "loser", "alternate"])
def test_dealer_rotation(rule):
    game = Game(RuleSet.preset("classic", next_dealer=rule), seed=3, first_dealer=0)
    rng = random.Random(2)
    checked = 0
    while not game.over and checked < 12:
        hand = game.hand
        while not hand.over:
            game.apply(rng.choice(game.legal_actions()))
        if game.over:
            break
        game.apply(NextHand())
        if hand.winner is None:
            expected = hand.dealer
        elif rule == "winner":
            expected = hand.winner
        elif rule == "loser":
            expected = 1 - hand.winner
        else:
            expected = 1 - hand.dealer
        assert game.hand.dealer == expected
        checked += 1
    assert checked


def test_drawn_hand_redeals_with_the_same_dealer():
    game = Game(seed=1, first_dealer=1)
    rng = random.Random(0)
    while not game.hand.over:
        legal = [a for a in game.legal_actions() if type(a).__name__ not in ("Knock", "BigGin")]
        game.apply(rng.choice(legal))
    assert isinstance(game.events[-1], HandDrawn)
    game.apply(NextHand())
    assert game.hand.dealer == 1 and game.hand.hand_number == 1


def test_whole_game_ends_with_game_over_and_replays():
    game = play(Game(RuleSet.preset("pagat"), seed=21))
    assert isinstance(game.events[-1], GameOver)
    assert game.events[-1].totals == tuple(game.totals())
    assert max(game.score.running()) >= 100 and game.winner == game.events[-1].winner
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(NextHand())
    again = game.replay()
    assert again.totals() == game.totals() and len(again.hands) == len(game.hands)
    assert [h.actions for h in again.hands] == [h.actions for h in game.hands]


def test_next_hand_only_between_hands():
    game = Game(seed=2)
    with pytest.raises(IllegalAction):
        game.apply(NextHand())


def test_hollywood_game_plays_to_three_closed_games():
    game = play(Game(RuleSet.preset("classic", hollywood=True, game_target=60), seed=8))
    assert all(g.over for g in game.score.games)


def test_match_plays_games_to_500():
    match = Match(RuleSet.preset("classic", game_target=50, match_target=120), seed=4)
    rng = random.Random(3)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    assert max(match.totals()) >= 120 and match.winner in (0, 1)
    assert all(g.over for g in match.finished)
