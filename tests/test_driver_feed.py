"""The one driver over moves checked elsewhere (a network match's feed), without Panda3D: each
fed move is taken one pump at a time with the driver's hooks, notes act in their place after
the move before them was shown, a finished hand holds what follows until it is released."""

from __future__ import annotations

import pytest

from gin3d.driver import HAND_OVER, MOVED, WAITING, FedGame, FedSeat, GameDriver
from gin3d.engine import Game, NextHand, RuleSet, redact
from gin3d.players import GreedyPlayer
from gin3d.scene.control.perspective import waiting_view


def _played_hands(hands: int = 2, seed: str = "feed"):
    """A real game played by greedy players: per hand, the deal's and each move's (seat,
    action, events seen by seat 0, seat 0's view after it)."""
    game = Game(RuleSet().but(game_target=500), seed=seed)
    player = GreedyPlayer()
    out = []
    for n in range(hands):
        if n:
            game.apply(NextHand())
        deal = ([redact(e, 0) for e in game.hand.events], game.view(0))
        moves = []
        while not game.hand.over:
            seat = game.turn
            action = player.choose(game.view(seat))
            events = game.apply(action)
            moves.append((seat, action, [redact(e, 0) for e in events], game.view(0)))
        out.append((deal, moves))
    return out


def _table(feed: FedGame):
    driver = GameDriver(feed, [FedSeat(feed, 0, "You", local=True), FedSeat(feed, 1, "Them")])
    shown, finished = [], []
    driver.on_events.append(lambda action, events: shown.append((action, len(events))))
    driver.on_hand_finished.append(lambda game: finished.append(len(game.hands)))
    return driver, shown, finished


def _advance(feed: FedGame, driver: GameDriver) -> str:
    """What the table does when it is free: notes first, the table's own deal, else a pump."""
    feed.settle()
    if feed.deal_due:
        driver.apply(NextHand())
        return MOVED
    return driver.pump(0.0)


def test_fed_moves_are_taken_one_pump_at_a_time_with_the_hooks():
    ((deal, moves),) = _played_hands(1)
    feed = FedGame(waiting_view())
    driver, shown, finished = _table(feed)
    assert _advance(feed, driver) == WAITING  # nothing fed: nobody to move
    feed.deal(*deal)
    for seat, action, events, view in moves:
        feed.move(seat, action, events, view)
    feed.finish(lambda: False)
    steps = []
    while (status := _advance(feed, driver)) == MOVED:
        steps.append(status)
    assert status == HAND_OVER and len(steps) == len(moves) + 1  # the deal, then each move
    assert shown == [(NextHand(), len(deal[0]))] + [(a, len(e)) for _, a, e, _ in moves]
    assert feed.current == moves[-1][3] and feed.hand.over and finished == [1]
    assert _advance(feed, driver) == HAND_OVER and finished == [1]  # reported once


def test_a_finished_hand_holds_what_follows_until_released():
    first, second = _played_hands(2)
    feed = FedGame(waiting_view())
    driver, shown, finished = _table(feed)
    for (deal, moves), over in ((first, False), (second, True)):
        feed.deal(*deal)
        for seat, action, events, view in moves:
            feed.move(seat, action, events, view)
        feed.finish(lambda over=over: over)
    while _advance(feed, driver) == MOVED:
        pass
    assert finished == [1] and len(shown) == len(first[1]) + 1
    assert not feed.deal_due and feed.waiting  # the next deal waits behind the result
    feed.release()
    while (status := _advance(feed, driver)) == MOVED:
        pass
    assert status == "game" and finished == [1, 2] and feed.over
    assert len(shown) == len(first[1]) + len(second[1]) + 2


def test_a_note_acts_after_the_move_before_it_was_shown():
    ((deal, moves),) = _played_hands(1)
    feed = FedGame(waiting_view())
    driver, shown, _ = _table(feed)
    seen_then = []
    feed.deal(*deal)
    feed.move(*moves[0])
    feed.then(lambda: seen_then.append(len(shown)))
    feed.settle()
    assert seen_then == []  # fed, not reached
    _advance(feed, driver)
    assert seen_then == []  # the deal was shown; the move before the note is next
    _advance(feed, driver)
    assert shown[-1][0] == moves[0][1] and seen_then == []
    _advance(feed, driver)
    assert seen_then == [2]  # once the table was free again: after both were shown


def test_the_local_seat_is_asked_with_its_view_and_its_move_comes_back_fed():
    ((deal, moves),) = _played_hands(1)
    seat, action, events, view = next(m for m in moves if m[0] == 0)
    before = moves[: moves.index((seat, action, events, view))]
    asked_view = before[-1][3] if before else deal[1]
    feed = FedGame(waiting_view())
    driver, shown, _ = _table(feed)
    feed.deal(*deal)
    for m in before:
        feed.move(*m)
    feed.then(lambda: setattr(feed, "asked", asked_view))
    while _advance(feed, driver) == MOVED:
        pass
    assert feed.asked == asked_view and feed.view(0) == asked_view
    assert feed.turn == 0 and feed.legal_actions() == list(asked_view.legal)
    assert driver.pump(0.0) == WAITING  # the choice went to the network: not back yet
    feed.move(seat, action, events, view)
    assert feed.answer(1) is None and feed.answer(0) == action
    assert _advance(feed, driver) == MOVED and shown[-1][0] == action
    assert feed.asked is None and feed.current == view


def test_only_the_next_fed_move_applies():
    ((deal, moves),) = _played_hands(1)
    feed = FedGame(waiting_view())
    feed.deal(*deal)
    feed.settle()
    with pytest.raises(ValueError, match="not the next fed move"):
        feed.apply(moves[0][1])
    assert feed.deal_due and feed.actions == []  # nothing changed
    assert feed.apply(NextHand()) == deal[0] and feed.current == deal[1]


def test_a_note_that_frees_the_table_does_not_let_the_next_notes_run_inside_it():
    # a hand sat out is laid out at once in its finish note: that ends the table's
    # animations, whose end calls settle again; the notes after it (the next hand: our seat
    # asked) ran inside it, before the finish held, and the note then undid them
    feed = FedGame(waiting_view())
    ran: list[str] = []

    def lay_out() -> bool:
        ran.append("laid out")
        feed.settle()  # the table free again (the animations ended at once)
        ran.append("agreed")
        return False

    feed.finish(lay_out)
    feed.then(lambda: ran.append("next hand"))
    feed.settle()
    assert ran == ["laid out", "agreed"] and feed.holding
    feed.release()
    feed.settle()
    assert ran == ["laid out", "agreed", "next hand"]
