"""Engine speed: best_melds, the numpy discard path, and random hands played per second.

Run: python -m bench.bench_engine [--seconds S]
Times are CPU time of this process (time.process_time), so other load on the machine
inflates them less (a shared core still runs slower); the targets are ≤ 20 µs median for
best_melds on 11 cards and ≥ 2,000 random hands per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gin3d.engine import CARDS, Hand, RuleSet, best_melds, discard_deadwood_array, discard_deadwoods
from gin3d.engine import melds as melds_module


def per_call_us(fn, inputs, repeat: int = 5) -> list[float]:
    """Per-input time in µs, the median of `repeat` passes over all inputs in batch."""
    out = []
    for x in inputs:
        best = float("inf")
        for _ in range(repeat):
            t = time.process_time_ns()
            fn(x)
            best = min(best, time.process_time_ns() - t)
        out.append(best / 1000)
    return out


def batch_us(fn, inputs, rounds: int = 3) -> float:
    """Mean µs per input over a whole pass, best of `rounds` passes."""
    best = float("inf")
    for _ in range(rounds):
        melds_module._DEADWOOD_CACHE.clear()
        t = time.process_time()
        for x in inputs:
            fn(x)
        best = min(best, (time.process_time() - t) / len(inputs) * 1e6)
    return best


def random_hands_per_second(
    seconds: float,
    rules: RuleSet,
    rounds: int = 5,
) -> tuple[float, float, float]:
    """(best, median) hands per second over ``rounds`` equal rounds, and actions per hand.

    Each round plays new seeds. The best round is the figure (as timeit takes the fastest
    run: other load on the machine only ever slows a round); the median is printed beside it.
    """
    rnd = random.Random(1).random  # a uniform pick among the legal actions
    hands = actions = 0
    rates = []
    for _ in range(rounds):
        played = 0
        start = time.process_time()
        while time.process_time() - start < seconds / rounds:
            for _ in range(50):
                hand = Hand.deal(rules, dealer=hands % 2, seed=hands)
                while not hand.over:
                    legal = hand.legal_actions()
                    hand.apply(legal[int(rnd() * len(legal))])
                actions += len(hand.actions)
                hands += 1
                played += 1
        rates.append(played / (time.process_time() - start))
    return max(rates), statistics.median(rates), actions / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--hands", type=int, default=5000)
    args = parser.parse_args()
    # random hands first: the inputs built below (15,000 card lists) would otherwise sit in
    # the garbage collector's oldest generation and every full collection would walk them
    for preset in ("classic", "oklahoma"):
        best, median, length = random_hands_per_second(args.seconds, RuleSet.preset(preset))
        print(
            f"random legal hands ({preset}): {best:,.0f} hands/s best of 5 rounds, "
            f"median {median:,.0f} ({length:.0f} actions per hand)"
        )
    rng = random.Random(0)
    for size in (10, 11):
        hands = [rng.sample(CARDS, size) for _ in range(args.hands)]
        times = per_call_us(best_melds, hands, repeat=1)
        times.sort()
        print(
            f"best_melds {size} cards: median {statistics.median(times):.1f} µs, "
            f"p99 {times[int(0.99 * len(times))]:.1f} µs over {len(times)} random hands"
        )
    elevens = [rng.sample(CARDS, 11) for _ in range(args.hands)]
    np_us = batch_us(discard_deadwood_array, elevens)
    py_us = batch_us(discard_deadwoods, elevens)
    print(
        f"all 11 discards of a hand: numpy batch path {np_us:.1f} µs per hand, "
        f"pure-Python path {py_us:.1f} µs per hand (ratio {py_us / np_us:.2f})"
    )


if __name__ == "__main__":
    main()
