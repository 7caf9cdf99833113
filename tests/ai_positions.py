"""Shared driver for the AI tests: games where a level plays some seats' moves."""

from __future__ import annotations

import random

from gin3d.engine import Game, Knock, NextHand, RuleSet

VARIANTS = {
    "classic": RuleSet.preset("classic"),
    "pagat": RuleSet.preset("pagat"),
    "oklahoma": RuleSet.preset("oklahoma"),
    "last_chance": RuleSet.preset("classic", last_chance=True),
    "throw_back": RuleSet.preset("classic", allow_throw_back=True),
    "no_upcard": RuleSet.preset("pagat", no_upcard=True),
    "straight_gin": RuleSet.preset("pagat", straight_gin=True),
}


def kind_of(view, action) -> str:
    """The situation a decision was made in, for coverage checks."""
    if view.phase == "discard" and any(type(a) is Knock for a in view.legal):
        return "knock"
    if view.phase == "draw" and view.stock_count <= 3:
        return "stock_end"
    return view.phase


def drive(
    player, rules: RuleSet, seed: int, decisions: int, share: float = 0.6, on_decision=None
) -> set[str]:
    """Play games where ``player`` makes about ``share`` of the moves, at random points, and a
    knock-happy random mover the rest; call ``on_decision(view, action)`` for each of the
    player's moves. Returns the kinds of situation the player was asked about."""
    rng = random.Random(seed)
    seen: set[str] = set()
    made = 0
    game_no = 0
    while made < decisions:
        game = Game(rules, seed=f"{seed}:{game_no}")
        game_no += 1
        while not game.over and made < decisions:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            if rng.random() < share:
                action = player.choose(view)
                if on_decision is not None:
                    on_decision(view, action)
                seen.add(kind_of(view, action))
                made += 1
            else:
                knocks = [a for a in view.legal if type(a) is Knock]
                action = knocks[0] if knocks and rng.random() < 0.7 else rng.choice(view.legal)
            game.apply(action)
    return seen
