"""Three players, and four in two teams (seed 001, "Other ways to play"), over two-player hands:
the seed's words as checks, and random legal games that keep every card and every point."""

from __future__ import annotations

import random

import pytest

from gin3d.engine import (
    IllegalAction,
    LogError,
    NextHand,
    PartnershipGame,
    RuleSet,
    ThreePlayerGame,
)
from gin3d.engine.groups import (
    pairings,
    round_score,
    team_of,
    three_player_next_dealer,
    three_player_seats,
)


def cards_in(hand) -> int:
    """Every card of a hand, wherever it lies (both hands, stock, pile, the table), each
    counted once: a knocker's melds lie on the table and stay in their hand's list."""
    places = [*hand.hands, hand.stock, hand.pile, *hand.table_melds]
    found = {c for place in places for c in place}
    if not hand.table_melds:  # before a knock no card may be in two places
        assert sum(len(place) for place in places) == len(found)
    return len(found)


def play_three(seed: int, rules: RuleSet | None = None) -> ThreePlayerGame:
    game = ThreePlayerGame(rules, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        before = game.dealer, game.playing
        game.apply(rng.choice(game.legal_actions()))
        if game.hand.over and not game.over:
            winner = game.results[-1][0]
            game.apply(NextHand())
            dealer, playing = before
            # the dealer sat the hand out; the loser deals next, the winner stays in and
            # meets the player who just dealt; a drawn hand is dealt again by the same dealer
            assert dealer not in playing
            if winner is None:
                assert game.dealer == dealer
            else:
                assert game.dealer == next(p for p in playing if p != winner)
                assert set(game.playing) == {winner, dealer}
        assert cards_in(game.hand) == 52
    return game


def test_three_players_the_dealer_deals_to_the_other_two_and_sits_out():
    assert three_player_seats(0) == (1, 2)
    assert three_player_seats(2) == (0, 1)
    game = ThreePlayerGame(seed=5, first_dealer=1)
    assert game.sitting_out == 1 and game.playing == (2, 0)
    assert game.hand.dealer == 1  # hand seat 1 (player 0) takes the dealer's part
    assert game.turn == 2  # the player after the dealer acts first
    with pytest.raises(ValueError, match="sits out"):
        game.view(1)
    assert len(game.view(2).hand) == 10


def test_three_players_the_loser_deals_next_so_the_winner_stays_in():
    assert three_player_next_dealer(0, (1, 2), winner=1) == 2
    assert three_player_next_dealer(0, (1, 2), winner=2) == 1
    assert three_player_next_dealer(0, (1, 2), winner=None) == 0
    with pytest.raises(ValueError, match="did not play"):
        three_player_next_dealer(0, (1, 2), winner=0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_three_player_games_keep_every_card_and_every_point(seed):
    game = play_three(seed)
    run = game.running()
    assert max(run) >= 100 and game.winner == run.index(max(run))
    boxes = [sum(1 for p, _ in game.results if p == player) for player in range(3)]
    expected = [run[p] + 25 * boxes[p] + (100 if p == game.winner else 0) for p in range(3)]
    assert game.totals() == expected
    assert sum(p for _, p in game.results) == sum(run)
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(NextHand())


def test_three_player_boxes_are_an_option():
    on = play_three(4)
    off = play_three(4, RuleSet(three_player_boxes=False))
    assert off.running() == on.running()
    assert off.totals()[off.winner] == off.running()[off.winner] + 100
    assert sum(on.totals()) > sum(off.totals())


def test_partners_take_turns_facing_each_opponent():
    assert pairings(0) == ((0, 1), (2, 3))
    assert pairings(1) == ((0, 3), (2, 1))
    faced = {p: set() for p in range(4)}
    for r in range(2):
        for a, b in pairings(r):
            assert team_of(a) != team_of(b)  # always against the other team
            faced[a].add(b)
            faced[b].add(a)
    assert faced == {0: {1, 3}, 2: {1, 3}, 1: {0, 2}, 3: {0, 2}}


def test_a_round_scores_both_results_added_or_the_difference():
    # both partners win: the team scores both results added together
    assert round_score([(0, 14), (0, 30)]) == (0, 44)
    # each team wins one: the team with more points scores the difference
    assert round_score([(0, 14), (1, 30)]) == (1, 16)
    assert round_score([(1, 9), (0, 21)]) == (0, 12)
    assert round_score([(0, 20), (1, 20)]) == (None, 0)
    assert round_score([(None, 0), (1, 7)]) == (1, 7)
    assert round_score([(None, 0), (None, 0)]) == (None, 0)
    with pytest.raises(ValueError):
        round_score([(2, 5), (0, 1)])


def play_four(seed: int, rules: RuleSet | None = None) -> PartnershipGame:
    game = PartnershipGame(rules, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        if game.round_over:
            game.apply(None, NextHand())
            continue
        open_tables = [t for t in (0, 1) if not game.tables[t].over]
        table = rng.choice(open_tables)
        game.apply(table, rng.choice(game.legal_actions(table)))
        assert all(cards_in(hand) == 52 for hand in game.tables)
    return game


@pytest.mark.parametrize("seed", [1, 2])
def test_partnership_games_go_to_125_with_consistent_scores(seed):
    game = play_four(seed)
    run = game.running()
    assert max(run) >= 125 and run[game.winner] == max(run)
    assert run == [sum(p for t, p in game.results if t == team) for team in (0, 1)]
    assert game.totals() == run  # no bonuses unless the options are on
    with pytest.raises(IllegalAction):
        game.apply(None, NextHand())


def test_partnership_bonuses_are_options():
    rules = RuleSet(partnership_game_bonus=True, partnership_box_bonus=True)
    game = play_four(3, rules)
    run = game.running()
    boxes = [sum(1 for t, _ in game.results if t == team) for team in (0, 1)]
    bonus = [100 if team == game.winner else 0 for team in (0, 1)]
    assert game.totals() == [run[t] + 25 * boxes[t] + bonus[t] for t in (0, 1)]


def test_a_partnership_move_out_of_place_changes_nothing():
    game = PartnershipGame(seed=9)
    before = [list(h.actions) for h in game.tables]
    with pytest.raises(IllegalAction):
        game.apply(None, NextHand())  # the round has only begun
    with pytest.raises(IllegalAction):
        game.apply(2, game.legal_actions(0)[0])  # no third table
    assert [list(h.actions) for h in game.tables] == before and game.actions == []
    # each player sees only their own hand of the round
    for player in range(4):
        table = next(t for t, seats in enumerate(game.seats) if player in seats)
        seat = game.seats[table].index(player)
        assert game.view(player).hand == game.tables[table].view(seat).hand


def test_the_partnership_target_is_checked():
    with pytest.raises(ValueError, match="partnership_target"):
        RuleSet(partnership_target=0)


def replayed(game: ThreePlayerGame, upto: int) -> ThreePlayerGame:
    """The game's first ``upto`` actions applied one by one to a new game of its seed."""
    again = ThreePlayerGame(game.rules, seed=game.seed)
    for action in game.actions[:upto]:
        again.apply(action)
    return again


@pytest.mark.parametrize("seed", [3, 11])
def test_a_three_player_game_rebuilds_from_its_log(seed):
    """The save and resume rest on this: the rules, the seed, the first dealer and the
    actions give the very same game, mid-hand and at the end."""
    whole = play_three(seed)
    cut = len(whole.actions) // 2
    for upto in (cut, len(whole.actions)):
        game = ThreePlayerGame.from_log(
            whole.rules,
            seed,
            [str(a) for a in whole.actions[:upto]],
            first_dealer=whole.first_dealer,
            dealer_cut=True,
        )
        assert [str(a) for a in game.actions] == [str(a) for a in whole.actions[:upto]]
        assert game.dealer_cut and game.first_dealer == whole.first_dealer
        again = whole if upto == len(whole.actions) else replayed(whole, upto)
        assert (again.dealer, again.playing, again.hand.turn) == (
            game.dealer,
            game.playing,
            game.hand.turn,
        )
        assert again.hand.hands == game.hand.hands and again.running() == game.running()
    assert game.totals() == whole.totals() and game.over


def test_a_three_player_log_that_does_not_fit_is_refused():
    whole = play_three(5)
    actions = [str(a) for a in whole.actions[:6]]
    other = (whole.first_dealer + 1) % 3
    with pytest.raises(LogError) as err:
        ThreePlayerGame.from_log(whole.rules, 5, actions, first_dealer=other, dealer_cut=True)
    assert err.value.part == "dealer"
    with pytest.raises(LogError) as err:
        ThreePlayerGame.from_log(
            whole.rules, 5, [*actions, "next hand"], first_dealer=whole.first_dealer
        )
    assert err.value.part == "action" and err.value.step == 6
    with pytest.raises(LogError) as err:
        ThreePlayerGame.from_log(whole.rules, 5, actions, first_dealer=3)
    assert err.value.part == "setup"


@pytest.mark.parametrize("seed", [4, 12])
def test_a_partnership_game_rebuilds_from_its_log(seed):
    """Its save rests on this: the rules, the seed, the first dealing team and the log (each
    move with its table) give the very same game, mid-round and at the end."""
    whole = play_four(seed)
    log = whole.log()
    assert log.count("next hand") == len(whole.results) - 1
    assert {entry.split(" ")[0] for entry in log if entry != "next hand"} == {"0", "1"}
    for upto in (len(log) // 3, len(log) // 3 + 1, len(log)):
        game = PartnershipGame.from_log(
            whole.rules, seed, log[:upto], first_dealer=whole.first_dealer, dealer_cut=True
        )
        assert game.log() == log[:upto] and game.dealer_cut
        again = PartnershipGame(whole.rules, seed=seed)
        for table, action in whole.actions[:upto]:
            again.apply(table, action)
        assert [h.hands for h in game.tables] == [h.hands for h in again.tables]
        assert [h.pile for h in game.tables] == [h.pile for h in again.tables]
        assert game.results == again.results and game.seats == again.seats
    assert game.over and game.totals() == whole.totals()


def test_a_partnership_log_that_does_not_fit_is_refused():
    whole = play_four(5)
    log = whole.log()[:6]
    other = 1 - whole.first_dealer
    with pytest.raises(LogError) as err:
        PartnershipGame.from_log(whole.rules, 5, log, first_dealer=other, dealer_cut=True)
    assert err.value.part == "dealer"
    for bad in ("next hand", "2 draw stock", "draw stock", "0 fly away", ""):
        with pytest.raises(LogError) as err:
            PartnershipGame.from_log(
                whole.rules, 5, [*log, bad], first_dealer=whole.first_dealer, dealer_cut=True
            )
        assert err.value.part == "action" and err.value.step == 6, bad
    with pytest.raises(LogError) as err:
        PartnershipGame.from_log(whole.rules, 5, log, first_dealer=2)
    assert err.value.part == "setup"


def _random_moves(rng, hand, apply) -> None:
    """Random legal moves, made with ``apply`` (the game's), until ``hand`` is over."""
    while not hand.over:
        apply(rng.choice(hand.legal_actions()))


@pytest.mark.parametrize("seed", range(3))
def test_explicit_decks_replay_a_three_player_game_hand_by_hand(seed):
    """A network table knows each hand's deck only once it is played (``add_deck`` before
    ``NextHand``) and who plays next before that deck exists (``next_dealer``)."""
    rng = random.Random(seed)
    played = ThreePlayerGame(seed=seed)
    copy = None
    while True:
        _random_moves(rng, played.hand, played.apply)
        deck = [int(c) for c in played.hand.deck]
        if copy is None:
            copy = ThreePlayerGame(seed="other", first_dealer=played.first_dealer, decks=[deck])
        else:
            assert copy.next_dealer == played.dealer  # the players known before the deck
            copy.add_deck(deck)
            with pytest.raises(ValueError):
                copy.add_deck(deck)  # one deck ahead at most: nothing changes
            copy.apply(NextHand())
        for action in played.hand.actions:
            copy.apply(action)
        assert copy.playing == played.playing and copy.totals() == played.totals()
        if played.over:
            break
        played.apply(NextHand())
    assert copy.over and copy.decks is not None and len(copy.decks) == len(played.hands)
    with pytest.raises(ValueError):
        ThreePlayerGame(seed=1).add_deck(deck)  # a game shuffled from its seed takes none


def test_explicit_decks_deal_a_partnership_round_two_at_a_time():
    rng = random.Random(5)
    played = PartnershipGame(seed=5)
    decks = [[int(c) for c in h.deck] for h in played.tables]
    copy = PartnershipGame(seed="x", first_dealer_team=played.first_dealer_team, decks=decks)
    for t in (0, 1):
        _random_moves(rng, played.tables[t], lambda a, t=t: played.apply(t, a))
        for action in played.tables[t].actions:
            copy.apply(t, action)
    assert copy.round_over and copy.totals() == played.totals()
    played.apply(None, NextHand())
    for h in played.tables:
        copy.add_deck([int(c) for c in h.deck])
    with pytest.raises(ValueError):
        copy.add_deck(decks[0])
    copy.apply(None, NextHand())
    assert [h.deck for h in copy.tables] == [h.deck for h in played.tables]
    assert [h.hands for h in copy.tables] == [h.hands for h in played.tables]


@pytest.mark.parametrize("seed", [3, 8])
def test_group_games_keep_a_sheet_a_column_per_player_or_team(seed):
    """A game of three: a line per hand, a column per player, the one who sat the hand out
    marked by who played; a partnership game: a line per round, a column per team. Totals
    and boxes agree with the game's, the final lines with its totals."""
    from gin3d.engine.sheet import score_sheet

    for game in (play_three(seed), play_four(seed)):
        sheet = score_sheet(game)
        assert sheet.columns == game.sides and len(sheet.lines) == len(game.results)
        assert list(sheet.lines[-1].totals) == game.running()
        assert list(sheet.boxes) == game.boxes() and sheet.target == game.target
        assert [r["total"] for r in sheet.final] == game.totals()
        for line, (side, points) in zip(sheet.lines, game.results):
            assert (line.winner, line.points) == (side, points)
            if isinstance(game, ThreePlayerGame):
                assert line.played == game.seats[line.hand - 1] and line.kind != "round"
            else:
                assert line.played == () and line.kind == ("drawn" if side is None else "round")
