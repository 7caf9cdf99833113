"""Test helper for the save tests: two deterministic computer players and a game loop that
saves after every action, run in-process or as a subprocess that the test kills with SIGKILL.

    python tests/ship_autoplay.py --save FILE --seed S [--hold-at N] [--games K]

``--hold-at N``: after the save holds N actions, print ``held`` and wait on stdin (so the test
kills it at a known point mid-hand). Without it, games are played one after another, the save
rewritten after every action, until the process is killed or K games are done.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gin3d.engine import (  # noqa: E402
    Game,
    RuleSet,
)
from gin3d.players import GreedyPlayer  # noqa: E402
from gin3d.saves import Seat, write_save  # noqa: E402

SEATS = (Seat("human", "Tester"), Seat("computer", "Walt", "simple"))


PLAYERS = (GreedyPlayer(), GreedyPlayer())


def next_action(game: Game, players=PLAYERS):
    """The action the seat to act chooses (NextHand between hands)."""
    legal = game.legal_actions()
    if len(legal) == 1 and game.hand.over:
        return legal[0]
    seat = game.hand.turn
    return players[seat].choose(game.view(seat))


def play(game: Game, steps: int | None = None, on_action=None) -> Game:
    """Play ``steps`` actions (all, to the game's end, if None)."""
    n = 0
    while not game.over and (steps is None or n < steps):
        game.apply(next_action(game))
        n += 1
        if on_action:
            on_action(game)
    return game


def state(game: Game) -> dict:
    """Everything that defines where a game stands."""
    h = game.hand
    return {
        "hands": [list(h.hands[0]), list(h.hands[1])],
        "stock": list(h.stock),
        "pile": list(h.pile),
        "phase": h.phase,
        "turn": h.turn,
        "dealer": h.dealer,
        "hand_number": h.hand_number,
        "table": h.table_melds,
        "score": list(game.score.hands),
        "totals": game.totals(),
        "events": list(game.events),
        "actions": list(game.actions),
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", required=True)
    ap.add_argument("--seed", default="kill")
    ap.add_argument("--hold-at", type=int, default=None)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--preset", default="classic")
    args = ap.parse_args()
    path = Path(args.save)
    rules = RuleSet.preset(args.preset)
    for g in range(args.games):
        game = Game(rules, f"{args.seed}-{g}")
        while not game.over:
            game.apply(next_action(game))
            write_save(game, SEATS, path)
            if args.hold_at is not None and len(game.actions) >= args.hold_at:
                print("held", flush=True)
                sys.stdin.read()
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
