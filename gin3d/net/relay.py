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
room has a budget of those (``limits.Budget``; a guest over it is refused before its claim
is checked) and the hosts in that room are told (``MISS``). Such a guest still waits
``miss_wait`` s (the host there may be a squatter's, the real one on its way) and is then
told its code was wrong; a guest that comes before any host waits ``guest_wait`` s.
Run it anywhere with one command: ``gin3d-relay --host 0.0.0.0``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import re
import sys
from dataclasses import dataclass, field

from .constants import RELAY_PORT
from .limits import Budget, Slots, peer_address

MAGIC = "GIN3D-RELAY/2"
LINE_LIMIT = 200
_LINE = re.compile(r"GIN3D-RELAY/2 (host|guest) ([0-9a-f]{64}) ([0-9a-f]{64})\Z")
OLD_MAGIC = "GIN3D-RELAY/"
OLD_VERSION = "this relay speaks GIN3D-RELAY/2: both players need the same gin3d version"
WRONG_CODE = "wrong join code (or the table is gone)"
MISS = b"MISS\n"  # relay -> waiting host: a guest tried a wrong code for this room


GO = b"GO\n"  # host -> guest through the relay: start TLS now


class RelayError(ConnectionError):
    """The relay refused or could not pair (the message says why)."""


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


@dataclass
class _Waiting:
    """A registered peer waiting for its partner; ``watch`` reads its socket (EOF = gone)."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    address: str
    room: str
    paired: asyncio.Future
    watch: asyncio.Task = field(init=False)

    def __post_init__(self) -> None:
        self.watch = asyncio.ensure_future(self.reader.read(1))


class Relay:
    """The relay server. ``start()`` listens; ``port`` is the bound port."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = RELAY_PORT,
        observer=None,
        limits: Limits | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        lim = self.limits
        self.waiting: dict[tuple[str, str], _Waiting] = {}  # (role, verifier) -> peer
        self.rooms: dict[str, set[str]] = {}  # room -> verifiers of the hosts waiting there
        self.pending: dict[asyncio.StreamWriter, str] = {}  # no line yet, oldest first
        self.live = Slots(lim.max_per_address)  # not yet paired, by address
        self.waiting_from = Slots(lim.max_waiting_per_address)
        self.guesses = Budget(*lim.guesses)
        self.room_guesses = Budget(*lim.room_guesses)
        self.misses = 0  # wrong codes tried (claims that matched no host)
        self.refused: dict[str, int] = {}  # why -> how often (for the operator and tests)
        self.pairs = 0
        self.bytes_forwarded = 0
        self.server: asyncio.base_events.Server | None = None
        self.observer = observer  # called with every forwarded chunk (traffic stats, audits)

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._client, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]

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

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = peer_address(writer)
        if self.live.full_for(address):
            self._count("too many connections from one address")
            writer.close()
            return
        self.live.take(address)
        try:
            await self._serve(reader, writer, address)
        except asyncio.CancelledError:  # the relay is shutting down
            writer.close()
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
                self.live.give_back(address)

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
        """Pair or wait; True once this connection was paired (its slot is given back)."""
        m = _LINE.match(line)
        if not m:
            old = line.startswith(OLD_MAGIC) and not line.startswith(MAGIC)
            await self._refuse(writer, OLD_VERSION if old else "bad request line")
            return False
        role, room, proof = m.groups()
        if role == "guest":
            if not (self.guesses.allowed(address) and self.room_guesses.allowed(room)):
                wait = max(self.guesses.wait_s(address), self.room_guesses.wait_s(room))
                await self._refuse(writer, f"too many wrong join codes: try again in {wait:.0f} s")
                return False
            key = claim_verifier(proof)
        else:
            key = proof
        other = "guest" if role == "host" else "host"
        partner = self._take(other, key)
        if partner is not None:
            await self._pair(reader, writer, partner)
            return True
        # a table waits in this room, and not with this code: a wrong code, or a squatter's
        # host parked there before the real one (so the guest waits a little, then is told)
        missed = role == "guest" and bool(self.rooms.get(room))
        if missed:
            self._miss(address, room)
        refusal = self._refusal(role, key, address)
        if refusal:
            await self._refuse(writer, refusal)
            return False
        return await self._wait(reader, writer, address, (role, room, key), missed)

    def _miss(self, address: str, room: str) -> None:
        """A guest's claim matched none of the hosts waiting in its room: a wrong code."""
        self.misses += 1
        self.guesses.spend(address)
        self.room_guesses.spend(room)
        for verifier in self.rooms.get(room, ()):
            entry = self.waiting.get(("host", verifier))
            if entry is not None:
                entry.writer.write(MISS)

    def _refusal(self, role: str, key: str, address: str) -> str:
        if (role, key) in self.waiting:
            return f"a {role} is already waiting with this code"
        if len(self.waiting) >= self.limits.max_rooms:
            return "relay is full"
        if self.waiting_from.full_for(address):
            return "too many tables waiting from your address"
        return ""

    def _take(self, role: str, key: str) -> _Waiting | None:
        """The live peer waiting as ``role`` with ``key``, taken off the list."""
        entry = self.waiting.get((role, key))
        if entry is None:
            return None
        self._unregister(role, key, entry)
        if entry.watch.done():  # its socket closed or spoke out of turn: it is gone
            entry.writer.close()
            return None
        entry.watch.cancel()
        return entry

    def _unregister(self, role: str, key: str, entry: _Waiting) -> None:
        if self.waiting.get((role, key)) is not entry:
            return
        del self.waiting[(role, key)]
        self.waiting_from.give_back(entry.address)
        if role == "host":
            verifiers = self.rooms.get(entry.room, set())
            verifiers.discard(key)
            if not verifiers:
                self.rooms.pop(entry.room, None)

    async def _wait(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        address: str,
        booking: tuple[str, str, str],
        missed: bool,
    ) -> bool:
        """Wait as ``(role, room, key)`` for the partner; True once paired. A guest that
        missed waits ``miss_wait`` only and is then told its code was wrong."""
        role, room, key = booking
        entry = _Waiting(reader, writer, address, room, asyncio.get_running_loop().create_future())
        self.waiting[(role, key)] = entry
        self.waiting_from.take(address)
        if role == "host":
            self.rooms.setdefault(room, set()).add(key)
        lim = self.limits
        wait = lim.host_wait if role == "host" else lim.miss_wait if missed else lim.guest_wait
        try:
            await asyncio.wait(
                {entry.paired, entry.watch}, timeout=wait, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            self._unregister(role, key, entry)
            entry.watch.cancel()
        if entry.paired.done() and not entry.paired.cancelled():
            self.live.give_back(address)
            await entry.paired.result().wait()  # the partner's task pipes both directions
            return True
        if missed and not entry.watch.done():
            await self._refuse(writer, WRONG_CODE)
        writer.close()
        return False

    async def _pair(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, partner: _Waiting
    ) -> None:
        finished = asyncio.Event()
        partner.paired.set_result(finished)  # before its cancelled watch wakes its task
        await asyncio.wait({partner.watch})  # its read is cancelled before the pipe reads
        self.pairs += 1
        self.live.give_back(peer_address(writer))
        for w in (writer, partner.writer):
            w.write(b"PAIRED\n")
        try:
            await self._pipe(reader, writer, partner.reader, partner.writer)
        finally:
            finished.set()

    def _count(self, why: str) -> None:
        self.refused[why] = self.refused.get(why, 0) + 1

    async def _refuse(self, writer: asyncio.StreamWriter, why: str) -> None:
        self._count(why)
        with contextlib.suppress(OSError):
            writer.write(f"REFUSED {why}\n".encode())
            await writer.drain()
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
                dst.close()

        await asyncio.gather(copy(r1, w2), copy(r2, w1))


def claim_verifier(claim: str) -> str:
    """What the host registers: the hash of the guest's claim (``transport.room_claim``), so
    the relay can check a claim but holds nothing it could claim the table with itself."""
    return hashlib.sha256(b"gin3d-relay-verifier|" + claim.encode()).hexdigest()


async def relay_connect(
    relay_host: str,
    relay_port: int,
    role: str,
    room: str,
    proof: str,
    timeout: float = 600.0,
    on_miss=None,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a pairing at the relay; returns the stream once the other peer has arrived.

    ``proof`` is the host's verifier or the guest's claim; ``on_miss()`` is called (host)
    each time the relay says a guest tried a wrong code for this room."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(relay_host, relay_port), 10)
    except (OSError, asyncio.TimeoutError) as exc:
        raise RelayError(
            f"cannot reach the relay {relay_host}:{relay_port}: {exc or 'timed out'}"
        ) from None
    writer.write(f"{MAGIC} {role} {room} {proof}\n".encode())
    try:
        text = await asyncio.wait_for(_answer(reader, on_miss), timeout)
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError) as exc:
        writer.close()
        raise RelayError(f"the relay did not pair us: {exc or 'timed out'}") from None
    if text != "PAIRED":
        writer.close()
        raise RelayError(f"the relay said: {text[:100]}")
    # The guest (TLS client) may speak only once the host is ready for TLS: a ClientHello that
    # reached the host together with "PAIRED" would sit in this StreamReader's buffer, where
    # start_tls never sees it, and the handshake would hang. The host says GO and goes
    # straight into start_tls (no await in between reads the socket).
    if role == "host":
        writer.write(GO)
    else:
        try:
            go = await asyncio.wait_for(reader.readuntil(b"\n"), 30)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError) as exc:
            writer.close()
            raise RelayError(f"the host did not start: {exc or 'timed out'}") from None
        if go != GO:
            writer.close()
            raise RelayError("the host's side of the relay spoke out of turn")
    return reader, writer


