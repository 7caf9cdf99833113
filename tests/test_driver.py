"""The one game loop without a window: seats answer now or later, the driver checks and
applies their moves and fires each hook once per move and once per hand."""

from __future__ import annotations

import pytest

from gin3d.driver import (
    GAME_OVER,
    HAND_OVER,
    MOVED,
    THINKING,
    WAITING,
    ComputerSeat,
    GameDriver,
    IllegalAnswer,
    LocalSeat,
    ReplayLog,
    ScriptSeat,
    seat_for,
)
from gin3d.engine import Game, NextHand, Pass, RuleSet
from gin3d.players import GreedyPlayer, computer_player

RULES = RuleSet.preset("classic", game_target=60)


def played_directly(seed: str, players) -> Game:
    """The engine alone, the way the arena plays: each seat's choice, NextHand between."""
    game = Game(RULES, seed)
    while not game.over:
        if game.hand.over:
            game.apply(NextHand())
        else:
            game.apply(players[game.turn].choose(game.view(game.turn)))
    return game


@pytest.mark.parametrize("seed", ["d1", "d2"])
def test_two_computer_seats_play_the_same_game_as_the_engine_alone(seed):
    direct = played_directly(seed, [GreedyPlayer(), computer_player("simple", seed=3)])
    game = Game(RULES, seed)
    seats = [ComputerSeat(GreedyPlayer()), ComputerSeat(computer_player("simple", seed=3))]
    assert GameDriver(game, seats, deal_next=True).run() == GAME_OVER
    assert game.actions == direct.actions
    assert game.totals() == direct.totals() and game.winner == direct.winner
    assert len(game.hands) > 1  # the driver dealt the hands after the first itself


def test_hooks_fire_once_per_move_and_once_per_hand():
    game = Game(RULES, "hooks")
    driver = GameDriver(game, [ComputerSeat(GreedyPlayer()), ComputerSeat(GreedyPlayer())])
    dealt = len(game.events)  # the cut and the first deal, made before the driver runs
    moves, saved, hands = [], [], []
    driver.on_events.append(lambda a, ev: moves.append((a, len(ev))))
    driver.on_applied.append(lambda a, ev: saved.append(a))
    driver.on_hand_finished.append(lambda g: hands.append(len(g.hands)))
    assert driver.run() == HAND_OVER  # without deal_next the table deals: it waits
    assert driver.run() == HAND_OVER and hands == [1]  # asked again: reported once only
    while driver.next_hand():
        driver.run()
    assert game.over and not driver.next_hand()
    assert [a for a, _ in moves] == saved == game.actions
    assert sum(n for _, n in moves) == len(game.events) - dealt
    assert hands == list(range(1, len(game.hands) + 1))


def test_a_seat_that_answers_later_is_asked_once_and_waited_for():
    game = Game(RULES, "later", first_dealer=1)  # seat 0 plays first
    human = LocalSeat()
    driver = GameDriver(game, [human, ComputerSeat(GreedyPlayer())])
    asked = []
    driver.on_asked.append(asked.append)
    assert [driver.pump(t) for t in (0.0, 1.0, 2.0)] == [WAITING] * 3
    assert asked == [0] and game.actions == []
    move = Pass()  # the upcard: the other seat may take it next
    assert move in game.legal_actions()
    human.give(move)
    assert driver.pump(3.0) == MOVED and game.actions == [move]
    assert driver.pump(3.0) == MOVED and len(game.actions) == 2  # the computer, no pause


def test_the_thinking_pause_is_the_seats_scaled_by_the_pace():
    game = Game(RULES, "pause", first_dealer=0)  # seat 1 plays first
    driver = GameDriver(
        game, [LocalSeat(), ComputerSeat(GreedyPlayer(), think=(2.0, 2.0))], pace=lambda s: s / 2
    )
    assert driver.pump(10.0) == THINKING and driver.thinking(10.5)
    assert driver.pump(10.9) == THINKING and game.actions == []
    assert driver.pump(11.0) == MOVED and len(game.actions) == 1
    assert not driver.thinking(11.0)


def test_an_illegal_answer_is_refused_and_changes_nothing():
    game = Game(RULES, "illegal", first_dealer=1)
    wrong = NextHand()
    driver = GameDriver(game, [ScriptSeat(lambda view: wrong, "Bad"), LocalSeat()])
    fired = []
    driver.on_events.append(lambda a, ev: fired.append(a))
    driver.on_applied.append(lambda a, ev: fired.append(a))
    events = list(game.events)
    with pytest.raises(IllegalAnswer, match=r"seat 0 \(Bad\) answered next hand"):
        driver.pump(0.0)
    assert game.actions == [] and game.events == events and fired == []
    with pytest.raises(IllegalAnswer, match="seat 1"):  # not its turn
        driver.apply(game.legal_actions()[0], seat=1)
    assert game.actions == [] and fired == []


def test_a_replay_log_plays_the_recorded_game_again():
    direct = played_directly("replay", [GreedyPlayer(), GreedyPlayer()])
    log = ReplayLog(direct.actions)
    game = Game(RULES, "replay")
    assert GameDriver(game, log.seats(2), deal_next=True).run() == GAME_OVER
    assert log.at_end and game.events == direct.events


def test_a_log_that_runs_out_waits():
    direct = played_directly("short", [GreedyPlayer(), GreedyPlayer()])
    log = ReplayLog(direct.actions[:5])
    game = Game(RULES, "short")
    assert GameDriver(game, log.seats(2)).run() == WAITING
    assert game.actions == direct.actions[:5]


def test_seats_match_the_game_and_bad_seats_are_named():
    game = Game(RULES, "count")
    with pytest.raises(ValueError, match="2 seats, 3 were given"):
        GameDriver(game, [LocalSeat(), LocalSeat(), LocalSeat()])
    with pytest.raises(ValueError, match="thinking pause"):
        ComputerSeat(GreedyPlayer(), think=(2.0, 1.0))
    with pytest.raises(TypeError, match="a seat is None"):
        seat_for("robot", (0.0, 0.0), None)
    human = LocalSeat()
    assert seat_for(human, (0.0, 0.0), None) is human
    assert isinstance(seat_for(None, (0.0, 0.0), None), LocalSeat)


def test_one_recorded_hand_replays_through_the_driver_step_by_step():
    from gin3d.driver import OneHand
    from gin3d.history import HandRecord, Replay

    game = played_directly("onehand", [GreedyPlayer(), GreedyPlayer()])
    record = HandRecord.of(game.hands[1])
    replay = Replay(record)
    assert replay.length > 6
    for step in (0, 3, replay.length // 2, replay.length):
        hand = record.replay_hand()
        log = ReplayLog(record.parsed_actions()[:step])
        status = GameDriver(OneHand(hand), log.seats(2)).run()
        replay.seek(step)
        assert hand.events == replay.hand.events
        assert status == (GAME_OVER if step == replay.length else WAITING)
        assert hand.over == (step == replay.length)


def test_a_computer_that_learns_sees_each_finished_hand_once():
    """The expert's opponent model learns from how each hand ended (as in the arena); the
    table's seats show it every finished hand, in that seat's own view, once."""

    class Learner(GreedyPlayer):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list = []

        def observe(self, view) -> None:
            self.seen.append(view)

    learner = Learner()
    game = Game(RULES, "learn")
    driver = GameDriver(game, [ComputerSeat(learner), ComputerSeat(GreedyPlayer())])
    driver.deal_next = True
    assert driver.run() == GAME_OVER
    assert len(learner.seen) == len(game.hands)
    assert all(v.phase == "over" for v in learner.seen)
    assert all(v.seat == 0 for v in learner.seen)
