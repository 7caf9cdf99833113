"""Loads the online service, two relay nodes sharing one Redis, and prints what players feel.

    python bench/bench_service_load.py [--pairs 2000] [--seconds 20] [--spread 64]

A real ``redis-server`` (no persistence, a scratch folder, a free loopback port) and two
``gin3d-relay --redis`` node processes. Load: ``--pairs`` pairs, each host booked on one
node and its guest sent to the other (so half the guests follow a REDIRECT), all held at
once, each pair sending a 200-byte "move" every second and its partner answering it: printed
are the pairing time, the move round trip through the relay (p50 / p99) and the nodes' RSS
per pair. Flood: ``1,100`` register-and-vanish connections and ``10,000`` idle ones spread
over both nodes (from ``--spread`` loopback addresses 127.0.1.x, as in
bench_relay_flood.py), then a legitimate host on one node and guest on the other: printed is
the time they took to pair. Claims are random (the nodes check them by one hash; a real
client's scrypt is its own CPU). The soft ``ulimit -n`` is raised to the hard limit.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service_harness import Node, RedisServer  # noqa: E402

from bench.bench_relay_flood import _open, attacker, rss_mib, vanish  # noqa: E402
from gin3d.net.relay import MAGIC, claim_verifier, relay_connect  # noqa: E402

MOVE = 200  # bytes of one relayed move (a TLS record of a move is about this size)


def proofs() -> tuple[str, str, str]:
    claim = secrets.token_hex(32)
    return secrets.token_hex(32), claim, claim_verifier(claim)


async def pair(host_node: Node, guest_node: Node):
    """One host on ``host_node`` and its guest on ``guest_node``, paired: both streams."""
    room, claim, verifier = proofs()
    host = asyncio.ensure_future(relay_connect(*host_node.address, "host", room, verifier))
    # whichever of the two is booked second is sent to the other's node
    guest = await relay_connect(*guest_node.address, "guest", room, claim, timeout=60)
    return await asyncio.wait_for(host, 60), guest


async def play(streams, until: float, rtts: list[float]) -> None:
    """The host sends a move each second, the guest answers it; round trips in ``rtts``."""
    (h_reader, h_writer), (g_reader, g_writer) = streams
    payload = secrets.token_bytes(MOVE)
    try:
        while time.monotonic() < until:
            start = time.perf_counter()
            h_writer.write(payload)
            await g_reader.readexactly(MOVE)
            g_writer.write(payload)
            await h_reader.readexactly(MOVE)
            rtts.append(time.perf_counter() - start)
            await asyncio.sleep(1.0 - (time.perf_counter() - start) % 1.0)
    except (OSError, asyncio.IncompleteReadError):
        rtts.append(float("inf"))  # a lost pair shows in the p99
    finally:
        h_writer.close()
        g_writer.close()


async def load(nodes: list[Node], n: int, seconds: float) -> None:
    base = sum(rss_mib(node.proc.pid) for node in nodes)
    start = time.perf_counter()
    pairs = []
    for first in range(0, n, 200):
        batch = range(first, min(n, first + 200))
        pairs += await asyncio.gather(*(pair(nodes[i % 2], nodes[1 - i % 2]) for i in batch))
    took = time.perf_counter() - start
    held = sum(rss_mib(node.proc.pid) for node in nodes)
    rtts: list[float] = []
    until = time.monotonic() + seconds
    await asyncio.gather(*(play(p, until, rtts) for p in pairs))
    under = sum(rss_mib(node.proc.pid) for node in nodes)
    ms = sorted(r * 1000 for r in rtts)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"load: {n} pairs across 2 nodes paired in {took:.1f} s ({n / took:.0f} pairs/s)")
    lost = sum(r == float("inf") for r in ms)
    print(
        f"load: {len(ms)} move round trips in {seconds:.0f} s: p50 "
        f"{statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, pairs lost {lost}"
    )
    print(
        f"load: nodes' RSS {base:.1f} MiB idle, {held:.1f} holding the pairs, {under:.1f} "
        f"with moves flowing: {(under - base) * 1024 / n:.1f} KiB per pair"
    )


async def flood(nodes: list[Node], spread: int) -> None:
    ports = [node.port for node in nodes]
    for first in range(0, 1100, 100):
        await asyncio.gather(
            *(vanish(ports[i % 2], attacker(i, spread), MAGIC) for i in range(first, first + 100))
        )
    junk = []
    for first in range(0, 10_000, 500):
        batch = range(first, first + 500)
        junk += await asyncio.gather(*(_open(ports[i % 2], attacker(i, spread)) for i in batch))
    start = time.perf_counter()
    streams = await asyncio.wait_for(pair(nodes[0], nodes[1]), 60)
    took = time.perf_counter() - start
    for opened in (*junk, *streams):
        if opened is not None:
            opened[1].close()
    held = sum(j is not None for j in junk)
    print(
        f"flood: 1100 register-and-vanish + 10000 idle ({held} opened) over 2 nodes from "
        f"{spread} addresses: a legit host on A and guest on B paired in {took * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2000, help="pairs held at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long moves flow")
    parser.add_argument("--spread", type=int, default=64, help="attacker addresses (≤ 250)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the nodes inherit it
    print(f"file descriptors: soft limit {soft} raised to {hard}")
    with tempfile.TemporaryDirectory(prefix="gin3d-bench-") as scratch:
        redis = RedisServer(Path(scratch))
        nodes = []
        try:
            # the load's players all come from 127.0.0.1: its per-address limits lifted
            lifted = ("--max-per-address", "100000", "--max-waiting-per-address", "100000")
            nodes = [Node(Path(scratch), redis.url, name, lifted) for name in "AB"]
            asyncio.run(load(nodes, args.pairs, args.seconds))
            for node in nodes:  # the flood meets the default limits
                node.flags = ()
                node.restart()
            asyncio.run(flood(nodes, max(1, min(250, args.spread))))
        finally:
            for node in nodes:
                node.stop()
            redis.stop()


if __name__ == "__main__":
    main()
