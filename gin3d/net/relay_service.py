"""``gin3d-relay`` as an operator runs it: flags, log lines, ``/healthz`` and ``/metrics``.

``relay.Relay`` does the pairing; this module turns the command line into one node (alone,
or one of many on ``--redis``), logs to stderr one line per event worth reading (a node up,
a pair made, a table listed, a peer sent to another node, the directory failing: never a
code, a claim or a room in the clear), and with ``--metrics-port`` serves the numbers
(``relay_metrics``). docs/net.md, *The service*, is the runbook.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from gin3d import version

from .constants import RELAY_PORT
from .directory import DirectoryError
from .relay import Limits, Relay
from .relay_metrics import PROMETHEUS, MetricsServer, exposition, health_body, labels

log = logging.getLogger("gin3d.relay")


def metrics_text(relay: Relay) -> str:
    """The node's numbers in the Prometheus text format."""
    d = relay.directory
    refused = sorted(relay.refusals.items())  # none yet: the metric has no samples
    series = [
        ("gin3d_relay_info", "gauge", "this node (value 1)", [(_info(relay), 1)]),
        ("gin3d_relay_pairs_total", "counter", "pairs made on this node", [("", relay.pairs)]),
        (
            "gin3d_relay_rooms_open",
            "gauge",
            "peers waiting on this node (hosts and guests)",
            [("", len(relay.waiting))],
        ),
        (
            "gin3d_relay_tables_listed",
            "gauge",
            "public tables this node's hosts have listed",
            [("", relay.tables_here)],
        ),
        (
            "gin3d_relay_refusals_total",
            "counter",
            "requests refused, by reason",
            [(labels(reason=why), n) for why, n in refused],
        ),
        (
            "gin3d_relay_wrong_codes_total",
            "counter",
            "joins whose code matched no waiting host",
            [("", relay.misses)],
        ),
        (
            "gin3d_relay_redirects_total",
            "counter",
            "peers sent to the node where their partner waits",
            [("", relay.redirects)],
        ),
        (
            "gin3d_relay_bytes_forwarded_total",
            "counter",
            "bytes copied between paired peers",
            [("", relay.bytes_forwarded)],
        ),
    ]
    text = exposition(series)
    hist = d.latency.lines("gin3d_relay_redis_seconds")
    head = [
        "# HELP gin3d_relay_redis_seconds round trips to the service's Redis",
        "# TYPE gin3d_relay_redis_seconds histogram",
    ]
    return text + "\n".join(head + hist) + "\n"


def _info(relay: Relay) -> str:
    return labels(version=version(), node=relay.directory.node_id, mode=relay.directory.mode)


def metrics_pages(relay: Relay) -> dict:
    d = relay.directory

    async def health() -> tuple[int, str, str]:
        return await health_body(d.node_id, d.mode, d.ping)

    async def metrics() -> tuple[int, str, str]:
        return 200, PROMETHEUS, metrics_text(relay)

    return {"/healthz": health, "/metrics": metrics}


def main(argv: list[str] | None = None) -> int:
    """``gin3d-relay [--host H] [--port P] [--redis URL] [--metrics-port M] ...``."""
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if not args.quiet else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    limits = Limits(
        line_timeout=args.line_timeout,
        guest_wait=args.guest_wait,
        host_wait=args.host_wait,
        miss_wait=args.miss_wait,
        max_per_address=args.max_per_address,
        max_waiting_per_address=args.max_waiting_per_address,
        tables_per_network=args.tables_per_network,
    )

    async def serve() -> None:
        directory = None
        if args.redis:
            from .redis_directory import RedisDirectory

            directory = RedisDirectory(
                args.redis, node_ttl=args.node_ttl, table_grace=args.table_grace
            )
        relay = Relay(args.host, args.port, limits=limits, directory=directory)
        relay.advertise = args.advertise or ""
        await relay.start()
        metrics = None
        if args.metrics_port is not None:
            metrics = MetricsServer(args.metrics_host, args.metrics_port, metrics_pages(relay))
            try:
                await metrics.start()
            except OSError:
                await relay.close()
                raise
        stop = asyncio.Event()
        with contextlib.suppress(NotImplementedError):  # no signals on this platform
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        mode = f"redis, node {relay.directory.node_id}" if args.redis else "memory"
        print(f"gin3d-relay ({mode}) listening on {args.host}:{relay.port}", flush=True)
        if metrics is not None:
            print(f"health and metrics on http://{metrics.host}:{metrics.port}/", flush=True)
        d = relay.directory
        log.info("node %s up: version %s, %s, at %s", d.node_id, version(), d.mode, relay.advertise)
        try:
            await stop.wait()
        finally:
            log.info("node %s stopping", relay.directory.node_id)
            if metrics is not None:
                await metrics.close()
            await relay.close()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        return 0
    except (OSError, DirectoryError) as exc:
        print(f"gin3d-relay: {exc}", file=sys.stderr)
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gin3d-relay",
        description="Pair gin3d players by join code and forward their "
        "end-to-end encrypted traffic.",
    )
    parser.add_argument("--version", action="version", version=f"gin3d-relay {version()}")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0 for everyone; default 127.0.0.1)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=RELAY_PORT,
        help=f"TCP port (default {RELAY_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="share rooms, tables and limits with other nodes through this Redis "
        "(redis://host:6379/0); without it the node keeps them in memory",
    )
    parser.add_argument(
        "--advertise",
        metavar="HOST:PORT",
        help="where players reach this node (other nodes send guests here; "
        "default the listening address)",
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        metavar="PORT",
        help="serve /healthz and /metrics (Prometheus) over HTTP on this port "
        "(0 picks a free one; default: not served)",
    )
    parser.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        help="address the metrics listen on (default 127.0.0.1: only this machine)",
    )
    parser.add_argument("--quiet", action="store_true", help="log only warnings (no line per pair)")
    defaults = Limits()
    for flag, what, default in (
        ("line-timeout", "seconds a connection has to send its request line", None),
        ("guest-wait", "seconds a guest waits for its host", None),
        ("miss-wait", "seconds a guest with a wrong code waits before it is told", None),
        ("host-wait", "seconds a host waits for its guest (it then registers again)", None),
        ("node-ttl", "with --redis: seconds without a heartbeat before a node is dead", 6.0),
        ("table-grace", "with --redis: seconds a dead node's tables stay listed", 60.0),
    ):
        name = flag.replace("-", "_")
        value = getattr(defaults, name) if default is None else default
        parser.add_argument(
            f"--{flag}", type=float, default=value, help=f"{what} (default {value:g})"
        )
    for flag, what in (
        ("max-per-address", "unpaired connections from one address (a NAT may need more)"),
        ("max-waiting-per-address", "peers waiting from one address"),
        ("tables-per-network", "public tables open from one /24 (IPv4) or /48 (IPv6)"),
    ):
        value = getattr(defaults, flag.replace("-", "_"))
        parser.add_argument(f"--{flag}", type=int, default=value, help=f"{what} (default {value})")
    return parser
