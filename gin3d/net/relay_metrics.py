"""What a relay node tells its operator: ``/healthz`` and ``/metrics`` over plain HTTP.

A node started with ``--metrics-port`` also listens there (loopback unless told otherwise:
the numbers are for the operator's scraper, not for players). ``/healthz`` answers 200 with
``ok`` while the node serves and its directory (Redis) answers, else 503, as one JSON object;
``/metrics`` is the Prometheus text exposition format (version 0.0.4): counters of pairs,
refusals by reason, wrong codes, redirects and bytes, gauges of the peers waiting here and
the public tables listed, and a histogram of Redis round trips. Written on asyncio alone, so
a node needs no web framework.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

# seconds: a Redis round trip on one host is well under a millisecond; a slow one is news
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
REQUEST_LIMIT = 8192  # bytes of an HTTP request head we read
REQUEST_TIMEOUT = 5.0


@dataclass
class Histogram:
    """Cumulative buckets of observed seconds, as Prometheus keeps them."""

    bounds: tuple[float, ...] = LATENCY_BUCKETS
    counts: list[int] = field(default_factory=list)
    total: float = 0.0
    n: int = 0

    def __post_init__(self) -> None:
        self.counts = [0] * (len(self.bounds) + 1)

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, seconds)] += 1
        self.total += seconds
        self.n += 1

    def lines(self, name: str) -> list[str]:
        out, running = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts):
            running += count
            le = "+Inf" if bound == float("inf") else repr(bound)
            out.append(f'{name}_bucket{{le="{le}"}} {running}')
        return [*out, f"{name}_sum {self.total!r}", f"{name}_count {self.n}"]


def reason_label(why: str) -> str:
    """A refusal's words as a metric label: lower case, no numbers or quoted input (so a
    stranger's request cannot mint new series), at most 48 characters."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|[0-9.]+", " ", why.split(":")[0].lower())
    return re.sub(r"[^a-z]+", "_", text).strip("_")[:48] or "other"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def exposition(metrics: list[tuple[str, str, str, list[tuple[str, float]]]]) -> str:
    """``(name, type, help, [(labels, value), ...])`` in the text exposition format."""
    out = []
    for name, kind, text, samples in metrics:
        out += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
        for labels, value in samples:
            out.append(f"{name}{labels} {value:g}" if isinstance(value, int | float) else value)
    return "\n".join(out) + "\n"


def labels(**pairs: str) -> str:
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in pairs.items()) + "}"


Page = Callable[[], Awaitable[tuple[int, str, str]]]  # -> (status, content type, body)

STATUS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"}
PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8"


async def health_body(node: str, mode: str, ping: Callable[[], Awaitable[float]]) -> tuple:
    """``/healthz``: (status, type, JSON) with whether the directory answered, and how fast."""
    report: dict = {"ok": True, "node": node, "mode": mode}
    try:
        seconds = await asyncio.wait_for(ping(), 2.0)
    except (ConnectionError, OSError, asyncio.TimeoutError):
        report.update(ok=False, redis="unreachable")
    else:
        if mode == "redis":
            report.update(redis="reachable", redis_ms=round(seconds * 1000, 3))
        else:
            report.update(redis="not used")
    return (200 if report["ok"] else 503), "application/json", json.dumps(report) + "\n"


class MetricsServer:
    """The node's HTTP side: ``pages`` maps a path to what answers it."""

    def __init__(self, host: str, port: int, pages: dict[str, Page]) -> None:
        self.host, self.port, self.pages = host, port, pages
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.close()
            return
        except OSError:
            writer.close()
            return
        words = head[:REQUEST_LIMIT].split(b"\r\n", 1)[0].decode("ascii", "replace").split()
        method, path = (words + ["", ""])[:2]
        page = self.pages.get(path.split("?", 1)[0])
        if method not in ("GET", "HEAD"):
            status, kind, body = 405, "text/plain", "GET only\n"
        elif page is None:
            status, kind, body = 404, "text/plain", "not found: try /healthz or /metrics\n"
        else:
            status, kind, body = await page()
        data = body.encode()
        writer.write(
            f"HTTP/1.1 {status} {STATUS[status]}\r\nContent-Type: {kind}\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + (data if method == "GET" else b"")
        )
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()


def timed() -> Callable[[], float]:
    """A stopwatch: call the result for the seconds since."""
    start = time.perf_counter()
    return lambda: time.perf_counter() - start
