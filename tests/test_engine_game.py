"""Games and matches: dealer rotation, drawn hands, game over, replay from the action list."""

import random

import pytest

from gin3d.engine import (
    DealerChosen,
    Game,
    GameOver,
    HandDrawn,
    IllegalAction,
    LogError,
    Match,
    NextHand,
    RuleSet,
    cut_for_deal,
    next_dealer,
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


def _state(game):
    h = game.hand
    return (
        game.events,
        game.actions,
        game.totals(),
        game.dealer,
        [(x.dealer, x.deck, x.actions) for x in game.hands],
        (h.hands, h.stock, h.pile, h.phase, h.turn),
        game.legal_actions(),
    )


def _part_played(game, steps, seed=0):
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("steps", [0, 7, 60, 400])
def test_from_log_rebuilds_the_same_game(steps):
    game = _part_played(Game(RuleSet.preset("classic", game_target=60), seed=11), steps)
    assert game.dealer_cut and game.decks is None
    texts = [str(a) for a in game.actions]
    for log in (game.actions, texts):
        again = Game.from_log(game.rules, game.seed, game.first_dealer, None, log, dealer_cut=True)
        assert _state(again) == _state(game)


def test_from_log_with_explicit_decks_and_dealer():
    decks = [list(range(52)), list(range(51, -1, -1)), list(range(26, 52)) + list(range(26))]
    game = _part_played(Game(RuleSet(), "decks", first_dealer=1, decks=decks), 300, seed=4)
    decks[0].reverse()  # the game keeps its own copy
    assert game.decks[0] == tuple(range(52)) and not game.dealer_cut
    assert isinstance(game.decks, tuple) and all(isinstance(d, tuple) for d in game.decks)
    again = Game.from_log(game.rules, game.seed, 1, game.decks, game.actions)
    assert _state(again) == _state(game) and again.decks == game.decks
    assert game.replay().decks == game.decks


def test_from_log_refuses_a_bad_log_and_changes_nothing():
    game = _part_played(Game(seed=3), 5)
    good = [str(a) for a in game.actions]
    decks = [list(range(52))]
    with pytest.raises(LogError) as caught:
        Game.from_log(game.rules, game.seed, game.first_dealer, None, [*good, "fly away"])
    assert caught.value.part == "action" and caught.value.step == len(good)
    assert f"action {len(good) + 1} (fly away) does not replay" in str(caught.value)
    bad = [*good[:2], "next hand", *good[2:]]
    with pytest.raises(LogError, match="action 3 .* does not replay") as caught:
        Game.from_log(game.rules, game.seed, game.first_dealer, None, bad, dealer_cut=True)
    assert caught.value.step == 2 and isinstance(caught.value.action, str)
    with pytest.raises(LogError, match="does not match the cut") as caught:
        Game.from_log(game.rules, game.seed, 1 - game.first_dealer, None, [], dealer_cut=True)
    assert caught.value.part == "dealer"
    with pytest.raises(LogError, match="cannot be set up") as caught:
        Game.from_log(RuleSet(), 0, 0, [[1, 2, 3]], good)
    assert caught.value.part == "setup"
    assert [str(a) for a in game.actions] == good and game.decks is None
    Game.from_log(RuleSet(), 0, 0, decks, [])
    assert decks == [list(range(52))]


def test_add_deck_deals_the_next_hand_from_it():
    first, second = list(range(52)), list(range(51, -1, -1))
    game = Game(RuleSet(), "net", first_dealer=0, decks=[first])
    with pytest.raises(ValueError):
        Game(seed=1).add_deck(second)  # a game shuffled from its seed takes no decks
    game.add_deck(second)
    with pytest.raises(ValueError):
        game.add_deck(first)  # one deck for the next hand, not two
    rng = random.Random(5)
    while not game.hand.over:
        game.apply(rng.choice(game.legal_actions()))
    game.apply(NextHand())
    assert [int(c) for c in game.hand.deck] == second and game.decks == (
        tuple(first),
        tuple(second),
    )


@pytest.mark.parametrize("rule", ["winner", "loser", "alternate"])
def test_next_dealer_rule(rule):
    rules = RuleSet.preset("classic", next_dealer=rule)
    assert next_dealer(rules, 1, None) == 1  # a drawn hand: the dealer deals again
    expected = {"winner": 0, "loser": 1, "alternate": 0}[rule]
    assert next_dealer(rules, 1, 0) == expected
