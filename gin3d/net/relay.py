"""``gin3d-relay``: pairs two players behind NAT and forwards their encrypted bytes.

A peer opens TCP to the relay and sends one line. The host: ``GIN3D-RELAY/2 host <room>
<verifier>``; the guest: ``GIN3D-RELAY/2 guest <room> <claim>``. The room is the SHA-256 of the
join code's public room part; the claim is a scrypt of the whole code and the verifier the
hash of the claim (``transport.room_claim``, ``transport.claim_verifier``). A guest is paired
with the host whose verifier its claim hashes to, so somebody who knows only the room part
cannot take the real guest's place. Each then gets ``PAIRED`` and from then on the relay
copies bytes both ways. The peers run TLS and the join-code handshake *through* the relay,
end to end: the relay sees only ciphertext and never the code itself.

Strangers are kept cheap: a connection must send its line within ``line_timeout`` s; a
waiting peer that closes its socket (or speaks out of turn) frees its place at once, a guest
waits at most ``guest_wait`` s; one address keeps only a few connections open, and when
too many lines are awaited at once the oldest idle connection is closed. A guest's claim
that matches none of the hosts waiting in its room is a wrong code: each address and each
room has a budget of those, taken from before its claim is read (so simultaneous guesses
cannot overspend it) and given back when the claim proves right; the hosts in that room are
told (``MISS``). Such a guest waits ``miss_wait`` s (the host there may be a squatter's)
and is then told its code was wrong. ``relay_service`` runs it (``gin3d-relay``).

What the nodes of one service share goes through a ``directory.Directory``: in this process
(the default), or in Redis (``--redis URL``), where any number of nodes serve one population.
A peer whose partner waits on another node is answered ``REDIRECT <host:port>``; ``hello``,
``list``, ``quick`` and ``table`` serve the public tables (``relay_lobby``; docs/net.md,
*The service*). A host line ending ``direct <port> [<ip:port> ...]`` is told ``SEEN <ip>``
and its direct addresses are published while it waits; ``where <room> <claim>`` gives them
to its guest (docs/net.md, *Direct first*).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import sys
import time
from dataclasses import dataclass, field

from .candidates import observed_ip, published_by
from .constants import MAX_CANDIDATES, RELAY_PORT
from .directory import (
    Directory,
    DirectoryError,
    MemoryDirectory,
    Table,
)
from .limits import Limits, network_key, peer_address
from .protocol import PROTOCOL_VERSION
from .relay_client import (
    LINE_LIMIT,
    MAGIC,
    MISS,
    RelayError,
    RelayUnreachable,
    ask_direct,
    claim_verifier,
    relay_connect,
    relay_nodes,
    unreachable_why,
)
from .relay_lobby import TableChecks, lobby_answer, table_of
from .relay_metrics import reason_label

__all__ = [  # the peer's side lives in relay_client; these names stay importable from here
    "MAGIC",
    "Limits",
    "Relay",
    "RelayError",
    "RelayUnreachable",
    "WRONG_CODE",
    "ask_direct",
    "claim_verifier",
    "main",
    "relay_connect",
    "relay_nodes",
    "unreachable_why",
]

_HEX = "[0-9a-f]{64}"
_LINE = re.compile(rf"GIN3D-RELAY/2 (host|guest) ({_HEX}) ({_HEX})\Z")
_CODE = "[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{6}"
# table <room> <verifier> <fingerprint> <preset> <target> <name, base64url> <code>
_TABLE_LINE = re.compile(
    rf"GIN3D-RELAY/2 table ({_HEX}) ({_HEX}) ({_HEX}) ([a-z_]{{1,20}}) ([0-9]{{1,4}}) "
    rf"([A-Za-z0-9_-]{{1,128}}) ({_CODE})\Z"
)
# hello; list [<preset> [<offset> <count>]]; quick [<preset> [<the asker's own table>]]
_QUERY = re.compile(
    rf"GIN3D-RELAY/2 (hello|list|quick)(?: ([a-z_]{{1,20}})"
    rf"(?: ([0-9]{{1,6}} [0-9]{{1,3}}|{_HEX}))?)?\Z"
)
# host <room> <verifier> direct <its listening port> [<its UPnP address> ...]: wait as a host
# and publish where a guest may try it directly; where <room> <claim>: a guest asks for that
_DIRECT_HOST = re.compile(
    rf"GIN3D-RELAY/2 host ({_HEX}) ({_HEX}) direct ([0-9]{{1,5}})"
    rf"((?: [^ ]{{1,47}}){{0,{MAX_CANDIDATES - 1}}})\Z"
)
_WHERE = re.compile(rf"GIN3D-RELAY/2 (where) ({_HEX} {_HEX})\Z")
OLD_MAGIC = "GIN3D-RELAY/"
OLD_VERSION = "this relay speaks GIN3D-RELAY/2: both players need the same gin3d version"
WRONG_CODE = "wrong join code (or the table is gone)"
UNAVAILABLE = "the service is unavailable: try again"  # never the store's address or error
log = logging.getLogger("gin3d.relay")


@dataclass
class _Waiting:
    """A registered peer waiting for its partner; ``watch`` reads its socket (EOF = gone)."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    address: str
    paired: asyncio.Future
    room: str = ""
    listed: bool = False  # an open public table
    since: float = field(default_factory=time.monotonic)
    watch: asyncio.Task = field(init=False)

    def __post_init__(self) -> None:
        self.watch = asyncio.ensure_future(self.reader.read(1))


