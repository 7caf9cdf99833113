"""Floods a relay and a hosting peer the cheap way and prints what a real player feels.

    python bench/bench_relay_flood.py [--scale 1.0] [--spread 64] [--old-tree DIR]

Relay (``gin3d-relay`` in its own process, default limits): ``1,100 × scale`` connections
send a host's request line and vanish, then ``10,000 × scale`` connections open and say
nothing and stay open; meanwhile a real host and guest pair. Printed: the time the pair
took, and the relay's RSS before, under the flood and after it. Host (a ``HostedMatch`` in
its own process): ``300 × scale`` idle connections that never send a ClientHello; printed:
the host's RSS per idle connection (``--idle N`` to change the count); then the seconds
per hand of a short match between two computer players, without and with a flood of
connections at the host. ``--old-tree DIR`` (a checkout of another version, e.g.
``git archive <rev> gin3d | tar -x -C DIR``) measures that version's host too, for a
before/after figure. The attackers come from ``--spread`` loopback addresses 127.0.1.x (one
machine's limits per address would otherwise stop them at once); the real players from
127.0.0.1. Watch ``ulimit -n``: the bench raises its soft limit to the hard one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not {"--child-host", "--child-match"} & set(
    sys.argv
):  # the child host imports the tree it was given
    sys.path.insert(0, str(ROOT))

LOOP = "127.0.0.1"


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def attacker(i: int, spread: int) -> str:
    return f"127.0.1.{i % spread + 1}"


async def spawn(args: list[str], tree: Path, marker: str) -> tuple[subprocess.Popen, str]:
    """A child process; returns it and its first stdout line holding ``marker``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    while True:
        line = await asyncio.to_thread(proc.stdout.readline)
        if not line:
            raise RuntimeError(f"{args} exited before saying {marker!r}")
        if marker in line.decode():
            return proc, line.decode().strip()


async def _open(port: int, source: str):
    try:
        return await asyncio.open_connection(LOOP, port, local_addr=(source, 0))
    except OSError:
        return None  # refused or out of descriptors: one junk connection fewer


async def vanish(port: int, source: str, magic: str) -> None:
    opened = await _open(port, source)
    if opened is None:
        return
    _, writer = opened
    writer.write(f"{magic} host {secrets.token_hex(32)} {secrets.token_hex(32)}\n".encode())
    try:
        await writer.drain()
    except OSError:
        pass
    writer.close()


async def legit_pair(port: int) -> float:
    from gin3d.net.relay import claim_verifier, relay_connect
    from gin3d.net.transport import make_code, room_claim, room_id

    code = make_code()
    claim = room_claim(code)
    start = time.perf_counter()
    host = asyncio.ensure_future(
        relay_connect(LOOP, port, "host", room_id(code), claim_verifier(claim))
    )
    guest = await asyncio.wait_for(relay_connect(LOOP, port, "guest", room_id(code), claim), 60)
    host_pair = await asyncio.wait_for(host, 60)
    took = time.perf_counter() - start
    for _, w in (guest, host_pair):
        w.close()
    return took


async def bench_relay(scale: float, spread: int) -> None:
    from gin3d.net.relay import MAGIC

    proc, line = await spawn(["-m", "gin3d.net.relay", "--port", "0"], ROOT, "listening")
    port = int(line.rsplit(":", 1)[1])
    try:
        base = rss_mib(proc.pid)
        n_vanish, n_junk = int(1100 * scale), int(10_000 * scale)
        for start in range(0, n_vanish, 100):
            batch = range(start, min(n_vanish, start + 100))
            await asyncio.gather(*(vanish(port, attacker(i, spread), MAGIC) for i in batch))
        junk = []
        for start in range(0, n_junk, 500):
            batch = range(start, min(n_junk, start + 500))
            junk += await asyncio.gather(*(_open(port, attacker(i, spread)) for i in batch))
        held = sum(1 for j in junk if j is not None)
        took = await legit_pair(port)
        flooded = rss_mib(proc.pid)
        for opened in junk:
            if opened is not None:
                opened[1].close()
        await asyncio.sleep(1.0)  # a bench, not a test: let the relay see the closes
        after = rss_mib(proc.pid)
        print(
            f"relay: {n_vanish} register-and-vanish + {n_junk} idle ({held} opened) "
            f"from {spread} addresses: legit pair joined in {took * 1000:.0f} ms"
        )
        print(f"relay RSS: {base:.1f} MiB idle, {flooded:.1f} under the flood, {after:.1f} after")
    finally:
        proc.terminate()
        proc.wait()


