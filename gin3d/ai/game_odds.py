"""The chance to win the game from a score, so a hand's points can be priced by what they do.

A game is won by reaching the target first; box bonuses never count toward it, and a point
beyond the target is worth nothing. So 10 points are worth little when the opponent needs 5
and we need 60, and everything when we need 8. ``win_chance`` models the rest of the game as
a race of even hands, each won by one side with a spread of points (small knocks more often
than gins and undercuts), solved exactly over the points each side still needs.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

# points a won hand scores, and how often (a rough spread of knocks, undercuts and gins)
HAND_POINTS = np.arange(1, 61)
_SHAPE = np.where(HAND_POINTS <= 24, 1.0, 0.35) * np.exp(-HAND_POINTS / 40.0)
HAND_SPREAD = _SHAPE / _SHAPE.sum()


@lru_cache(maxsize=8)
def _table(target: int) -> np.ndarray:
    """W[a, b]: chance to win needing ``a`` points against an opponent needing ``b``
    (W[0, b] = 1 for b > 0, W[a, 0] = 0), each hand won by either side with chance 1/2."""
    n = len(HAND_POINTS)
    # padded: p[a + n, b + n] = W[a, b]; a <= 0 (we got there) is a win, b <= 0 a loss
    p = np.zeros((target + n + 1, target + n + 1))
    p[: n + 1, n + 1 :] = 1.0
    for total in range(2, 2 * target + 1):  # a state depends only on states of lower a + b
        a = np.arange(max(1, total - target), min(target, total - 1) + 1)
        b = total - a
        mine = p[(a + n)[:, None] - HAND_POINTS[None, :], (b + n)[:, None]]
        theirs = p[(a + n)[:, None], (b + n)[:, None] - HAND_POINTS[None, :]]
        p[a + n, b + n] = 0.5 * ((mine + theirs) @ HAND_SPREAD)
    return p[n:, n:]


def win_chance(need: int, their_need: int, target: int) -> float:
    """Chance to win when we still need ``need`` points and the opponent ``their_need``."""
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    w = _table(target)
    return float(w[min(need, target), min(their_need, target)])


def point_worth(need: int, their_need: int, target: int) -> float:
    """What one point of a hand is worth at this score, in win chance (the slope of
    ``win_chance`` over a typical hand's points either way)."""
    step = 12
    gain = win_chance(need - step, their_need, target) - win_chance(need, their_need, target)
    loss = win_chance(need, their_need, target) - win_chance(need, their_need - step, target)
    return max(1e-4, (gain + loss) / (2 * step))
