"""Decision time of each computer level: median and 99th percentile, in milliseconds.

    python bench/bench_ai.py [--games N] [--levels beginner simple hard expert]
    python bench/bench_ai.py --deals N [--opponents eager patient]

Each level plays N full classic games against the simple player (seats alternating); only
its own decisions are timed. Run it on an otherwise idle machine for figures worth quoting.

With ``--deals`` it measures instead how well the expert's sampled opponent hands fit the
real ones (which only a measurement may look at): at each of the expert's discard decisions
in N games against each opponent, 48 deals weighted by the card weights alone, by the
opponent's play as read until December 2026 (its last throw only), and by its play as read
now (every throw; ``gin3d.ai.deals``): the weighted mean deadwood above the real hand's, the
weighted share of the hidden cards guessed right, and the effective number of deals.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from gin3d.ai import LEVELS, make_player  # noqa: E402
from gin3d.ai.deals import Deals, DealWeights  # noqa: E402
from gin3d.ai.knowledge import Knowledge  # noqa: E402
from gin3d.ai.yardsticks import YARDSTICKS, make_arena_player  # noqa: E402
from gin3d.engine import Game, NextHand, RuleSet, deadwood_of_mask, mask_of  # noqa: E402

CARD_WEIGHTS_ONLY = DealWeights(
    passed_meld=1.0,
    loose_pickup=1.0,
    thrown_meld=1.0,
    partner_boost=1.0,
    odd_discard=1.0,
    older_discard=1.0,
)
LAST_THROW_ONLY = DealWeights(odd_discard=0.4, older_discard=1.0)  # the weights until 2026-12
WEIGHINGS = {
    "card weights only": CARD_WEIGHTS_ONLY,
    "play, last throw only": LAST_THROW_ONLY,
    "play, every throw": DealWeights(),
}


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


def fit(know: Knowledge, real: int, weights: DealWeights, seed: int) -> tuple[float, ...]:
    """(deadwood above the real hand's, share of hidden cards right, effective deals)."""
    deals = Deals(know, 48, np.random.default_rng(seed), weights)
    hidden = real & ~know.opp_known
    right = [bin(m & hidden).count("1") / know.opp_hidden for m in deals.masks]
    bias = float(np.dot(deals.deadwood, deals.norm)) - deadwood_of_mask(real)
    return bias, float(np.dot(right, deals.norm)), float(1.0 / (deals.norm**2).sum())


def deal_fit(opponent: str, games: int) -> dict[str, np.ndarray]:
    """The fit of the deals at the expert's discard decisions against ``opponent``."""
    rows: dict[str, list] = {label: [] for label in WEIGHINGS}
    for g in range(games):
        game = Game(RuleSet.preset("classic"), seed=f"fit:{g}")
        players = [make_player("expert", seed=1), make_arena_player(opponent, seed=2)]
        while not game.over:
            if game.hand.over:
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            know = Knowledge.of(view) if game.turn == 0 and view.phase == "discard" else None
            if know is not None and know.opp_hidden:
                real = mask_of(game.hand.hands[1])
                for label, w in WEIGHINGS.items():
                    rows[label].append(fit(know, real, w, g))
            game.apply(players[game.turn].choose(view))
    return {label: np.array(r) for label, r in rows.items()}


def print_deal_fit(opponents: list[str], games: int) -> None:
    head = ("opponent", "deals", "decisions", "dw above", "right", "ESS")
    print("{:>9} {:>22} {:>9} {:>8} {:>6} {:>5}".format(*head))
    for opponent in opponents:
        for label, r in deal_fit(opponent, games).items():
            bias, right, ess = r.mean(axis=0)
            print(f"{opponent:>9} {label:>22} {len(r):>9} {bias:>8.1f} {right:>6.3f} {ess:>5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    parser.add_argument("--deals", type=int, default=0, help="measure the deals' fit instead")
    parser.add_argument(
        "--opponents", nargs="+", default=["eager", "patient"], choices=[*LEVELS, *YARDSTICKS]
    )
    args = parser.parse_args()
    if args.deals:
        print_deal_fit(args.opponents, args.deals)
        return
    print(f"{'level':>9} {'decisions':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for level in args.levels:
        t = time_level(level, args.games)
        print(
            f"{level:>9} {len(t):>9} {np.median(t):>10.2f} {np.percentile(t, 99):>8.2f}"
            f" {t.max():>8.2f}"
        )


if __name__ == "__main__":
    main()
