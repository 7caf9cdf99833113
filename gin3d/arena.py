"""Play computer levels against each other and measure their strength.

    python -m gin3d.arena LEVEL_A LEVEL_B --games N --preset classic --seed S [--jobs J]

LEVEL_A and LEVEL_B are levels (beginner, simple, hard, expert) or yardsticks (eager, patient,
random, mirror:LEVEL; see ``gin3d.ai.yardsticks``).

    python -m gin3d.arena --round-robin [--games N] [--seed S] [--players NAME ...]

plays every pair of levels and yardsticks N games and prints Bradley–Terry ratings on the
Elo scale with 95% intervals (``gin3d.ai.ratings``).

Full games to the target; LEVEL_A takes seat 0 in even games and seat 1 in odd ones, and each
pair of games shares a seed, so both levels are dealt the same first hand from each side. The
last line reads ``A vs B: game win rate 0.613 [0.592, 0.634] over N games``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .ai.ratings import ratings, table
from .ai.yardsticks import arena_names, make_arena_player
from .engine import Game, NextHand, RuleSet
from .engine.rules import MEASURE_PRESETS, PRESETS


@dataclass
class SideStats:
    """One level's tallies over the games played."""

    games_won: int = 0
    hands_won: int = 0
    points: int = 0  # hand points scored (bonuses of the hand included, game bonuses not)
    knocks: int = 0  # hands it won by a plain knock
    gins: int = 0  # hands it won by gin or Big Gin
    undercuts: int = 0  # hands it won by undercutting
    undercut_against: int = 0  # its own knocks that were undercut
    times: list[float] = field(default_factory=list)  # seconds per decision

    def merge(self, other: SideStats) -> None:
        for name in (
            "games_won",
            "hands_won",
            "points",
            "knocks",
            "gins",
            "undercuts",
            "undercut_against",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times.extend(other.times)


@dataclass
class ArenaResult:
    games: int = 0
    hands: int = 0
    drawn_hands: int = 0
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))

    def merge(self, other: ArenaResult) -> None:
        self.games += other.games
        self.hands += other.hands
        self.drawn_hands += other.drawn_hands
        for mine, theirs in zip(self.sides, other.sides):
            mine.merge(theirs)


def play_game(
    levels: Sequence[str], rules: RuleSet, seed: str, a_seat: int, result: ArenaResult
) -> None:
    """Play one full game, level A in ``a_seat``; add its tallies to ``result``."""
    seat_level = (0, 1) if a_seat == 0 else (1, 0)  # seat -> index into levels
    players = [make_arena_player(levels[seat_level[s]], seed=f"{seed}:{s}") for s in (0, 1)]
    game = Game(rules, seed=seed)
    clock = time.perf_counter
    while not game.over:
        hand = game.hand
        if hand.over:
            game.apply(NextHand())
            continue
        seat = hand.turn
        view = game.view(seat)
        start = clock()
        action = players[seat].choose(view)
        result.sides[seat_level[seat]].times.append(clock() - start)
        game.apply(action)
        if hand.over:
            _tally_hand(hand, seat_level, result)
            show_end(game, players)
    result.games += 1
    result.sides[seat_level[game.winner]].games_won += 1


def show_end(game: Game, players) -> None:
    """Let players that learn across hands see how the hand ended (their own view of it)."""
    for seat, player in enumerate(players):
        observe = getattr(player, "observe", None)
        if observe is not None:
            observe(game.view(seat))


def _tally_hand(hand, seat_level, result: ArenaResult) -> None:
    result.hands += 1
    if hand.result is None:
        result.drawn_hands += 1
        return
    r = hand.result
    winner = result.sides[seat_level[hand.winner]]
    winner.hands_won += 1
    winner.points += r.points
    if r.kind in ("gin", "big_gin"):
        winner.gins += 1
    elif r.kind == "undercut":
        winner.undercuts += 1
        result.sides[seat_level[hand.knocker]].undercut_against += 1
    else:
        winner.knocks += 1


def run_games(levels: Sequence[str], preset: str, seed: int, indices: Sequence[int]) -> ArenaResult:
    """Play the games with the given indices (a worker's share)."""
    rules = RuleSet.preset(preset)
    result = ArenaResult()
    for i in indices:
        play_game(levels, rules, f"arena:{seed}:{i // 2}", i % 2, result)
    return result


