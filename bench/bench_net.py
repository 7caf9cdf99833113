"""Network play figures: the fair deal's CPU (the proof before, now, and the 128-round
alternative), the wait between hands, a move's round trip on loopback, bytes per hand.

Run: ``python bench/bench_net.py [--games N]``. Both seats run in this one process over real
loopback TCP + TLS (so every round trip includes both peers' checks, on one CPU).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gin3d.engine import RuleSet
from gin3d.net import shuffleproof
from gin3d.net.fairdeal import Deal, DealerSecrets
from gin3d.net.group import card_points
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.relay import Relay
from gin3d.net.shuffleproof import ROUNDS, verify_shuffle
from gin3d.players import GreedyPlayer


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


FS_NONCE = bytes(32)  # the prover knows it in advance: the old, forgeable challenge


def _fiat_shamir_shuffle(maker: DealerSecrets, deck_in, context: bytes, step: int) -> dict:
    """Step 1 / 2 as the proof before this one made it: the prover takes its challenge from
    a hash of its own commitment (Fiat-Shamir), the verifier checks it the same way."""
    msg = maker.shuffle_message(deck_in, context, step)
    root = bytes.fromhex(msg["proof"][0])
    opened = maker.answer(step, deck_in, msg, context, FS_NONCE)
    verify_shuffle(deck_in, msg["cards"], msg["commits"][0], root, FS_NONCE, opened, context, step)
    return msg


def bench_crypto(deals: int, rounds: int = ROUNDS, interactive: bool = True) -> list[float]:
    """CPU seconds (this process, all threads: the proof pool's too) of whole deals with every
    proof made and checked, both peers one after the other (no network, nothing ahead)."""
    points = card_points(b"bench-seed".ljust(32, b"."))
    saved, shuffleproof.ROUNDS = shuffleproof.ROUNDS, rounds
    times = []
    try:
        for _ in range(deals):
            start = time.process_time()
            host, guest = DealerSecrets(), DealerSecrets()
            hd = Deal(points, host, context=b"bench", seat=0)
            gd = Deal(points, guest, context=b"bench", seat=1)
            d_in = points
            for step in (1, 2, 3, 4):
                maker, mine, other = (host, hd, gd) if step % 2 else (guest, gd, hd)
                if step >= 3:
                    msg = maker.rekey_message(d_in, b"bench", step)
                    other.accept(step, msg)
                elif interactive:
                    msg = maker.shuffle_message(d_in, b"bench", step)
                    other.accept(step, msg, maker)
                else:
                    msg = _fiat_shamir_shuffle(maker, d_in, b"bench", step)
                    other.add(step, msg)
                mine.add(step, msg)
                d_in = msg["cards"]
            for slot in range(0, 21):  # both players open their 10 cards and the upcard
                opener = hd if slot % 2 else gd
                opener.open_slot(slot, (guest if slot % 2 else host).slot_keys[slot])
            times.append(time.process_time() - start)
    finally:
        shuffleproof.ROUNDS = saved
    return times


class PacedPlayer(GreedyPlayer):
    """The greedy player, taking ``think`` seconds a decision, as a person takes longer: the
    time the next hand's deal has to run ahead (a person's hand lasts a minute or more)."""

    def __init__(self, think: float) -> None:
        super().__init__()
        self.think = think

    async def choose_async(self, view):
        await asyncio.sleep(self.think)
        return self.choose(view)


async def bench_games(games: int, relay: bool, think: float) -> dict:
    deal, first, waits, rtt, hands, total_bytes = [], [], [], [], 0, 0
    server = None
    if relay:
        server = Relay("127.0.0.1", 0)
        await server.start()
    for _ in range(games):
        opts = MatchOptions(relay=("127.0.0.1", server.port)) if relay else MatchOptions()
        host = HostedMatch(PacedPlayer(think), RuleSet(), port=0, options=opts)
        await host.start()
        guest = JoinedMatch(
            PacedPlayer(think),
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
        first.append(host.session.deal_times[0])  # nothing dealt ahead for this one
        waits += host.session.deal_waits + guest.session.deal_waits
        for s in (host.session, guest.session):
            rtt += s.draw_round_trips
        await host.close()
        await guest.close()
    if server is not None:
        await server.close()
    return {
        "deal": deal,
        "first": first,
        "waits": waits,
        "rtt": rtt,
        "hands": hands,
        "bytes": total_bytes,
    }


def _ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:.1f} ms, p99 {pct(values, 0.99) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument(
        "--think", type=float, default=0.1, help="seconds each player takes a decision"
    )
    args = parser.parse_args()
    print(
        f"the deal's CPU per hand, both peers (4 steps proven and checked + 21 cards opened), "
        f"{args.deals} deals each:"
    )
    for label, rounds, interactive in (
        (f"before: Fiat-Shamir, {ROUNDS} rounds (forgeable offline)", ROUNDS, False),
        (f"now: the verifier's challenge, {ROUNDS} rounds", ROUNDS, True),
        ("the alternative: Fiat-Shamir, 128 rounds (128-bit)", 128, False),
    ):
        cpu = bench_crypto(args.deals, rounds, interactive)
        print(f"  {label}: median {statistics.median(cpu) * 1000:.0f} ms CPU")
    for relay in (False, True):
        if args.games < 1:
            break
        r = asyncio.run(bench_games(args.games, relay, args.think))
        route = "relay" if relay else "direct"
        print(
            f"[{route}] {args.games} games to 100 over TLS, {r['hands']} hands, each "
            f"player {args.think * 1000:.0f} ms a decision"
        )
        print(
            f"[{route}]   a hand's result to the next hand's cards open (what a player who "
            f"presses Next hand at once waits; the deal is made during the hand before): "
            f"{_ms(r['waits'])} over {len(r['waits'])} hands (goal: median <= 300 ms"
            f"{' + one round trip' if relay else ''})"
        )
        print(
            f"[{route}]   a game's first hand, dealt on the spot (shuffles, re-keying, every "
            f"proof checked, own cards open): median {statistics.median(r['first']) * 1000:.1f}"
            f" ms; every deal's own time: {_ms(r['deal'])}"
        )
        print(
            f"[{route}]   move round trip (draw stock -> key back): median "
            f"{statistics.median(r['rtt']) * 1000:.2f} ms, p99 {pct(r['rtt'], 0.99) * 1000:.2f}"
            f" ms over {len(r['rtt'])} draws"
        )
        if r["bytes"]:
            print(
                f"[{route}]   bytes per hand (both directions, TLS frames): "
                f"{r['bytes'] / r['hands']:.0f} (goal: <= 65536)"
            )


if __name__ == "__main__":
    main()
