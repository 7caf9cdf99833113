"""Undo: replay the action list without the human's last action and what followed it."""

from __future__ import annotations

import pytest
from ship_autoplay import next_action, play, state

from gin3d.engine import Game, RuleSet
from gin3d.undo import actors, can_undo, undo_last_human_move

HUMAN = 0


def play_until_human_acted(game: Game, times: int) -> list[Game]:
    """Play on; return the game as it was just before each of the human's next actions."""
    befores = []
    while len(befores) < times:
        if game.hand.turn == HUMAN:
            befores.append(game.replay())
        game.apply(next_action(game))
    return befores


def test_undo_returns_to_just_before_the_human_move():
    game = Game(RuleSet(), "undo")
    befores = play_until_human_acted(game, 4)
    # the computer answers before the human can press undo
    while game.hand.turn != HUMAN:
        game.apply(next_action(game))
    undone = undo_last_human_move(game, HUMAN)
    assert state(undone) == state(befores[-1])
    assert undone.hand.turn == HUMAN
    again = undo_last_human_move(undone, HUMAN)
    assert state(again) == state(befores[-2])
    assert len(game.actions) > len(undone.actions)  # the original is unchanged


def test_undo_is_off_unless_enabled():
    game = Game(RuleSet(), "off")
    play_until_human_acted(game, 1)
    assert not can_undo(game, HUMAN, enabled=False)
    with pytest.raises(ValueError, match="turned off"):
        undo_last_human_move(game, HUMAN, enabled=False)


def test_nothing_to_undo_at_the_start_or_after_the_hand():
    game = Game(RuleSet(), "start")
    assert not can_undo(game, HUMAN, enabled=True)
    with pytest.raises(ValueError, match="no move"):
        undo_last_human_move(game, HUMAN)
    while not game.hand.over:
        game.apply(next_action(game))
    assert not can_undo(game, HUMAN, enabled=True)  # a finished hand is never undone
    game.apply(game.legal_actions()[0])  # next hand: the earlier hand's moves stay
    if game.hand.turn != HUMAN:
        assert not can_undo(game, HUMAN, enabled=True)


def test_actors_name_the_seat_of_every_action():
    game = play(Game(RuleSet(), "who"), 60)
    seats = actors(game)
    assert len(seats) == 60
    copy = Game(RuleSet(), "who")
    for action, seat in zip(game.actions, seats):
        assert seat == (None if copy.hand.over else copy.hand.turn)
        copy.apply(action)
