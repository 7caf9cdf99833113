"""A computer player never takes the pile's card into the same ten cards twice in a hand.

Two levels that each prefer the card the other throws can otherwise pass the same few cards
round for ever: in the arena's game 202 of seed 15 (expert against its first-chance mirror)
both sides held two fours and took the third from the pile to throw another, without end.
"""

from __future__ import annotations

import dataclasses

from gin3d import arena
from gin3d.ai import make_player
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import DrawDiscard, DrawStock, Game, NextHand, RuleSet

LONGEST_HAND = 150  # plies; a hand without a cycle ends long before (31 stock cards)


def test_the_arena_game_that_passed_three_fours_round_ends():
    seed = "arena:15:101"
    players = [
        make_arena_player(name, seed=f"{seed}:{s}")
        for s, name in enumerate(("expert", "mirror:expert"))
    ]
    game = Game(RuleSet.preset("classic"), seed=seed)
    plies = 0
    while not game.over:
        if game.hand.over:
            game.apply(NextHand())
            plies = 0
            continue
        view = game.view(game.turn)
        game.apply(players[view.seat].choose(view))
        plies += 1
        assert plies <= LONGEST_HAND, f"hand {view.hand_number} still going after {plies} plies"
        if game.hand.over:
            arena.show_end(game, players)
    assert game.winner in (0, 1)


def first_take(level: str):
    """A draw-phase view in which ``level`` takes the pile's card (seeded games against
    simple), with the player that took it."""
    for g in range(20):
        game = Game(RuleSet.preset("classic"), seed=f"take:{g}")
        me, other = make_player(level, seed=g), make_player("simple", seed=g)
        while not game.over and game.hand.hand_number < 3:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            player = me if view.seat == 0 else other
            action = player.choose(view)
            if view.seat == 0 and view.phase == "draw" and type(action) is DrawDiscard:
                return view, me
            game.apply(action)
    raise AssertionError(f"{level} never took the pile's card")


def test_a_take_repeated_in_the_same_spot_draws_from_the_stock():
    for level in ("simple", "hard", "expert"):
        view, player = first_take(level)
        # the same ten cards and the same pile card again in this hand: the stock instead
        assert type(player.choose(view)) is DrawStock, level
        # the same spot in another hand is a new spot
        later = dataclasses.replace(view, hand_number=view.hand_number + 1)
        assert type(player.take_once(later)) is DrawDiscard, level
        assert type(player.take_once(later)) is DrawStock, level