class Relay:
    """A relay node. ``start()`` listens; ``port`` is the bound port. Alone it keeps its
    directory in memory; give it a ``RedisDirectory`` and it is one of many nodes."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = RELAY_PORT,
        observer=None,
        limits: Limits | None = None,
        directory: Directory | None = None,
        advertise: str = "",
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.directory = directory if directory is not None else MemoryDirectory()
        self.advertise = advertise  # host:port other nodes send guests to (default: ours)
        self.waiting: dict[tuple[str, str], _Waiting] = {}  # (role, verifier) -> peer here
        self.pending: dict[asyncio.StreamWriter, str] = {}  # no line yet, oldest first
        self.misses = 0  # wrong codes tried (claims that matched no host)
        self.refused: dict[str, int] = {}  # why -> how often (for the operator and tests)
        self.refusals: dict[str, int] = {}  # the same by ``reason_label`` (for /metrics)
        lim = self.limits
        self.checks = TableChecks(self.directory, lim.table_checks, lim.checks_at_once)
        self.log_salt = secrets.token_bytes(16)  # rooms in the log: not reversible to codes
        self.pairs = 0
        self.redirects = 0  # peers sent to the node where their partner waits
        self.bytes_forwarded = 0
        self.server: asyncio.base_events.Server | None = None
        self.observer = observer  # called with every forwarded chunk (traffic stats, audits)

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        self.advertise = self.advertise or f"{self.host}:{self.port}"
        try:
            await self.directory.start(self.advertise, self._remote_miss)
        except DirectoryError:
            self.server.close()
            raise

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        # waiting and pending peers first: from Python 3.12.1 wait_closed waits for them all
        for entry in list(self.waiting.values()):
            entry.paired.cancel()
            entry.writer.close()
        for writer in list(self.pending):
            writer.close()
        if self.server is not None:
            await self.server.wait_closed()
        await self.directory.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = peer_address(writer)
        try:
            if not await self.directory.take_slot("live", address, self.limits.max_per_address):
                self._count("too many connections from one address")
                writer.close()
                return
        except DirectoryError as exc:
            await self._unavailable(writer, exc)
            return
        try:
            await self._serve(reader, writer, address)
        except asyncio.CancelledError:  # the relay is shutting down
            writer.close()
        except DirectoryError as exc:  # Redis went away mid-request: refused, nothing kept
            await self._unavailable(writer, exc)
        finally:
            self.pending.pop(writer, None)

    async def _serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str
    ) -> None:
        paired = False
        try:
            line = await self._request_line(reader, writer, address)
            if line is not None:
                paired = await self._dispatch(reader, writer, address, line)
        finally:
            if not paired:
                with contextlib.suppress(DirectoryError):
                    await self.directory.give_slot("live", address)

    async def _request_line(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str
    ) -> str | None:
        """The peer's request line, or None (it was closed: slow, junk or evicted)."""
        if len(self.pending) >= self.limits.max_pending:  # the oldest idle one makes room
            oldest = next(iter(self.pending))
            del self.pending[oldest]
            self._count("evicted while idle")
            oldest.close()
        self.pending[writer] = address
        try:
            line = await asyncio.wait_for(reader.readuntil(b"\n"), self.limits.line_timeout)
        except (
            asyncio.TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            OSError,
        ):
            self._count("no request line")
            writer.close()
            return None
        finally:
            self.pending.pop(writer, None)
        return line[:LINE_LIMIT].decode("ascii", "replace").strip()

    async def _dispatch(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str, line: str
    ) -> bool:
        """Pair or wait (True once this connection was paired), or answer a question."""
        m = _LINE.match(line)
        if m:
            return await self._pairing(reader, writer, address, m.groups(), None)
        t = _TABLE_LINE.match(line)
        if t:
            table, why = table_of(t)
            if table is not None:
                why = await self.checks.why_not(table, address)
                if why:
                    log.info("refused a table from %s: %s", address, why)
            if why:
                await self._refuse(writer, why)
                return False
            return await self._pairing(reader, writer, address, ("host", *t.groups()[:2]), table)
        d = _DIRECT_HOST.match(line)
        if d:
            return await self._direct_host(reader, writer, address, d)
        q = _QUERY.match(line) or _WHERE.match(line)
        if q:
            await self._answer_query(writer, address, *q.groups())
            return False
        old = line.startswith(OLD_MAGIC) and not line.startswith(MAGIC)
        await self._refuse(writer, OLD_VERSION if old else "bad request line")
        return False

    async def _direct_host(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str, m
    ) -> bool:
        """A host that also listens directly: told the address it came from (``SEEN``),
        then waiting as any host, its direct addresses published meanwhile."""
        room, verifier, port, extra = m.groups()
        if not 0 < int(port) < 65536:
            await self._refuse(writer, "the direct port must be 1..65535")
            return False
        seen = observed_ip(writer)
        direct = published_by(seen, int(port), extra.split(), f"the host at {seen or '?'}")
        await self._say(writer, f"SEEN {seen or '?'}")
        return await self._pairing(reader, writer, address, ("host", room, verifier), None, direct)

    async def _pairing(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
        request: tuple[str, str, str],
        table: Table | None,
        direct: list[str] | None = None,
    ) -> bool:
        role, room, proof = request
        if role == "guest":
            wait = await self._charge_guess(address, room)
            if wait is not None:
                await self._refuse(writer, f"too many wrong join codes: try again in {wait:.0f} s")
                return False
            key = claim_verifier(proof)
        else:
            key = proof
        partner = self._take("guest" if role == "host" else "host", key)
        if partner is not None:
            if role == "guest":
                await self._refund_guess(address, room)
            await self._pair(reader, writer, partner, table)
            return True
        refusal = self._refusal(role, key)
        lim = self.limits
        if not refusal and not await self.directory.take_slot(
            "waiting", address, lim.max_waiting_per_address
        ):
            refusal = "too many tables waiting from your address"
        if refusal:
            if role == "guest":
                await self._refund_guess(address, room)
            await self._refuse(writer, refusal)
            return False
        return await self._wait(reader, writer, address, (role, room, key), table, direct)

    async def _charge_guess(self, address: str, room: str) -> float | None:
        """Take a try from both wrong-code budgets (``address``'s and ``room``'s) before the
        claim is read: None when taken, else the seconds until one may try again. Taken
        before, not after, so simultaneous guesses cannot all pass; a claim that proves
        right (or finds no host to be wrong about) is given back (``_refund_guess``)."""
        d, lim = self.directory, self.limits
        if await d.take("address", address, lim.guesses):
            if await d.take("room", room, lim.room_guesses):
                return None
            await d.refund("address", address, lim.guesses)
        left = await d.budget_left("address", address, lim.guesses)
        room_left = await d.budget_left("room", room, lim.room_guesses)
        return max((1.0 - left) * lim.guesses[1], (1.0 - room_left) * lim.room_guesses[1], 0.0)

    async def _refund_guess(self, address: str, room: str) -> None:
        with contextlib.suppress(DirectoryError):
            await self.directory.refund("address", address, self.limits.guesses)
            await self.directory.refund("room", room, self.limits.room_guesses)

    async def _miss(self, address: str, room: str, hosts: list[tuple[str, str]]) -> None:
        """A guest's claim matched none of the hosts waiting in its room: a wrong code (its
        try was taken from the budgets already)."""
        self.misses += 1
        for verifier, node in hosts:
            if node == self.directory.node_id:
                self._remote_miss(verifier)
            else:
                await self.directory.tell_miss(node, verifier)

    def _remote_miss(self, verifier: str) -> None:
        entry = self.waiting.get(("host", verifier))
        if entry is not None and not entry.writer.is_closing():
            entry.writer.write(MISS)

    def _refusal(self, role: str, key: str) -> str:
        if (role, key) in self.waiting:
            return f"a {role} is already waiting with this code"
        if len(self.waiting) >= self.limits.max_rooms:
            return "relay is full"
        return ""

    def _take(self, role: str, key: str) -> _Waiting | None:
        """The live peer waiting here as ``role`` with ``key``, taken off the list."""
        entry = self.waiting.get((role, key))
        if entry is None or entry.paired.done():
            return None
        self._unregister(role, key, entry)
        if entry.watch.done():  # its socket closed or spoke out of turn: it is gone
            entry.writer.close()
            return None
        entry.watch.cancel()
        return entry

    def _unregister(self, role: str, key: str, entry: _Waiting) -> None:
        if self.waiting.get((role, key)) is entry:
            del self.waiting[(role, key)]

    async def _announce(
        self, role: str, room: str, key: str, address: str, table, direct: list[str] | None
    ) -> tuple:
        """Book the wait in the directory (and list the table, or publish the host's direct
        addresses); returns (what to tell the peer instead of waiting, or "", whether this
        guest missed its room)."""
        booked = await self.directory.book(role, room, key)
        if booked.outcome == "redirect":
            self.redirects += 1
            log.info("redirect %s room %s to %s", role, self._tag(room), booked.address)
            if role == "guest":  # the node it goes to takes its try
                await self._refund_guess(address, room)
            return f"REDIRECT {booked.address}", False
        if direct:
            await self.directory.publish(key, direct)
        missed = False
        if role == "guest":
            hosts = await self.directory.hosts_in(room)
            missed = bool(hosts)
            if missed:  # a table waits in this room, not with this code (or a squatter's)
                await self._miss(address, room, hosts)
            else:  # nobody to be wrong about: it waits for its host, no guess spent
                await self._refund_guess(address, room)
        if table is not None:
            lim = self.limits
            why = await self.directory.open_table(
                table, address, network_key(address), lim.tables_per_network
            )
            if why:
                return f"REFUSED {why}", False
            log.info("table %s listed (%s to %d)", table.table_id[:12], table.preset, table.target)
        return "", missed

    async def _wait(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
        booking: tuple[str, str, str],
        table: Table | None,
        direct: list[str] | None = None,
    ) -> bool:
        """Wait as ``(role, room, key)`` for the partner; True once paired. A guest that
        missed waits ``miss_wait`` only and is then told its code was wrong. The peer is
        listed here before it is booked in the directory, so a partner coming to this node
        meanwhile finds it."""
        role, room, key = booking
        future = asyncio.get_running_loop().create_future()
        entry = _Waiting(reader, writer, address, future, room, table is not None)
        self.waiting[(role, key)] = entry
        instead, missed = "", False
        lim = self.limits
        try:
            instead, missed = await self._announce(role, room, key, address, table, direct)
            wait = lim.host_wait if role == "host" else lim.miss_wait if missed else lim.guest_wait
            if not instead and not entry.paired.done():
                await asyncio.wait(
                    {entry.paired, entry.watch}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
                )
        finally:
            self._unregister(role, key, entry)
            entry.watch.cancel()
            await self._release(role, room, key, address, bool(direct) and not instead)
        paired = entry.paired.done() and not entry.paired.cancelled()
        gone = entry.watch.done() and not entry.watch.cancelled()
        # paired, gone, timed out: the table goes (only a node that dies leaves it listed,
        # for the grace time); a host sent to another node is listed there
        if table is not None and not instead.startswith("REDIRECT"):
            with contextlib.suppress(DirectoryError):
                await self.directory.close_table(table.table_id)
        if paired:
            with contextlib.suppress(DirectoryError):
                await self.directory.give_slot("live", address)
            await entry.paired.result().wait()  # the partner's task pipes both directions
            return True
        if instead:
            await self._say(writer, instead)
        elif missed and not gone:
            await self._refuse(writer, WRONG_CODE)
        writer.close()
        return False

    async def _release(
        self, role: str, room: str, key: str, address: str, published: bool = False
    ) -> None:
        """The booking (if any: unbook removes only this node's own), the host's published
        direct addresses, and the slot."""
        with contextlib.suppress(DirectoryError):
            await self.directory.unbook(role, room, key)
        if published:
            with contextlib.suppress(DirectoryError):
                await self.directory.unpublish(key)
        with contextlib.suppress(DirectoryError):
            await self.directory.give_slot("waiting", address)

    async def _answer_query(
        self, writer: asyncio.StreamWriter, address: str, what: str, arg, more=None
    ) -> None:
        """``hello``, ``where``, or the lobby's ``list`` and ``quick`` (``lobby_answer``):
        answered, then closed."""
        if what == "hello":
            d = self.directory
            lines = [f"SERVICE {MAGIC} {PROTOCOL_VERSION} {d.node_id} {d.mode}"]
        elif what == "where":
            lines = [await self._where(address, *arg.split())]
        else:
            lines, why = await lobby_answer(
                self.directory, self.limits.quick, address, what, arg, more
            )
            if why:
                await self._refuse(writer, why)
                return
        await self._say(writer, "\n".join(lines))
        writer.close()

    async def _where(self, address: str, room: str, claim: str) -> str:
        """A guest's question: the direct addresses of the host its claim belongs to
        (``DIRECT a:p ...``), or ``NONE``. A claim that matches none of the hosts waiting in
        its room spends the wrong-code budgets, as at pairing, so this is no free oracle."""
        wait = await self._charge_guess(address, room)
        if wait is not None:
            return f"REFUSED too many wrong join codes: try again in {wait:.0f} s"
        key = claim_verifier(claim)
        direct = await self.directory.published(key)
        if direct:
            await self._refund_guess(address, room)
            return "DIRECT " + " ".join(direct)[:LINE_LIMIT]
        hosts = await self.directory.hosts_in(room)
        if hosts and key not in (v for v, _ in hosts):
            self.misses += 1
        else:
            await self._refund_guess(address, room)
        return "NONE"

    async def _pair(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        partner: _Waiting,
        table: Table | None = None,
    ) -> None:
        """Pair this peer with the ``partner`` just taken off the waiting list (``_take``
        cancelled its watch): nothing may be awaited before its ``paired`` is set, or its
        own task wakes first, finds itself unpaired and closes it."""
        finished = asyncio.Event()
        partner.paired.set_result(finished)  # before its cancelled watch wakes its task
        await asyncio.wait({partner.watch})  # its read is cancelled before the pipe reads
        if table is not None:  # a table listed before (through a node now dead): taken now
            with contextlib.suppress(DirectoryError):
                await self.directory.close_table(table.table_id)
        self.pairs += 1
        kind = "table" if partner.listed else "code"
        waited = time.monotonic() - partner.since
        log.info(
            "paired room %s (%s) on this node, waited %.1f s", self._tag(partner.room), kind, waited
        )
        with contextlib.suppress(DirectoryError):
            await self.directory.give_slot("live", peer_address(writer))
        for w in (writer, partner.writer):
            w.write(b"PAIRED\n")
        try:
            await self._pipe(reader, writer, partner.reader, partner.writer)
        finally:
            finished.set()

    def _count(self, why: str) -> None:
        self.refused[why] = self.refused.get(why, 0) + 1
        label = reason_label(why)
        self.refusals[label] = self.refusals.get(label, 0) + 1

    @property
    def tables_here(self) -> int:
        """Public tables whose hosts wait on this node."""
        return sum(1 for entry in self.waiting.values() if entry.listed)

    def _tag(self, room: str) -> str:
        """A room as the log names it: salted, shortened (a room is a hash of only four of
        a code's characters; its plain hash could be turned back into them)."""
        return hashlib.sha256(self.log_salt + room.encode()).hexdigest()[:10]

    async def _unavailable(self, writer: asyncio.StreamWriter, exc: Exception) -> None:
        """The directory failed: the operator's log says how, the player only that it did."""
        log.warning("refused a request: %s", exc)
        await self._refuse(writer, UNAVAILABLE)

    async def _say(self, writer: asyncio.StreamWriter, text: str) -> None:
        with contextlib.suppress(OSError):
            writer.write(f"{text}\n".encode())
            await writer.drain()

    async def _refuse(self, writer: asyncio.StreamWriter, why: str) -> None:
        self._count(why)
        await self._say(writer, f"REFUSED {why}")
        writer.close()

    async def _pipe(self, r1, w1, r2, w2) -> None:
        async def copy(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    self.bytes_forwarded += len(data)
                    if self.observer is not None:
                        self.observer(data)
                    dst.write(data)
                    await dst.drain()
            except (OSError, ConnectionError):
                pass
            finally:
                # a node stopped mid-pipe: its loop is closed before this copy is
                # collected, and closing then raises in the collector (never mind)
                with contextlib.suppress(RuntimeError):
                    dst.close()

        await asyncio.gather(copy(r1, w2), copy(r2, w1))


def main(argv: list[str] | None = None) -> int:
    """Console entry point ``gin3d-relay`` (``relay_service.main``: flags, logs, metrics)."""
    from .relay_service import main as serve

    return serve(argv)


if __name__ == "__main__":
    sys.exit(main())