def _worker(args) -> ArenaResult:
    return run_games(*args)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def report(levels: Sequence[str], result: ArenaResult) -> list[str]:
    """The printed summary; its last line is the headline game win rate of level A."""
    n = result.games
    scored = result.hands - result.drawn_hands
    lines = [f"{n} games, {result.hands} hands ({result.drawn_hands} drawn)"]
    for level, side in zip(levels, result.sides):
        t = np.array(side.times) * 1000.0 if side.times else np.zeros(1)
        per_hand = side.points / result.hands if result.hands else 0.0
        lines.append(
            f"{level:>9}: games {side.games_won}/{n}  hands won {side.hands_won}/{scored}"
            f" ({side.hands_won / max(scored, 1):.3f})  points/hand {per_hand:.2f}"
            f"  gin {side.gins / max(result.hands, 1):.3f}"
            f"  undercut {side.undercuts / max(result.hands, 1):.3f}"
            f"  knock {side.knocks / max(result.hands, 1):.3f}"
            f"  undercut against {side.undercut_against / max(result.hands, 1):.3f}"
            f"  decision ms median {np.median(t):.2f} p99 {np.percentile(t, 99):.2f}"
            f" over {len(side.times)}"
        )
    wins = result.sides[0].games_won
    lo, hi = wilson(wins, n)
    lines.append(
        f"{levels[0]} vs {levels[1]}: game win rate {wins / max(n, 1):.3f}"
        f" [{lo:.3f}, {hi:.3f}] over {n} games"
    )
    return lines


def play(levels: Sequence[str], preset: str, seed: int, games: int, jobs: int = 1) -> ArenaResult:
    """Play ``games`` games of level A against level B, on ``jobs`` worker processes."""
    indices = list(range(games))
    if jobs == 1:
        return run_games(levels, preset, seed, indices)
    from multiprocessing import Pool

    chunks = [(levels, preset, seed, indices[j::jobs]) for j in range(jobs)]
    result = ArenaResult()
    with Pool(jobs) as pool:
        for part in pool.imap_unordered(_worker, chunks):
            result.merge(part)
    return result


def round_robin(
    names: Sequence[str], preset: str, seed: int, games: int, jobs: int = 1
) -> np.ndarray:
    """Every pair of ``names`` plays ``games`` games (same decks, seats swapped in each pair
    of games); ``wins[i, j]`` is how many games i won against j."""
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    tasks = [((names[i], names[j]), preset, seed, range(games)) for i, j in pairs]
    if jobs == 1:
        results = [_worker(t) for t in tasks]
    else:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            results = pool.map(_worker, tasks)
    wins = np.zeros((len(names), len(names)))
    for (i, j), result in zip(pairs, results):
        wins[i, j] += result.sides[0].games_won
        wins[j, i] += result.sides[1].games_won
    return wins


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gin3d.arena", description=__doc__.split("\n")[0]
    )
    names = arena_names()
    parser.add_argument("level_a", metavar="LEVEL_A", nargs="?", choices=names)
    parser.add_argument("level_b", metavar="LEVEL_B", nargs="?", choices=names)
    parser.add_argument("--games", type=int, default=None, help="games (per pairing)")
    parser.add_argument("--preset", default="classic", choices=sorted([*PRESETS, *MEASURE_PRESETS]))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help="every level and yardstick against every other, rated (default 20 games a pairing)",
    )
    parser.add_argument(
        "--players", nargs="+", choices=names, help="the round robin's players (default all)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.round_robin == (args.level_b is not None):
        parser.error("give LEVEL_A and LEVEL_B, or --round-robin")
    games = args.games if args.games is not None else (20 if args.round_robin else 200)
    if games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    started = time.perf_counter()
    if args.round_robin:
        names = list(dict.fromkeys(args.players or arena_names()))
        if len(names) < 2:
            parser.error("a round robin needs two players or more")
        wins = round_robin(names, args.preset, args.seed, games, args.jobs)
        anchor = "simple" if "simple" in names else names[0]
        lines = table(ratings(names, wins, anchor=anchor))
        lines.append(
            f"Bradley-Terry ratings (Elo scale, {anchor} = 0) over {games} games a pairing"
        )
    else:
        levels = (args.level_a, args.level_b)
        lines = report(levels, play(levels, args.preset, args.seed, games, args.jobs))
    print(f"preset {args.preset}, seed {args.seed}, {time.perf_counter() - started:.1f} s")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
