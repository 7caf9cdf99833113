"""Decision time of each computer level: median and 99th percentile, in milliseconds.

    python bench/bench_ai.py [--games N] [--levels beginner simple hard expert]

Each level plays N full classic games against the simple player (seats alternating); only
its own decisions are timed. Run it on an otherwise idle machine for figures worth quoting.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from gin3d.ai import LEVELS, make_player  # noqa: E402
from gin3d.engine import Game, NextHand, RuleSet  # noqa: E402


def time_level(level: str, games: int, seed: int = 0) -> np.ndarray:
    rules = RuleSet.preset("classic")
    times = []
    for g in range(games):
        seat = g % 2
        players = {seat: make_player(level, seed=g), 1 - seat: make_player("simple", seed=g)}
        game = Game(rules, seed=f"bench:{seed}:{g}")
        while not game.over:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            start = time.perf_counter()
            action = players[game.turn].choose(view)
            if game.turn == seat:
                times.append(time.perf_counter() - start)
            game.apply(action)
    return np.array(times) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    args = parser.parse_args()
    print(f"{'level':>9} {'decisions':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for level in args.levels:
        t = time_level(level, args.games)
        print(
            f"{level:>9} {len(t):>9} {np.median(t):>10.2f} {np.percentile(t, 99):>8.2f}"
            f" {t.max():>8.2f}"
        )


if __name__ == "__main__":
    main()
