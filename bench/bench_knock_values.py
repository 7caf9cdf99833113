"""What the expert's knock-or-play-on decisions were really worth: a measurement, never a level.

    python bench/bench_knock_values.py OPPONENT --games N --seed S [--share F] [--orders M] \\
        [--set NAME=VALUE ...] [--out FILE]
    python bench/bench_knock_values.py --fit FILE [FILE ...]

The expert plays N classic games against OPPONENT on the arena's decks. At a share ``F`` of
its chances to knock short of gin while the stock lasts (the decisions its play-outs make),
the bench, which alone may look at the hidden cards, prices both answers for real from the
game as it stands:

- knocking: the knock played to the hand's end (the opponent lays off as it does), exact;
- playing on: the expert's discard, then the hand played to its end by both players as they
  play, from ``M`` orders of the real stock (the cards neither player can see are shuffled,
  the opponent's hand kept), averaged.

Both are priced as the expert prices a hand's points (``hand_value``: by the chance to win
the game). Next to them it records what the expert estimated: the knock's price over its
deals, the play-outs' value of playing on, the knock's deadwood and the stock left. It prints
the regret a decision (the true value of the better answer minus that of the one taken) of
the kept rule, of never knocking, and writes the records to FILE (JSON). ``--set`` changes
the expert's weights for the run as ``bench_weights.py`` does (the rule it played with is
then the one measured, e.g. the rule before the fitted one: ``--set knock_margin=9 --set
knock_hunt=1 --set knock_deadwood=0 --set knock_stock=0``).

``--fit`` reads such files and searches the rule's four weights (``knock_hunt``,
``knock_deadwood``, ``knock_stock``, ``knock_margin``: knock when the knock's price, less the
play-outs' value times ``knock_hunt``, plus ``knock_deadwood`` per deadwood point and
``knock_stock`` per stock card, beats ``knock_margin``), printing the best by the mean regret
over the files, with each file's regret and knocks.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import itertools
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from gin3d.ai.expert import ExpertPlayer, ExpertWeights, knock_edge  # noqa: E402
from gin3d.ai.yardsticks import arena_names, make_arena_player  # noqa: E402
from gin3d.arena import show_end  # noqa: E402
from gin3d.engine import Discard, Game, Knock, NextHand, RuleSet, deadwood_of_mask  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_weights import expert_weights  # noqa: E402


class MeasuredExpert(ExpertPlayer):
    """The expert, which hands a sample of its knock-or-play-on spots to ``spot`` (the bench's
    callback) with what it estimated there; its play is the expert's, untouched."""

    def __init__(self, seed: str, share: float) -> None:
        super().__init__(seed=seed)
        self.share = share
        self.pick = random.Random(f"{seed}:measured")  # which spots: never the play's rng
        self.spot = None  # the bench's callback: (copied game, view, answer, estimates)
        self.snapshot = None  # the bench's callback: () -> the game and players, copied
        self._trace: dict | None = None

    def choose_knock(self, view, know, knocks):
        w = self.weights
        least = min(deadwood_of_mask(know.mine & ~(1 << c)) for c in knocks)
        priced = (
            self.spot is not None
            and 0 < least <= w.always_wait
            and view.stock_count >= w.wait_stock
            and any(type(a) is Discard for a in view.legal)
            and self.pick.random() < self.share
        )
        if not priced:
            return super().choose_knock(view, know, knocks)
        before = self.snapshot()
        self._trace = {"knocks": []}
        try:
            card = super().choose_knock(view, know, knocks)
            trace = self._trace
        finally:
            self._trace = None
        if "hunt" in trace:  # the play-outs decided (not a knock that wins the game at once)
            self.spot(before, view, card, trace)
        return card

    def knock_value(self, view, know, hand, d):
        value = super().knock_value(view, know, hand, d)
        if self._trace is not None:
            card = next(c for c in view.hand if know.mine & ~(1 << c) == hand)
            self._trace["knocks"].append((value, -d, card, d))
        return value

    def hunt_value(self, view, know):
        value = super().hunt_value(view, know)
        if self._trace is not None:
            discards = [a.card for a in view.legal if type(a) is Discard]
            self._trace["hunt"] = value
            self._trace["discard"] = self.score_discards(know.mine, know, discards)[0].card
        return value


def play_to_end(game: Game, players, me: int) -> int:
    """Play the hand to its end; its points for seat ``me`` (negative: the opponent's)."""
    hand = game.hand
    while not hand.over:
        seat = hand.turn
        game.apply(players[seat].choose(game.view(seat)))
    if hand.result is None:
        return 0
    return hand.result.points if hand.winner == me else -hand.result.points


def true_values(
    before, view, knock_card: int, discard: int, orders: int, rng: random.Random
) -> tuple[float, float]:
    """(knocking with ``knock_card``, throwing ``discard`` and playing on) at the spot
    ``before`` (the game and players copied), priced."""
    me = view.seat
    pricer = before[1][me]
    game, players = copy.deepcopy(before)
    players[me].spot = None
    game.apply(Knock(knock_card))
    knock = pricer.hand_value(view, play_to_end(game, players, me))
    on = []
    for _ in range(orders):
        game, players = copy.deepcopy(before)
        expert = players[me]
        expert.spot = None
        expert.rng = random.Random(rng.random())
        expert.np_rng = np.random.default_rng(rng.randrange(2**32))
        rng.shuffle(game.hand.stock)
        game.apply(Discard(discard))
        on.append(pricer.hand_value(view, play_to_end(game, players, me)))
    return knock, float(np.mean(on))


