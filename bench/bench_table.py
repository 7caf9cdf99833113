"""Network table figures: a whole three-player game (to 100) and a whole partnership game
(to 125) between computer players, every player in this one process over loopback TLS
(so the host's passing on, every deal's proofs and every check share one CPU budget).

Run: ``python bench/bench_table.py [--games N] [--target N]``. Prints, per kind of table:
the wall time of a game, its hands, and the deal time of a hand (first shuffle to the
player's own cards open) as median and 90th percentile over every hand's match.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gin3d.engine import RuleSet
from gin3d.net.tableguest import TableGuest
from gin3d.net.tablehost import TableHost
from gin3d.players import GreedyPlayer

from .bench_net import pct


async def play_table(players: int, rules: RuleSet) -> tuple[float, int, list[float]]:
    seated: asyncio.Queue[str] = asyncio.Queue()
    host = TableHost(GreedyPlayer(), rules, players, on_note=seated.put_nowait)
    await host.start()
    guests = []
    for _ in range(players - 1):
        guest = TableGuest(GreedyPlayer(), host.code, ("127.0.0.1", host.port))
        await guest.start()
        guests.append(guest)
    start = time.perf_counter()
    tables = [host, *guests]
    ended = await asyncio.gather(*(t.play() for t in tables))
    wall = time.perf_counter() - start
    if {e.reason for e in ended} != {"finished"}:
        raise SystemExit(f"a table did not finish: {[str(e) for e in ended]}")
    deals = [d for t in tables for s in t.sessions for d in s.deal_times]
    hands = len({e["hand"] for e in host.table.log.entries})
    for t in tables:
        await t.close()
    return wall, hands, deals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--target", type=int, default=0, help="instead of 100 / 125")
    args = parser.parse_args()
    for players in (3, 4):
        rules = RuleSet()
        if args.target:
            rules = rules.but(game_target=args.target, partnership_target=args.target)
        target = rules.game_target if players == 3 else rules.partnership_target
        name = f"{'three players' if players == 3 else 'partnership'} to {target}"
        walls, hands, deals = [], [], []
        for _ in range(args.games):
            wall, n, d = asyncio.run(play_table(players, rules))
            walls.append(wall)
            hands.append(n)
            deals += d
        print(
            f"{name}: game {statistics.median(walls):.1f} s median "
            f"({min(walls):.1f}-{max(walls):.1f}), hands {hands}, deal "
            f"{1000 * statistics.median(deals):.0f} ms median, "
            f"{1000 * pct(deals, 0.9):.0f} ms p90 ({len(deals)} deals)"
        )


if __name__ == "__main__":
    main()
