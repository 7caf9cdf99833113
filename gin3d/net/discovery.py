"""Finding tables on the LAN with mDNS / DNS-SD (the ``zeroconf`` package).

A host advertises ``<table name>._gin3d._tcp.local.`` with TXT entries ``name`` (table name),
``v`` (protocol version), ``fp`` (the host's certificate fingerprint), ``open`` (1 when
anyone may join without a code), ``rules`` (the host's rules, ``offer.rules_token``) and
``resume`` (1 when the table is a saved match waiting for its own opponent: no one else
can sit there, so the join list leaves it out) and ``players`` (3 or 4 for a table of three
or of four in two teams, ``table.TablePeer``; absent for two).
A joining player's ``TableBrowser`` keeps a live list of the tables it hears and calls back
on every change; ``Table.compatible`` tells the screen which ones it can join;
``find_table`` looks for one host by its fingerprint (a saved match's opponent, whose
address may have changed since). Anything malformed in an advertisement is ignored, never
trusted: a table found by fingerprint is still checked by the TLS handshake.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gin3d.engine import RuleSet

from .offer import rules_from_token, rules_token
from .protocol import PROTOCOL_VERSION

SERVICE = "_gin3d._tcp.local."
_FP = re.compile(r"[0-9a-f]{64}\Z")


@dataclass(frozen=True)
class Table:
    """One open table as heard on the LAN."""

    key: str  # the service instance name (stable while the table is up)
    name: str
    address: str
    port: int
    version: int
    fingerprint: str
    open: bool  # joinable without a code (the code is derived from the fingerprint)
    rules: RuleSet | None = None  # what the host offers (None: not advertised or unreadable)
    resume: bool = False  # a saved match waiting for its own opponent to come back
    players: int = 2  # 3 or 4: a table of three, or of four in two teams

    @property
    def compatible(self) -> bool:
        return self.version == PROTOCOL_VERSION


def _zeroconf_mod():
    try:
        import zeroconf
        import zeroconf.asyncio
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError(
            "LAN discovery needs the 'zeroconf' package (pip install zeroconf)"
        ) from exc
    return zeroconf


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())[:40]
    return name or "gin3d table"


def table_from_info(info) -> Table | None:
    """A Table from a resolved ``ServiceInfo``; None if anything in it is off."""
    try:
        props = {k.decode(): (v or b"").decode() for k, v in (info.properties or {}).items()}
        addresses = info.parsed_addresses()
        version = int(props.get("v", ""))
        fp = props.get("fp", "")
        players = int(props.get("players") or 2)
        if not addresses or not _FP.match(fp) or not 0 < int(info.port or 0) < 65536:
            return None
        if players not in (2, 3, 4):
            return None
        try:
            rules = rules_from_token(props["rules"]) if props.get("rules") else None
        except ValueError:
            rules = None  # listed, but its rules are not shown (nor trusted)
        return Table(
            info.name,
            _clean_name(props.get("name", "")),
            addresses[0],
            int(info.port),
            version,
            fp,
            props.get("open") == "1",
            rules,
            props.get("resume") == "1",
            players,
        )
    except (ValueError, UnicodeDecodeError, AttributeError, TypeError):
        return None


class TableAdvertiser:
    """Announce a hosted table on the LAN until ``close``."""

    def __init__(
        self,
        name: str,
        port: int,
        fingerprint: str,
        addresses: Sequence[str],
        open_table: bool = True,
        interfaces: Sequence[str] | None = None,
        version: int = PROTOCOL_VERSION,
        rules: RuleSet | None = None,
        resume: bool = False,
        players: int = 2,
    ) -> None:
        if not addresses:
            raise ValueError("advertise at least one address")
        self.name = _clean_name(name)
        self.port = port
        self.fingerprint = fingerprint
        self.addresses = list(addresses)
        self.open_table = open_table
        self.interfaces = list(interfaces) if interfaces else None
        self.version = version
        self.rules = rules
        self.resume = resume
        self.players = players
        self.azc = None
        self.info = None

    async def start(self) -> None:
        zc = _zeroconf_mod()
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        instance = re.sub(r"[^A-Za-z0-9 _-]", "", self.name)[:30] or "gin3d"
        self.info = AsyncServiceInfo(
            SERVICE,
            f"{instance} {self.fingerprint[:8]}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=self.port,
            properties={
                "name": self.name,
                "v": str(self.version),
                "fp": self.fingerprint,
                "open": "1" if self.open_table else "0",
                **({"rules": rules_token(self.rules)} if self.rules else {}),
                **({"resume": "1"} if self.resume else {}),
                **({"players": str(self.players)} if self.players != 2 else {}),
            },
            server=f"gin3d-{self.fingerprint[:12]}.local.",
        )
        self.azc = AsyncZeroconf(
            interfaces=self.interfaces or zc.InterfaceChoice.All, ip_version=zc.IPVersion.V4Only
        )
        # the first await registers; the task it returns finishes the announcements
        await (await self.azc.async_register_service(self.info))

    async def close(self) -> None:
        if self.azc is not None:
            # wait for the goodbye packets to go out, or browsers keep the table listed
            await (await self.azc.async_unregister_service(self.info))
            await self.azc.async_close()
            self.azc = None


class TableBrowser:
    """A live list of tables on the LAN; ``on_change(tables)`` fires on every change."""

    def __init__(
        self,
        on_change: Callable[[list[Table]], None] | None = None,
        interfaces: Sequence[str] | None = None,
    ) -> None:
        self.on_change = on_change
        self.interfaces = list(interfaces) if interfaces else None
        self.tables: dict[str, Table] = {}
        self.azc = None
        self.browser = None
        self._tasks: set[asyncio.Task] = set()
        self.changed = asyncio.Event()

    async def start(self) -> None:
        zc = _zeroconf_mod()
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        self.azc = AsyncZeroconf(
            interfaces=self.interfaces or zc.InterfaceChoice.All, ip_version=zc.IPVersion.V4Only
        )
        self.browser = AsyncServiceBrowser(self.azc.zeroconf, SERVICE, handlers=[self._on_service])

    def _on_service(self, zeroconf, service_type: str, name: str, state_change) -> None:
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._changed()
            return
        task = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(SERVICE, name)
        if not await info.async_request(self.azc.zeroconf, 3000):
            return
        table = table_from_info(info)
        if table is not None and self.tables.get(name) != table:
            self.tables[name] = table
            self._changed()

    def _changed(self) -> None:
        self.changed.set()
        if self.on_change is not None:
            self.on_change(self.list())

    def list(self) -> list[Table]:
        return sorted(self.tables.values(), key=lambda t: (t.name, t.key))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.browser is not None:
            await self.browser.async_cancel()
        if self.azc is not None:
            await self.azc.async_close()
            self.azc = None


async def find_table(
    fingerprint: str, interfaces: Sequence[str] | None = None, timeout: float = 4.0
) -> Table | None:
    """The table advertised on the LAN by the host with this certificate fingerprint, or
    None if none is heard within ``timeout`` seconds."""
    browser = TableBrowser(interfaces=interfaces)
    await browser.start()
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for table in browser.list():
                if table.fingerprint == fingerprint and table.compatible:
                    return table
            left = deadline - loop.time()
            if left <= 0:
                return None
            browser.changed.clear()
            try:
                await asyncio.wait_for(browser.changed.wait(), left)
            except asyncio.TimeoutError:
                return None
    finally:
        await browser.close()
