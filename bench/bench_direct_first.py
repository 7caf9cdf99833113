"""How long a code-only join takes, direct first, when the host's published address works
and when it does not (one relay node in this process, loopback only).

    python bench/bench_direct_first.py [--runs 3] [--timeout 4.0]

Printed for each case, the seconds from ``JoinedMatch.start()`` to a running match and the
route: the host's published port open (direct), closed (refused at once: relay), and
closed with a silent extra address that accepts and never answers (the guest waits out
``--timeout``, ``DIRECT_TIMEOUT`` by default, then the relay).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gin3d.engine import RuleSet  # noqa: E402
from gin3d.net.constants import DIRECT_TIMEOUT  # noqa: E402
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions  # noqa: E402
from gin3d.net.relay import Relay  # noqa: E402
from gin3d.players import GreedyPlayer  # noqa: E402

CASES = (("published, open", False, False), ("published, closed", True, False))
CASES += (("closed + silent", True, True),)


async def join(close_direct: bool, silent: bool, timeout: float) -> tuple[str, float]:
    relay = Relay("127.0.0.1", 0)
    await relay.start()
    held: list = []

    async def hold(reader, writer):
        held.append(writer)
        await reader.read()

    quiet = await asyncio.start_server(hold, "127.0.0.1", 0)

    def options() -> MatchOptions:
        node = ("127.0.0.1", relay.port)
        return MatchOptions(relay=node, direct_first=True, direct_timeout=timeout)

    host = HostedMatch(GreedyPlayer(), RuleSet.preset("classic", game_target=30), options=options())
    if silent:
        host.external = [f"127.0.0.1:{quiet.sockets[0].getsockname()[1]}"]
    await host.start()
    while not host.public_ip:  # registered and published
        await asyncio.sleep(0.01)
    if close_direct:
        host.server.close()
    guest = JoinedMatch(GreedyPlayer(), host.code, options=options())
    began = time.monotonic()
    await guest.start()
    took = time.monotonic() - began
    await guest.close()
    await host.close()
    quiet.close()
    for writer in held:
        writer.close()
    await relay.close()
    return guest.route, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=DIRECT_TIMEOUT)
    args = parser.parse_args()
    for label, close_direct, silent in CASES:
        runs = [asyncio.run(join(close_direct, silent, args.timeout)) for _ in range(args.runs)]
        times = ", ".join(f"{t:.2f}" for _, t in runs)
        print(f"{label:18s} route {runs[0][0]:6s} join s: {times}")


if __name__ == "__main__":
    main()
