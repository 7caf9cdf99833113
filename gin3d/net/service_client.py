"""A player's side of the online service: is it there, which public tables are open, open
one, join one, quick match. Pure asyncio (no Panda3D), so the game's screens can call it.

``service`` is what the player typed: one ``host:port`` or the service's nodes as
``host:port,host:port`` (or the ``(host, port)`` list ``MatchOptions.relay`` takes). A
question goes to the first node that answers; a match keeps the whole list, so a host or
guest whose node dies carries on through the next (docs/net.md, *The service*).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gin3d.engine import RuleSet

from .constants import NO_ANSWER, RELAY_PORT
from .directory import PUBLIC_PRESETS, TABLES_SHOWN, Table, decode_name
from .peer import HostedMatch, JoinedMatch, MatchOptions
from .protocol import PROTOCOL_VERSION
from .relay import MAGIC, relay_nodes, unreachable_why
from .session import Player
from .transport import normalize_code, parse_relays

Service = str | tuple[str, int] | Sequence[tuple[str, int]]
QUICK_TRIES = 3  # tables quick match tries to join before it opens one


class ServiceError(ConnectionError):
    """The service could not be reached or refused the question (the message says why)."""


@dataclass(frozen=True)
class Probe:
    """What ``probe`` found: ``ok`` when a node answered; ``compatible`` when it speaks this
    game's protocol."""

    ok: bool
    address: str = ""  # the node that answered
    relay_protocol: str = ""  # e.g. GIN3D-RELAY/2
    protocol: int = 0  # the game protocol it serves
    node: str = ""
    mode: str = ""  # memory (one node) or redis (one of many)
    error: str = ""

    @property
    def compatible(self) -> bool:
        return self.ok and self.relay_protocol == MAGIC and self.protocol == PROTOCOL_VERSION


def service_nodes(service: Service) -> list[tuple[str, int]]:
    """The nodes of ``service``; ValueError says what is wrong with a typed address."""
    nodes = relay_nodes(parse_relays(service, RELAY_PORT) if isinstance(service, str) else service)
    if not nodes:
        raise ValueError("give the service as host:port (or several, comma-separated)")
    return nodes


async def _ask(service: Service, question: str, timeout: float) -> tuple[str, list[str]]:
    """The first node that answers ``question`` (host:port), and its answer lines."""
    errors = []
    for host, port in service_nodes(service):
        try:
            return f"{host}:{port}", await asyncio.wait_for(
                _ask_node(host, port, question), timeout
            )
        except (OSError, asyncio.TimeoutError, asyncio.LimitOverrunError, ValueError) as exc:
            errors.append(f"{host}:{port}: {unreachable_why(exc)}")
    raise ServiceError(NO_ANSWER + "; ".join(errors))


async def _ask_node(host: str, port: int, question: str) -> list[str]:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"{MAGIC} {question}\n".encode())
        lines = []
        while len(lines) <= TABLES_SHOWN + 1:
            raw = await reader.readline()
            if not raw:
                break
            lines.append(raw.decode("utf-8", "replace").strip())
            if lines[-1] in ("END", "NONE") or not lines[-1].startswith("TABLE "):
                break
        return lines
    finally:
        writer.close()


def _refused(lines: list[str]) -> None:
    if not lines:
        raise ServiceError("the service closed without an answer")
    if lines[0].startswith("REFUSED "):
        raise ServiceError(f"the service said: {lines[0][8:108]}")


async def probe(service: Service, timeout: float = 5.0) -> Probe:
    """Whether the service answers, and which protocols it speaks; never raises."""
    try:
        address, lines = await _ask(service, "hello", timeout)
        _refused(lines)
        word, relay_protocol, protocol, node, mode = lines[0].split()
        if word != "SERVICE":
            raise ValueError(lines[0][:80])
        return Probe(True, address, relay_protocol, int(protocol), node, mode)
    except (ServiceError, ValueError) as exc:
        return Probe(False, error=str(exc) or "not a gin3d service")