async def _answer(reader: asyncio.StreamReader, on_miss) -> str:
    """The relay's answer line, after any ``MISS`` notes (each one calls ``on_miss``)."""
    while True:
        line = await reader.readuntil(b"\n")
        if line != MISS:
            return line.decode("ascii", "replace").strip()
        if on_miss is not None:
            on_miss()


def main(argv: list[str] | None = None) -> int:
    """Console entry point: ``gin3d-relay [--host H] [--port P]``."""
    parser = argparse.ArgumentParser(
        prog="gin3d-relay",
        description="Pair gin3d players by join code and forward their "
        "end-to-end encrypted traffic.",
    )
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
    defaults = Limits()
    for flag, what in (
        ("line-timeout", "seconds a connection has to send its request line"),
        ("guest-wait", "seconds a guest waits for its host"),
        ("host-wait", "seconds a host waits for its guest (it then registers again)"),
    ):
        name = flag.replace("-", "_")
        parser.add_argument(
            f"--{flag}",
            type=float,
            default=getattr(defaults, name),
            help=f"{what} (default {getattr(defaults, name):g})",
        )
    args = parser.parse_args(argv)
    limits = Limits(
        line_timeout=args.line_timeout, guest_wait=args.guest_wait, host_wait=args.host_wait
    )

    async def serve() -> None:
        relay = Relay(args.host, args.port, limits=limits)
        await relay.start()
        print(f"gin3d-relay listening on {args.host}:{relay.port}", flush=True)
        await relay.server.serve_forever()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        print(f"gin3d-relay: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
