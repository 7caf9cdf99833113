"""Budgets for strangers: wrong join codes and connections that have not proven anything yet.

Both the relay and a hosting peer meet connections from people who may be guessing the join
code or just holding sockets open. ``Budget`` is a token bucket per key (an address, a room):
``burst`` tries at once, then one more every ``every`` seconds. ``Budget.spend`` says whether a
try is allowed; a key whose bucket is full again is forgotten, so memory stays bounded by the
keys seen within one refill time. ``Slots`` counts live connections per address, with a cap.
An address is what ``address_key`` makes of it: IPv4 as is, IPv6 by its /64 network.
"""

from __future__ import annotations

import ipaddress
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

FORGET_AT = 100_000  # keys remembered before full buckets are swept out


@dataclass
class Budget:
    """Token buckets by key: ``burst`` tries, refilled at one per ``every`` seconds."""

    burst: int
    every: float
    clock: Callable[[], float] = time.monotonic
    _level: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)
    _sweep_at: int = field(default=FORGET_AT, repr=False)

    def left(self, key: str) -> float:
        """Tries ``key`` may still make now."""
        now = self.clock()
        level, since = self._level.get(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - since) / self.every)
        if level >= self.burst:
            self._level.pop(key, None)  # full again: nothing to remember
        return level

    def allowed(self, key: str) -> bool:
        return self.left(key) >= 1.0

    def spend(self, key: str) -> bool:
        """Take one try from ``key``'s bucket; False (and nothing taken) when it is empty."""
        level = self.left(key)
        if level < 1.0:
            return False
        self._level[key] = (level - 1.0, self.clock())
        if len(self._level) > self._sweep_at:  # many keys at once: forget the full buckets
            self._forget()
        return True

    def refund(self, key: str) -> None:
        """Give back one try ``spend`` took (never more than ``burst``)."""
        level = min(float(self.burst), self.left(key) + 1.0)
        if level >= self.burst:
            self._level.pop(key, None)
        else:
            self._level[key] = (level, self.clock())

    def wait_s(self, key: str) -> float:
        """Seconds until ``key`` may try again (0 now)."""
        return max(0.0, (1.0 - self.left(key)) * self.every)

    def _forget(self) -> None:
        for key in list(self._level):
            self.left(key)
        # still many: sweep again only once they have doubled (a sweep stays cheap per try)
        self._sweep_at = max(FORGET_AT, 2 * len(self._level))


def peer_address(writer) -> str:
    """Who a stream's limits are counted for: its remote IPv4 address, or its IPv6 /64 (one
    customer's network: it holds more addresses than any limit), ``?`` when unknown."""
    peer = writer.get_extra_info("peername")
    if not (isinstance(peer, tuple) and peer):
        return "?"
    return address_key(str(peer[0]))


def address_key(host: str) -> str:
    """``203.0.113.5`` stays itself; an IPv6 address becomes its /64 network."""
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def network_key(address: str) -> str:
    """The network an address (as ``address_key`` makes it) belongs to, as lists count
    fairness: an IPv4 /24, an IPv6 /48 (one site); anything else is its own network."""
    try:
        net = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return address
    prefix = 24 if net.version == 4 else 48
    return str(net.supernet(new_prefix=prefix)) if net.prefixlen > prefix else str(net)


class Slots:
    """Live connections by address: at most ``per_address`` from one."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.count: Counter[str] = Counter()

    def full_for(self, address: str) -> bool:
        return self.count[address] >= self.per_address

    def take(self, address: str) -> None:
        self.count[address] += 1

    def give_back(self, address: str) -> None:
        self.count[address] -= 1
        if self.count[address] <= 0:
            del self.count[address]


@dataclass
class Limits:
    """The relay's limits against strangers (docs/net.md, *The relay*)."""

    line_timeout: float = 5.0  # seconds to send the request line
    host_wait: float = 600.0  # a host waits this long for its guest, then registers again
    guest_wait: float = 30.0  # a guest waits this long for its host
    miss_wait: float = 5.0  # ... or this long, when other hosts wait in its room
    max_rooms: int = 10_000  # peers waiting (registered, socket open) in all
    max_waiting_per_address: int = 16  # peers waiting from one address
    max_per_address: int = 32  # connections not yet paired, from one address
    max_pending: int = 1_000  # connections that have not sent their line yet, in all
    guesses: tuple[int, float] = (10, 10.0)  # wrong codes per address: burst, then one per s
    room_guesses: tuple[int, float] = (20, 5.0)  # wrong codes per room: burst, then one per s
    quick: tuple[int, float] = (10, 3.0)  # quick-match requests per address: burst, then ...
    tables_per_network: int = 4  # public tables open from one /24 (IPv4) or /48 (IPv6)
    table_checks: tuple[int, float] = (6, 10.0)  # new tables' verifiers checked per address
    checks_at_once: int = 2  # verifiers checked at the same time (scrypt: 16 MiB, ~50 ms each)