def parse_table(line: str, now: float | None = None) -> Table:
    """A ``TABLE`` line (``directory.Table.line``) as a ``Table``; ValueError when bad."""
    parts = line.split()
    if len(parts) != 8 or parts[0] != "TABLE":
        raise ValueError(f"not a table: {line[:80]!r}")
    _, table_id, preset, target, waiting, code, fingerprint, name = parts
    if preset not in PUBLIC_PRESETS or len(table_id) != 64 or len(fingerprint) != 64:
        raise ValueError(f"not a table: {line[:80]!r}")
    since = (time.time() if now is None else now) - int(waiting)
    return Table(
        table_id, decode_name(name), preset, int(target), normalize_code(code), fingerprint, since
    )


@dataclass(frozen=True)
class TablePage:
    """One page of the service's open tables: ``tables`` from ``offset``, of ``total``."""

    tables: list[Table]
    offset: int
    total: int

    @property
    def more(self) -> bool:
        return self.offset + len(self.tables) < self.total


async def table_page(
    service: Service,
    preset: str | None = None,
    offset: int = 0,
    count: int = TABLES_SHOWN,
    timeout: float = 5.0,
) -> TablePage:
    """``count`` open public tables from ``offset`` (of ``preset``, or all), in the
    service's order: each network's longest-waiting table first, the newest of those first
    (``directory.fair_order``); bad lines are skipped."""
    if preset is not None and preset not in PUBLIC_PRESETS:
        raise ValueError(f"unknown preset {preset!r} (choose from {', '.join(PUBLIC_PRESETS)})")
    if not (0 <= offset and 1 <= count <= TABLES_SHOWN):
        raise ValueError(f"a page is 1..{TABLES_SHOWN} tables from an offset of 0 or more")
    _, lines = await _ask(service, f"list {preset or 'all'} {offset} {count}", timeout)
    _refused(lines)
    tables = []
    for line in lines:
        try:
            tables.append(parse_table(line))
        except ValueError:
            continue
    end = lines[-1].split()
    total = int(end[1]) if end[:1] == ["END"] and len(end) == 2 and end[1].isdigit() else 0
    return TablePage(tables, offset, max(total, offset + len(tables)))


async def list_tables(
    service: Service, preset: str | None = None, timeout: float = 5.0
) -> list[Table]:
    """The first page of open public tables (of ``preset``, or all): ``table_page``."""
    return (await table_page(service, preset, timeout=timeout)).tables


def _options(service: Service, options: MatchOptions | None) -> MatchOptions:
    return replace(options or MatchOptions(), relay=service_nodes(service))


async def open_table(
    service: Service, player: Player, rules: RuleSet, options: MatchOptions | None = None
) -> HostedMatch:
    """Host a public table, listed under ``options.name`` while it waits for a guest. The
    table's join code is public: the safety code is what shows nobody sits in between."""
    host = HostedMatch(player, rules, options=_options(service, options), listed=True)
    await host.start()
    return host


async def join_table(
    service: Service, table: Table, player: Player, options: MatchOptions | None = None
) -> JoinedMatch:
    """Join a listed table; the host must show the certificate the listing names."""
    guest = JoinedMatch(player, table.code, options=_options(service, options))
    guest.peer_fingerprint = table.fingerprint
    await guest.start()
    return guest


async def quick_match(
    service: Service,
    player: Player,
    preset: str = "classic",
    options: MatchOptions | None = None,
    timeout: float = 5.0,
    own_table: str = "",
) -> HostedMatch | JoinedMatch:
    """Join the oldest waiting table of ``preset`` (each one is handed to one player at a
    time; never ``own_table``, the id of one we have open), or, when there is none (or
    none could be joined), open one with its rules."""
    if preset not in PUBLIC_PRESETS or preset == "custom":
        raise ValueError(f"quick match needs a preset: {', '.join(PUBLIC_PRESETS[:-1])}")
    question = f"quick {preset} {own_table}".strip()
    for _ in range(QUICK_TRIES):
        _, lines = await _ask(service, question, timeout)
        _refused(lines)
        if lines[0] == "NONE":
            break
        try:
            return await join_table(service, parse_table(lines[0]), player, options)
        except (ConnectionError, ValueError):
            continue  # its host left meanwhile: the next one
    return await open_table(service, player, RuleSet.preset(preset), options)