async def bench_host(n: int, spread: int, tree: Path, label: str) -> None:
    proc, line = await spawn([str(Path(__file__).resolve()), "--child-host"], tree, "HOSTING")
    port = int(line.split()[1])
    try:
        await asyncio.sleep(0.5)
        base = rss_mib(proc.pid)
        idle = [await _open(port, attacker(i, spread)) for i in range(n)]
        await asyncio.sleep(1.0)  # a bench: let the host take every connection in
        flooded = rss_mib(proc.pid)
        for opened in idle:
            if opened is not None:
                opened[1].close()
        per = (flooded - base) * 1024 / max(1, n)
        print(
            f"host ({label}): {n} idle pre-auth connections: RSS {base:.1f} -> "
            f"{flooded:.1f} MiB, {per:.1f} KiB per idle connection"
        )
    finally:
        proc.terminate()
        proc.wait()


async def bench_match(scale: float, spread: int, tree: Path, label: str, flood: bool) -> None:
    """One short match between two computer players in a child process, direct, while
    (or not) this process floods the host with connections that never finish TLS."""
    proc, line = await spawn([str(Path(__file__).resolve()), "--child-match"], tree, "HOSTING")
    port = int(line.split()[1])
    opened: list = []
    done = asyncio.ensure_future(asyncio.to_thread(proc.stdout.readline))
    i = 0
    try:
        while flood and not done.done():
            batch = await asyncio.gather(*(_open(port, attacker(i + k, spread)) for k in range(20)))
            i += 20
            opened += [b for b in batch if b is not None]
            while len(opened) > int(2000 * scale):
                opened.pop(0)[1].close()
        result = (await done).decode().split()
        seconds, hands = float(result[1]), int(result[2])
        print(
            f"match ({label}, {'with' if flood else 'without'} a flood): "
            f"{seconds / max(1, hands):.2f} s per hand ({hands} hands)"
            + (f", {i} flood connections opened" if flood else "")
        )
    finally:
        for _, w in opened:
            w.close()
        proc.terminate()
        proc.wait()


async def child_match() -> None:
    from gin3d.engine import RuleSet
    from gin3d.net.peer import HostedMatch, JoinedMatch
    from gin3d.players import GreedyPlayer

    host = HostedMatch(GreedyPlayer(), RuleSet.preset("classic", game_target=40), listen=LOOP)
    await host.start()
    print(f"HOSTING {host.port}", flush=True)
    await asyncio.sleep(0.5)  # the parent's flood starts
    start = time.perf_counter()
    guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
    await guest.start()
    await asyncio.gather(host.wait(), guest.wait())
    hands = sum(len(g.hands) for g in host.session.games)
    print(f"MATCH {time.perf_counter() - start:.3f} {hands}", flush=True)
    await asyncio.Event().wait()


async def child_host() -> None:
    from gin3d.engine import RuleSet
    from gin3d.net.peer import HostedMatch
    from gin3d.players import GreedyPlayer

    host = HostedMatch(GreedyPlayer(), RuleSet(), listen=LOOP, port=0)
    await host.start()
    print(f"HOSTING {host.port}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every count")
    parser.add_argument("--spread", type=int, default=64, help="attacker addresses (≤ 250)")
    parser.add_argument("--old-tree", type=Path, help="measure this tree's host too")
    parser.add_argument("--idle", type=int, help="idle connections at the host (300 × scale)")
    parser.add_argument("--child-host", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-match", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_host or args.child_match:
        asyncio.run(child_host() if args.child_host else child_match())
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"file descriptors: soft limit {soft} raised to {hard}")
    spread = max(1, min(250, args.spread))
    asyncio.run(bench_relay(args.scale, spread))
    trees = [(args.old_tree.resolve(), "old tree")] if args.old_tree else []
    trees.append((ROOT, "this tree"))
    for tree, label in trees:
        asyncio.run(bench_host(args.idle or int(300 * args.scale), spread, tree, label))
    for tree, label in trees:
        for flood in (False, True):
            asyncio.run(bench_match(args.scale, spread, tree, label, flood))


if __name__ == "__main__":
    main()
