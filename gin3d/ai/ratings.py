"""Bradley–Terry ratings from game results, with 95% intervals from the Fisher information.

Player i beats player j with probability 1 / (1 + exp(r_j - r_i)). The fit maximises the
likelihood of the observed wins (Newton's method; the ratings sum to zero), with a weak
ridge so a player that won or lost every game still gets a finite rating. The covariance is
the pseudo-inverse of the Fisher information under that constraint. Ratings are reported on
the Elo scale (400 / ln 10 per unit), where 200 points mean about a 76% chance to win.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float  # rating on the Elo scale, the players' mean at 0
    low: float  # 95% interval
    high: float
    games: int
    wins: float


def fit_strengths(
    wins: np.ndarray, ridge: float = 0.01, iterations: int = 100
) -> tuple[np.ndarray, np.ndarray]:
    """(strengths, covariance) from ``wins[i, j]`` = games i won against j (may be fractional).

    Strengths are in natural units (log-odds) and sum to zero.
    """
    w = np.asarray(wins, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or (w < 0).any():
        raise ValueError("wins must be a square matrix of non-negative counts")
    n = w + w.T
    k = len(w)
    r = np.zeros(k)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        grad = (w - n * p).sum(axis=1) - ridge * r
        info = _information(n, p) + ridge * np.eye(k)
        step = np.linalg.lstsq(info, grad, rcond=None)[0]
        r += step
        r -= r.mean()
        if np.abs(step).max() < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))
    centre = np.eye(k) - 1.0 / k
    cov = centre @ np.linalg.pinv(_information(n, p) + ridge * np.eye(k)) @ centre
    return r, cov


def _information(n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Fisher information of the strengths: the Laplacian of games weighted by p(1 - p)."""
    a = n * p * (1.0 - p)
    np.fill_diagonal(a, 0.0)
    return np.diag(a.sum(axis=1)) - a


def ratings(
    names: Sequence[str], wins: np.ndarray, ridge: float = 0.01, anchor: str | None = None
) -> list[Rating]:
    """Each player's Elo-scale rating with its 95% interval, strongest first.

    With ``anchor`` the ratings and intervals are relative to that player (its rating 0),
    so a player hard to place (one that lost every game) does not widen everyone's interval.
    """
    if len(names) != len(wins):
        raise ValueError("one name per row of wins")
    r, cov = fit_strengths(wins, ridge)
    if anchor is not None:
        a = list(names).index(anchor)
        r = r - r[a]
        shift = np.eye(len(r))
        shift[:, a] -= 1.0  # rating_i - rating_a
        cov = shift @ cov @ shift.T
    sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    w = np.asarray(wins, dtype=np.float64)
    games = (w + w.T).sum(axis=1)
    out = [
        Rating(
            name,
            ELO * r[i],
            ELO * (r[i] - 1.96 * sd[i]),
            ELO * (r[i] + 1.96 * sd[i]),
            int(round(games[i])),
            float(w[i].sum()),
        )
        for i, name in enumerate(names)
    ]
    return sorted(out, key=lambda x: -x.elo)


def table(rows: Sequence[Rating]) -> list[str]:
    """The printed ratings table."""
    width = max([6, *(len(r.name) for r in rows)])
    lines = [f"{'player':>{width}}  {'rating':>6}  {'95% interval':>14}  {'games':>5}  win rate"]
    for r in rows:
        lines.append(
            f"{r.name:>{width}}  {r.elo:>6.0f}  [{r.low:>5.0f}, {r.high:>5.0f}]"
            f"  {r.games:>5}  {r.wins / max(r.games, 1):.3f}"
        )
    return lines
