"""Network play figures: the fair deal's time (with its proofs), a move's round trip on
loopback, bytes per hand.

Run: ``python bench/bench_net.py [--games N]``. Both seats run in this one process over real
loopback TCP + TLS (so every round trip includes both peers' checks, on one CPU).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gin3d.engine import RuleSet
from gin3d.net.fairdeal import Deal, DealerSecrets, card_points
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.relay import Relay
from gin3d.players import GreedyPlayer


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_crypto(rounds: int) -> list[float]:
    """The whole deal with every proof made and checked, as both peers compute it one after
    the other (no network; each proof on the 2-core pool; no precomputed step 1)."""
    points = card_points(b"bench-seed".ljust(32, b"."))
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        host, guest = DealerSecrets(), DealerSecrets()
        hd = Deal(points, host, context=b"bench", seat=0)
        gd = Deal(points, guest, context=b"bench", seat=1)
        d_in = points
        for step in (1, 2, 3, 4):
            maker, mine, other = (host, hd, gd) if step % 2 else (guest, gd, hd)
            msg = (
                maker.shuffle_message(d_in, b"bench", step)
                if step < 3
                else maker.rekey_message(d_in, b"bench", step)
            )
            mine.add(step, msg)
            other.accept(step, msg)
            d_in = msg["cards"]
        for slot in range(0, 21):  # both players open their 10 cards and the upcard
            (hd if slot % 2 else gd).open_slot(slot, (guest if slot % 2 else host).slot_keys[slot])
        times.append(time.perf_counter() - start)
    return times


async def bench_games(games: int, relay: bool) -> dict:
    deal, first, rtt, hands, total_bytes = [], [], [], 0, 0
    server = None
    if relay:
        server = Relay("127.0.0.1", 0)
        await server.start()
    for _ in range(games):
        opts = MatchOptions(relay=("127.0.0.1", server.port)) if relay else MatchOptions()
        host = HostedMatch(GreedyPlayer(), RuleSet(), port=0, options=opts)
        await host.start()
        guest = JoinedMatch(
            GreedyPlayer(),
            host.code,
            direct=None if relay else ("127.0.0.1", host.port),
            options=MatchOptions(relay=opts.relay),
        )
        await guest.start()
        await asyncio.gather(host.wait(), guest.wait())
        link = guest.session.link
        if link is not None:
            total_bytes += link.bytes_sent + link.bytes_received
        hands += sum(len(g.hands) for g in host.session.games)
        deal += host.session.deal_times  # the host's clock runs from the first shuffle
        first.append(host.session.deal_times[0])  # no step 1 computed ahead for this one
        for s in (host.session, guest.session):
            rtt += s.draw_round_trips
        await host.close()
        await guest.close()
    if server is not None:
        await server.close()
    return {"deal": deal, "first": first, "rtt": rtt, "hands": hands, "bytes": total_bytes}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    crypto = bench_crypto(args.deals)
    print(
        f"deal with proofs, crypto only (4 steps proven and checked + 21 cards opened), "
        f"{args.deals} deals: median {statistics.median(crypto) * 1000:.1f} ms, "
        f"max {max(crypto) * 1000:.1f} ms"
    )
    for relay in (False, True):
        r = asyncio.run(bench_games(args.games, relay))
        route = "relay" if relay else "direct"
        print(f"[{route}] {args.games} games to 100, {r['hands']} hands")
        print(
            f"[{route}]   deal with proofs incl. network (shuffles, re-keying, every proof "
            f"checked, own cards open): median {statistics.median(r['deal']) * 1000:.1f} ms, "
            f"p99 {pct(r['deal'], 0.99) * 1000:.1f} ms, first hand of each game "
            f"{statistics.median(r['first']) * 1000:.1f} ms (budget 500 ms median)"
        )
        print(
            f"[{route}]   move round trip (draw stock -> key back): median "
            f"{statistics.median(r['rtt']) * 1000:.2f} ms, p99 {pct(r['rtt'], 0.99) * 1000:.2f}"
            f" ms over {len(r['rtt'])} draws"
        )
        if r["bytes"]:
            print(
                f"[{route}]   bytes per hand (both directions, TLS frames): "
                f"{r['bytes'] / r['hands']:.0f}"
            )


if __name__ == "__main__":
    main()