def measure(
    opponent: str, games: int, seed: int, share: float, orders: int
) -> tuple[list[dict], list[list[int]]]:
    """The records of the priced spots of ``games`` games against ``opponent``, and each
    game's final totals (the pricing never changes the play: these are the arena's games)."""
    rules = RuleSet.preset("classic")
    rng = random.Random(f"knock values:{seed}")
    records: list[dict] = []
    totals: list[list[int]] = []
    for i in range(games):
        deal = f"arena:{seed}:{i // 2}"
        me = i % 2  # the expert's seat, as the arena seats level A
        players: list = [None, None]
        expert = MeasuredExpert(f"{deal}:{me}", share)
        players[me] = expert
        players[1 - me] = make_arena_player(opponent, seed=f"{deal}:{1 - me}")
        game = Game(rules, seed=deal)
        spots: list = []
        expert.snapshot = lambda g=game, p=players: copy.deepcopy((g, p))
        expert.spot = lambda *spot, out=spots: out.append(spot)
        while not game.over:
            if game.hand.over:
                game.apply(NextHand())
                continue
            seat = game.hand.turn
            game.apply(players[seat].choose(game.view(seat)))
            for before, view, card, trace in spots:
                k, _, knock_card, d = max(trace["knocks"])  # the knock the expert weighed
                knock, on = true_values(before, view, knock_card, trace["discard"], orders, rng)
                records.append(
                    {
                        "knock": k,
                        "hunt": trace["hunt"],
                        "deadwood": d,
                        "stock": view.stock_count,
                        "knocked": card is not None,
                        "true_knock": knock,
                        "true_on": on,
                    }
                )
            spots.clear()
            if game.hand.over:
                show_end(game, players)
        totals.append(game.totals())
    return records, totals


def regret(records: list[dict], knocks: np.ndarray) -> float:
    """Mean true value lost a decision by knocking where ``knocks`` says."""
    k = np.array([r["true_knock"] for r in records])
    on = np.array([r["true_on"] for r in records])
    return float(np.mean(np.maximum(k, on) - np.where(knocks, k, on)))


def rule_knocks(records: list[dict], weights: tuple[float, float, float, float]) -> np.ndarray:
    """Where the rule with ``weights`` (hunt, deadwood, stock, margin) knocks: the expert's
    own rule (``knock_edge``), on each record's estimates."""
    hunt, dw, stock, margin = weights
    w = dataclasses.replace(
        ExpertWeights(), knock_hunt=hunt, knock_deadwood=dw, knock_stock=stock, knock_margin=margin
    )
    est = {
        key: np.array([r[key] for r in records]) for key in ("knock", "hunt", "deadwood", "stock")
    }
    edge = knock_edge(w, est["knock"], est["hunt"], est["deadwood"], est["stock"])  # on arrays
    return np.asarray(edge > margin, dtype=bool)


def fit(files: list[str], top: int = 8) -> None:
    sets = {name: json.loads(Path(name).read_text()) for name in files}
    w = ExpertWeights()
    kept = (w.knock_hunt, w.knock_deadwood, w.knock_stock, w.knock_margin)
    old = (1.0, 0.0, 0.0, 9.0)
    grid = itertools.product(
        (0.3, 0.5, 0.7, 1.0), (0.0, 0.5, 1.0, 2.0), (0.0, 0.25, 0.5, 1.0), range(0, 42, 2)
    )
    scored = []
    for weights in [*grid, kept, old]:
        each = [regret(r, rule_knocks(r, weights)) for r in sets.values()]
        scored.append((float(np.mean(each)), weights, each))
    scored.sort(key=lambda s: s[0])

    def line(label, weights, each):
        knocks = [int(rule_knocks(r, weights).sum()) for r in sets.values()]
        cells = "  ".join(f"{e:.3f} ({n})" for e, n in zip(each, knocks))
        hunt, dw, stock, margin = weights
        rule = f"hunt {hunt:.2f} dw {dw:.2f} stock {stock:.2f} margin {margin:>4g}"
        return f"{label:>22}  {rule}  {cells}"

    print("files:", "  ".join(f"{Path(n).name} ({len(r)} decisions)" for n, r in sets.items()))
    print("regret a decision (knocks) in each file")
    never = [regret(r, np.zeros(len(r), dtype=bool)) for r in sets.values()]
    print(f"{'never knock':>22}  " + "  ".join(f"{e:.3f}" for e in never))
    for label, weights in (("kept rule", kept), ("before: k > h + 9", old)):
        each = next(s[2] for s in scored if s[1] == weights)
        print(line(label, weights, each))
    for i, (_, weights, each) in enumerate(scored[:top]):
        print(line(f"best {i + 1}", weights, each))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("opponent", nargs="?", choices=arena_names())
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=601)
    parser.add_argument("--share", type=float, default=0.5, help="share of the spots priced")
    parser.add_argument("--orders", type=int, default=16, help="stock orders for playing on")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--out", help="write the records here (JSON)")
    parser.add_argument("--fit", nargs="+", metavar="FILE", help="fit the rule to records")
    args = parser.parse_args(argv)
    if args.fit:
        fit(args.fit)
        return 0
    if args.opponent is None:
        parser.error("name the opponent, or --fit FILE ...")
    with expert_weights(args.set, parser):
        records, _ = measure(args.opponent, args.games, args.seed, args.share, args.orders)
    if args.out:
        Path(args.out).write_text(json.dumps(records))
    knocked = np.array([r["knocked"] for r in records], dtype=bool)
    print(
        f"expert vs {args.opponent}, seed {args.seed}: {len(records)} decisions priced, "
        f"knocked at {int(knocked.sum())}; regret a decision: the rule played "
        f"{regret(records, knocked):.3f}, never knocking "
        f"{regret(records, np.zeros(len(records), dtype=bool)):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
