"""What relay nodes share: who waits where, open public tables, and the limits on strangers.

A relay node keeps the sockets it serves; everything the nodes of one service must agree on
goes through a ``Directory``: bookings (a peer waiting as host or guest under its verifier,
and on which node), the verifiers of the hosts waiting in a room (a wrong code is a claim
that matches none of them), per-address slots and wrong-code budgets, and the public tables.
``MemoryDirectory`` serves one node alone (the default); ``redis_directory.RedisDirectory``
lets any number of nodes serve one population through one Redis (docs/net.md, *The
service*). Both answer the same questions with the same meaning, so the relay's logic is
written once.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from gin3d.engine.rules import PRESETS

from .limits import Budget, Slots
from .relay_metrics import Histogram

NAME_LIMIT = 24  # characters of a table's host name that are shown
NAME_WIRE_LIMIT = 128  # base64 characters of a name on the wire (96 bytes of UTF-8)
CLAIM_S = 15.0  # a table handed out by quick match is not handed out again for this long
TABLES_SHOWN = 50  # tables one list answer holds
TOO_MANY_HERE = "too many tables are open from your network: try again later"
PUBLIC_PRESETS = (*PRESETS, "custom")


class DirectoryError(ConnectionError):
    """The shared directory could not be reached: the node refuses, nothing changes."""


@dataclass(frozen=True)
class Booked:
    """The directory's answer to a booking: ``booked`` (wait here), or ``redirect`` to the
    node (``address``) where the partner, or another peer with the same key, waits."""

    outcome: str
    address: str = ""


BOOKED = Booked("booked")


@dataclass(frozen=True)
class Table:
    """An open public table as listed: the host waits at the relay under ``table_id`` (its
    verifier); ``code`` is the table's public join code and ``fingerprint`` the host's
    certificate, which a guest pins."""

    table_id: str
    name: str
    preset: str
    target: int
    code: str
    fingerprint: str
    since: float  # when the host first opened it (seconds since the epoch)

    def waiting_s(self, now: float | None = None) -> int:
        return max(0, int((time.time() if now is None else now) - self.since))

    def line(self, now: float | None = None) -> str:
        """``TABLE <id> <preset> <target> <waiting_s> <code> <fingerprint> <name-b64>``."""
        return (
            f"TABLE {self.table_id} {self.preset} {self.target} {self.waiting_s(now)} "
            f"{self.code} {self.fingerprint} {encode_name(self.name)}"
        )

    def fields(self) -> dict[str, str]:
        return {
            "name": self.name,
            "preset": self.preset,
            "target": str(self.target),
            "code": self.code,
            "fingerprint": self.fingerprint,
            "since": repr(self.since),
        }

    @classmethod
    def from_fields(cls, table_id: str, data: dict[str, str]) -> Table:
        return cls(
            table_id,
            data["name"],
            data["preset"],
            int(data["target"]),
            data["code"],
            data["fingerprint"],
            float(data["since"]),
        )


def clean_name(text: str) -> str:
    """A host's name as others see it: no control, format (bidi overrides, zero-width) or
    unassigned characters, runs of spaces made one, at most ``NAME_LIMIT`` characters."""
    spaced = (" " if ch.isspace() else ch for ch in text)  # a tab or newline: a space
    kept = "".join(ch for ch in spaced if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())[:NAME_LIMIT].strip() or "player"


def encode_name(name: str) -> str:
    """A name on the wire: base64url of its UTF-8, unpadded (no spaces in a line)."""
    raw = clean_name(name).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=") or "-"


def decode_name(text: str) -> str:
    """``encode_name`` undone and cleaned again (the other side may not have cleaned it)."""
    if len(text) > NAME_WIRE_LIMIT:
        raise ValueError("the name is too long")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("the name is not base64url") from None
    return clean_name(raw.decode("utf-8", "replace"))


class Directory(Protocol):
    """The state relay nodes share (see the module docstring). Every method may raise
    ``DirectoryError``; the node then refuses the request and nothing changes."""

    node_id: str
    mode: str  # "memory" or "redis": what ``hello`` answers
    latency: Histogram  # round trips to the shared store (none in memory)

    async def start(self, address: str, on_miss: Callable[[str], None]) -> None:
        """Serve as the node reachable at ``address``; ``on_miss(verifier)`` is called when
        another node saw a wrong code for a host waiting here."""

    async def close(self) -> None: ...

    async def ping(self) -> float:
        """Seconds one round trip to the shared store takes (``DirectoryError``: none)."""

    async def take_slot(self, kind: str, address: str, cap: int) -> bool:
        """One more of ``kind`` (``live``, ``waiting``) for ``address``, if under ``cap``."""

    async def give_slot(self, kind: str, address: str) -> None: ...

    async def budget_left(self, name: str, key: str, rate: tuple[int, float]) -> float:
        """Tries ``key`` may still make in budget ``name`` (``rate``: burst, seconds each)."""

    async def spend(self, name: str, key: str, rate: tuple[int, float]) -> None: ...

    async def take(self, name: str, key: str, rate: tuple[int, float]) -> bool:
        """One try from ``key``'s budget at once, if it has one (check and spend in one
        step: requests at the same moment cannot all pass a check made before any spends)."""

    async def refund(self, name: str, key: str, rate: tuple[int, float]) -> None:
        """Give back a try ``take`` took (the try was not what the budget counts)."""

    async def book(self, role: str, room: str, key: str) -> Booked:
        """Wait here as ``role`` with ``key`` (the host's verifier), unless the partner or
        another peer with this key waits on another live node: then ``redirect`` there."""

    async def unbook(self, role: str, room: str, key: str) -> None: ...

    async def hosts_in(self, room: str) -> list[tuple[str, str]]:
        """``(verifier, node_id)`` of the hosts waiting in ``room``, on live nodes."""

    async def tell_miss(self, node_id: str, verifier: str) -> None:
        """Tell the node where ``verifier``'s host waits that a guest missed its room."""

    async def publish(self, verifier: str, direct: list[str]) -> None:
        """While ``verifier``'s host waits here: the direct addresses a guest may try."""

    async def unpublish(self, verifier: str) -> None:
        """Its host stopped waiting here (a host published through another node stays)."""

    async def published(self, verifier: str) -> list[str]:
        """The direct addresses ``verifier``'s host published (``[]``: none)."""

    async def open_table(self, table: Table, owner: str, network: str, cap: int) -> str:
        """List ``table`` (keeping its ``since`` if it is listed already); ``owner`` is the
        host's address, ``network`` its /24 or /48. Returns why not ("" when listed): one
        open table per address and per host fingerprint, ``cap`` per network."""

    async def close_table(self, table_id: str) -> None: ...

    async def tables(self, preset: str | None, offset: int, count: int) -> tuple[list, int]:
        """``count`` open tables (of ``preset``, or all) from ``offset`` in ``fair_order``,
        and how many there are in all."""

    async def claim_table(self, preset: str, skip: str = "") -> Table | None:
        """The oldest open table of ``preset`` (of all of them) nobody was given in the last
        ``CLAIM_S``, but ``skip`` (the asker's own), marked given in the same step."""


def fair_order(entries: list[tuple[Table, str]]) -> list[Table]:
    """Tables as a list shows them, ``entries`` being ``(table, network)``: each network's
    oldest table first, newest network first; then each network's second, and so on. Many
    tables from one network (or many networks of one spammer, each opened before) cannot
    push a table opened later off the first page."""
    rank: dict[str, int] = {}
    keyed = []
    for table, network in sorted(entries, key=lambda e: (e[0].since, e[0].table_id)):
        r = rank[network] = rank.get(network, -1) + 1
        keyed.append((r, -table.since, table.table_id, table))
    return [t for *_, t in sorted(keyed, key=lambda k: k[:3])]


def new_node_id() -> str:
    return secrets.token_hex(8)


@dataclass
class MemoryDirectory:
    """One node alone: everything in this process (``Budget`` and ``Slots`` as before)."""

    clock: Callable[[], float] = time.time
    node_id: str = field(default_factory=new_node_id)
    mode: str = "memory"
    rooms: dict[str, set[str]] = field(default_factory=dict)  # room -> hosts' verifiers
    slots: dict[str, Slots] = field(default_factory=dict)
    budgets: dict[str, Budget] = field(default_factory=dict)
    open: dict[str, Table] = field(default_factory=dict)  # table id -> table, oldest first
    owners: dict[str, str] = field(default_factory=dict)  # address or fingerprint -> table
    claimed: dict[str, float] = field(default_factory=dict)  # table id -> claimed until
    direct: dict[str, list[str]] = field(default_factory=dict)  # verifier -> host's addresses
    held: dict[str, tuple[str, str]] = field(default_factory=dict)  # table -> owner, network
    latency: Histogram = field(default_factory=Histogram)

    async def start(self, address: str, on_miss: Callable[[str], None]) -> None:
        pass

    async def close(self) -> None:
        pass

    async def ping(self) -> float:
        return 0.0

    async def take_slot(self, kind: str, address: str, cap: int) -> bool:
        slots = self.slots.setdefault(kind, Slots(cap))
        if slots.full_for(address):
            return False
        slots.take(address)
        return True

    async def give_slot(self, kind: str, address: str) -> None:
        if kind in self.slots:
            self.slots[kind].give_back(address)

    def _budget(self, name: str, rate: tuple[int, float]) -> Budget:
        return self.budgets.setdefault(name, Budget(*rate))

    async def budget_left(self, name: str, key: str, rate: tuple[int, float]) -> float:
        return self._budget(name, rate).left(key)

    async def spend(self, name: str, key: str, rate: tuple[int, float]) -> None:
        self._budget(name, rate).spend(key)

    async def take(self, name: str, key: str, rate: tuple[int, float]) -> bool:
        return self._budget(name, rate).spend(key)

    async def refund(self, name: str, key: str, rate: tuple[int, float]) -> None:
        self._budget(name, rate).refund(key)

    async def book(self, role: str, room: str, key: str) -> Booked:
        if role == "host":
            self.rooms.setdefault(room, set()).add(key)
        return BOOKED

    async def unbook(self, role: str, room: str, key: str) -> None:
        if role == "host":
            verifiers = self.rooms.get(room, set())
            verifiers.discard(key)
            if not verifiers:
                self.rooms.pop(room, None)

    async def hosts_in(self, room: str) -> list[tuple[str, str]]:
        return [(v, self.node_id) for v in self.rooms.get(room, ())]

    async def tell_miss(self, node_id: str, verifier: str) -> None:
        pass  # every host waits on this one node, which told it already

    async def publish(self, verifier: str, direct: list[str]) -> None:
        self.direct[verifier] = list(direct)

    async def unpublish(self, verifier: str) -> None:
        self.direct.pop(verifier, None)

    async def published(self, verifier: str) -> list[str]:
        return list(self.direct.get(verifier, ()))

    async def open_table(self, table: Table, owner: str, network: str, cap: int) -> str:
        for who in (owner, table.fingerprint):
            held = self.owners.get(who)
            if held is not None and held != table.table_id and held in self.open:
                return "you already have an open table"
        here = [t for t, (_, net) in self.held.items() if net == network and t in self.open]
        if table.table_id not in here and len(here) >= cap:
            return TOO_MANY_HERE
        old = self.open.pop(table.table_id, None)
        self.open[table.table_id] = table if old is None else replace(table, since=old.since)
        self.owners[owner] = self.owners[table.fingerprint] = table.table_id
        self.held[table.table_id] = (owner, network)
        return ""

    async def close_table(self, table_id: str) -> None:
        self.open.pop(table_id, None)
        self.claimed.pop(table_id, None)
        self.held.pop(table_id, None)
        for who in [w for w, t in self.owners.items() if t == table_id]:
            del self.owners[who]

    def _unclaimed(self, preset: str | None) -> list[Table]:
        now = self.clock()
        return [
            t
            for t in sorted(self.open.values(), key=lambda t: t.since)
            if (preset is None or t.preset == preset) and self.claimed.get(t.table_id, 0) <= now
        ]

    async def tables(self, preset: str | None, offset: int, count: int) -> tuple[list, int]:
        shown = fair_order([(t, self.held[t.table_id][1]) for t in self._unclaimed(preset)])
        return shown[offset : offset + count], len(shown)

    async def claim_table(self, preset: str, skip: str = "") -> Table | None:
        for table in self._unclaimed(preset):
            if table.table_id != skip:
                self.claimed[table.table_id] = self.clock() + CLAIM_S
                return table
        return None
