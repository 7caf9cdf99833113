"""Undo for single-player casual games, built on the action log.

Undo takes back the human's last action in the current hand and the computer's actions after
it, by replaying the game's action list without them: the engine is deterministic, so the
result is exactly the state before that action. A finished hand is never undone (it has been
scored, counted in the statistics and kept in the history). It is offered only when the
player turned it on in the settings (``undo_enabled``, off by default).
"""

from __future__ import annotations

from .engine import Game, NextHand


def actors(game: Game) -> list[int | None]:
    """The seat that made each of ``game.actions`` (None for NextHand), found by replaying."""
    copy = _fresh(game)
    seats: list[int | None] = []
    for action in game.actions:
        seats.append(None if isinstance(action, NextHand) else copy.hand.turn)
        copy.apply(action)
    return seats


def _fresh(game: Game) -> Game:
    """The game as dealt, before its first action (same seed, cut and decks)."""
    return Game.from_log(
        game.rules, game.seed, game.first_dealer, game.decks, dealer_cut=game.dealer_cut
    )


def undo_point(game: Game, seat: int) -> int | None:
    """How many actions to keep to undo ``seat``'s last action in the current hand, or None
    if there is nothing to undo (no such action yet, or the hand is over)."""
    if game.hand.over:
        return None
    seats = actors(game)
    # the current hand's actions start after the last NextHand
    start = max((i + 1 for i, s in enumerate(seats) if s is None), default=0)
    for i in range(len(seats) - 1, start - 1, -1):
        if seats[i] == seat:
            return i
    return None


def can_undo(game: object, seat: int, enabled: bool) -> bool:
    """Whether to offer undo: on, a two-player ``Game`` (a three-player game has none) and
    a move of ``seat``'s to take back."""
    return enabled and isinstance(game, Game) and undo_point(game, seat) is not None


def undo_last_human_move(game: Game, seat: int, enabled: bool = True) -> Game:
    """A new Game with ``seat``'s last action in this hand (and everything after it) taken
    back. ValueError if undo is off or there is nothing to undo; ``game`` is unchanged."""
    if not enabled:
        raise ValueError("undo is turned off in the settings")
    keep = undo_point(game, seat)
    if keep is None:
        raise ValueError("there is no move of yours to undo in this hand")
    return Game.from_log(
        game.rules,
        game.seed,
        game.first_dealer,
        game.decks,
        game.actions[:keep],
        dealer_cut=game.dealer_cut,
    )
