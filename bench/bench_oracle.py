"""What knowing the opponent's hand would be worth to the expert: a measurement, never a level.

    python bench/bench_oracle.py OPPONENT --games N --seed S --told hand|knock|mean [--blur SD]

The expert is told the opponent's real ten cards (which no player may see: only this bench
looks) in one of three ways, and plays N full classic games against OPPONENT on the arena's
decks (``arena:S:i``, seats alternating, so the same seed deals the arena's games):

- ``hand``: every one of its deals is the real hand (its knocks, play-outs and discards);
- ``knock``: the real hand in its knock decisions only, its discards as usual;
- ``mean``: its deals as usual, but the knock's price scales their deadwood to the real
  hand's (blurred by a normal error of ``--blur`` points, drawn once per decision), in place
  of the learnt excess.

It prints the game win rate with its 95% interval. Against the arena's figure on the same
seed this bounds what a better reading of the opponent's hand could gain, and where.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from gin3d.ai.deals import Deals  # noqa: E402
from gin3d.ai.expert import ExpertPlayer  # noqa: E402
from gin3d.ai.yardsticks import arena_names, make_arena_player  # noqa: E402
from gin3d.arena import show_end, wilson  # noqa: E402
from gin3d.engine import Game, NextHand, RuleSet, deadwood_of_mask  # noqa: E402

COPIES = 96  # the real hand as often as the expert samples deals: its play-outs vary the stock


class ToldExpert(ExpertPlayer):
    """The expert, told the opponent's real hand (``real``) before each decision."""

    def __init__(self, seed: str, told: str, blur: float) -> None:
        super().__init__(seed=seed)
        self.told, self.blur, self.real = told, blur, 0
        self._in_knock = False
        self._scale: float | None = None

    def decide(self, view):
        self._scale = None
        return super().decide(view)

    def choose_knock(self, view, know, knocks):
        self._in_knock = True
        try:
            return super().choose_knock(view, know, knocks)
        finally:
            self._in_knock = False

    def deals(self, know) -> Deals:
        if self.told == "hand" or (self.told == "knock" and self._in_knock):
            d = Deals.given([self.real] * COPIES)
            d.told = True  # type: ignore[attr-defined]
            return d
        return super().deals(know)

    def deal_scale(self, deals: Deals) -> float:
        if self.told != "mean":
            return 1.0 if getattr(deals, "told", False) else super().deal_scale(deals)
        if not deals.masks:
            return 1.0
        if self._scale is None:
            mean = float(np.dot(deals.norm, deals.deadwood))
            real = deadwood_of_mask(self.real)
            if self.blur:
                real += self.np_rng.normal(0.0, self.blur)
            self._scale = max(0.0, real) / mean if mean > 0 else 1.0
        return self._scale


def play(opponent: str, games: int, seed: int, told: str, blur: float) -> int:
    """Games the told expert wins of ``games``."""
    rules = RuleSet.preset("classic")
    won = 0
    for i in range(games):
        deal = f"arena:{seed}:{i // 2}"
        me = i % 2  # the expert's seat, as the arena seats level A
        players = [None, None]
        players[me] = ToldExpert(f"{deal}:{me}", told, blur)
        players[1 - me] = make_arena_player(opponent, seed=f"{deal}:{1 - me}")
        game = Game(rules, seed=deal)
        while not game.over:
            hand = game.hand
            if hand.over:
                game.apply(NextHand())
                continue
            seat = hand.turn
            players[me].real = hand.masks[1 - me]
            game.apply(players[seat].choose(game.view(seat)))
            if hand.over:
                show_end(game, players)
        won += game.winner == me
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("opponent", choices=arena_names())
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--told", choices=("hand", "knock", "mean"), default="hand")
    parser.add_argument("--blur", type=float, default=0.0, help="error of the told deadwood")
    args = parser.parse_args()
    won = play(args.opponent, args.games, args.seed, args.told, args.blur)
    lo, hi = wilson(won, args.games)
    print(
        f"expert told the {args.told}{f' (blur {args.blur:g})' if args.blur else ''} vs "
        f"{args.opponent}: game win rate {won / args.games:.3f} [{lo:.3f}, {hi:.3f}] "
        f"over {args.games} games"
    )


if __name__ == "__main__":
    main()
