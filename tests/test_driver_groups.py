"""The group games on the one game loop: computer seats play a whole three-player game and a
whole partnership game through ``GameDriver`` (one driver per partnership table)."""

from __future__ import annotations

import pytest
from test_engine_groups import cards_in

from gin3d.driver import GAME_OVER, ComputerSeat, GameDriver, PartnershipDriver, ScriptSeat
from gin3d.driver.team_table import TeamTable
from gin3d.driver.three_table import ThreePlayerTable
from gin3d.engine import NextHand, PartnershipGame, RuleSet, ThreePlayerGame
from gin3d.players import GreedyPlayer, computer_player


def noting_seat(number: int, asked: list, seen: list, playing) -> ScriptSeat:
    """A greedy computer seat that notes (player, the hand's players) whenever it is asked,
    and keeps the finished hands it is shown."""
    player = GreedyPlayer()

    def choose(view):
        asked.append((number, playing()))
        return player.choose(view)

    seat = ScriptSeat(choose, name=f"player {number}")
    seat.observe = seen.append
    return seat


def test_a_three_player_game_runs_on_the_driver_asking_only_the_hand_s_two_players():
    game = ThreePlayerGame(RuleSet(game_target=100), seed=3)
    asked, seen = [], []
    seats = [noting_seat(n, asked, seen, lambda: game.playing) for n in range(3)]
    driver = GameDriver(game, seats, deal_next=True)
    counted = []
    driver.on_applied.append(lambda action, events: counted.append(cards_in(game.hand)))
    assert driver.run() == GAME_OVER and game.over
    assert asked and all(player in playing for player, playing in asked)
    assert {player for player, _ in asked} == {0, 1, 2}  # everybody played some hands
    assert set(counted) == {52}  # every card accounted for after every move
    assert game.totals()[game.winner] == max(game.totals())
    assert len(seen) == 2 * len(game.hands)  # each hand shown to the two who played it


def test_a_partnership_game_runs_both_tables_to_125():
    game = PartnershipGame(seed=4)
    seats = [ComputerSeat(computer_player("simple", seed=n)) for n in range(4)]
    driver = PartnershipDriver(game, seats, deal_next=True)
    rounds = []
    for table in driver.tables:
        table.on_hand_finished.append(lambda g: rounds.append(len(game.results)))
    assert driver.run() == (GAME_OVER, GAME_OVER)
    assert max(game.running()) >= 125 and game.winner is not None
    assert all(cards_in(hand) == 52 for hand in game.tables)
    # every round finished both tables' hands, and scored once
    assert len(rounds) == 2 * len(game.results)
    assert len(driver.tables[0].game.hands) == len(game.results)


def test_the_driver_refuses_a_seat_list_that_does_not_fit_the_group():
    with pytest.raises(ValueError, match="3 seats, 2 were given"):
        GameDriver(ThreePlayerGame(seed=1), [ComputerSeat(GreedyPlayer())] * 2)


def test_a_three_player_table_shows_each_hand_from_the_local_player_s_chair():
    game = ThreePlayerGame(RuleSet(game_target=100), seed=3)
    table = ThreePlayerTable(game, me=0)
    driver = GameDriver(table, [ComputerSeat(GreedyPlayer()) for _ in range(3)], deal_next=True)
    chairs = []  # per move: (you sit out, your seat in the real hand or None)

    def check(action, events) -> None:
        hand, shown = game.hand, table.hand
        near, far = table.local
        seat = game.playing.index(near)  # the bottom player's seat in the real hand
        chairs.append((table.watching, game.playing.index(0) if 0 in game.playing else None))
        assert table.watching == (near != 0)
        assert shown.hands == [hand.hands[seat], hand.hands[1 - seat]]
        assert shown.pile == hand.pile and shown.phase == hand.phase
        assert table.events[len(table.events) - len(events) :] == events
        if hand.winner is not None:
            assert table.local[shown.winner] == game.playing[hand.winner]
        view = table.table_view()
        assert sorted(view.hand) == sorted(hand.hands[seat])
        assert view.scores == (game.running()[near], game.running()[far])

    driver.on_applied.append(check)
    assert driver.run() == GAME_OVER and table.over and table.winner == game.winner
    assert (False, 0) in chairs and (False, 1) in chairs  # you held either seat of a hand
    assert (True, None) in chairs  # and sat hands out


def test_your_partnership_table_is_your_hand_in_table_seats_with_the_team_scores():
    game = PartnershipGame(seed=4)
    table = TeamTable(game)
    seats = [ComputerSeat(computer_player("simple", seed=n)) for n in range(4)]
    mine, theirs = GameDriver(table, seats), GameDriver(table.partner, seats)
    for rounds in range(3):
        assert table.local == game.seats[0] and table.local[0] == 0  # you: hand seat 0
        assert table.partner.playing[0] == 2  # your partner too, at table 1
        for driver in (mine, theirs):
            driver.run()
        assert game.round_over
        view, theirs_view = table.table_view(), table.table_view(partner=True)
        assert view.scores == theirs_view.scores == tuple(game.running())
        assert view.target == game.rules.partnership_target
        assert sorted(view.hand) == sorted(game.tables[0].hands[0])
        assert sorted(theirs_view.hand) == sorted(game.tables[1].hands[0])
        if game.over:
            break
        partner_deck = list(game.tables[1].deck)
        events = table.apply(NextHand())  # the next round: only your new hand's deal
        assert events == list(game.tables[0].events) == table.events
        assert list(game.tables[1].deck) != partner_deck and len(game.results) == rounds + 1
