"""``gin3d-relay``: pairs two players behind NAT and forwards their encrypted bytes.

A peer opens TCP to the relay and sends one line: ``GIN3D-RELAY/1 <host|guest> <room>``
where room is the SHA-256 (hex) of the join code's room part. When a host and a guest with
the same room are both there, each gets ``PAIRED`` and from then on the relay copies bytes
both ways. The peers then run TLS and the join-code handshake *through* the relay, end to
end: the relay sees only ciphertext and never the code's password part, so it cannot read
or alter a game. Run it anywhere with one command: ``gin3d-relay --host 0.0.0.0``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
from collections import Counter

from .constants import RELAY_PORT

MAGIC = "GIN3D-RELAY/1"
LINE_LIMIT = 200
_LINE = re.compile(r"GIN3D-RELAY/1 (host|guest) ([0-9a-f]{64})\Z")


GO = b"GO\n"  # host -> guest through the relay: start TLS now


class RelayError(ConnectionError):
    """The relay refused or could not pair (the message says why)."""


class Relay:
    """The relay server. ``start()`` listens; ``port`` is the bound port."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = RELAY_PORT,
        pair_timeout: float = 600.0,
        max_rooms: int = 10_000,
        observer=None,
        max_waiting_per_address: int = 16,
    ) -> None:
        self.host = host
        self.port = port
        self.pair_timeout = pair_timeout
        self.max_rooms = max_rooms
        # one address cannot fill the relay's rooms (and lock everyone else out) by itself
        self.max_waiting_per_address = max_waiting_per_address
        self._waiting_from: Counter[str] = Counter()
        self.waiting: dict[
            tuple[str, str], tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.Future]
        ] = {}
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
        # the waiting tables first: from Python 3.12.1 wait_closed waits for every connection
        for _, writer, fut in list(self.waiting.values()):
            fut.cancel()
            writer.close()
        if self.server is not None:
            await self.server.wait_closed()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._serve(reader, writer)
        except asyncio.CancelledError:  # the relay is shutting down
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readuntil(b"\n"), 10)
        except (
            asyncio.TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            OSError,
        ):
            writer.close()
            return
        m = _LINE.match(line[:LINE_LIMIT].decode("ascii", "replace").strip())
        if not m:
            await self._refuse(writer, "bad request line")
            return
        role, room = m.groups()
        other = "guest" if role == "host" else "host"
        partner = self.waiting.pop((other, room), None)
        if partner is not None:
            p_reader, p_writer, fut = partner
            self._left(p_writer)
            finished = asyncio.Event()
            fut.set_result(finished)
            self.pairs += 1
            for w in (writer, p_writer):
                w.write(b"PAIRED\n")
            try:
                await self._pipe(reader, writer, p_reader, p_writer)
            finally:
                finished.set()
            return
        if (role, room) in self.waiting:
            await self._refuse(writer, f"a {role} is already waiting with this code")
            return
        if len(self.waiting) >= self.max_rooms:
            await self._refuse(writer, "relay is full")
            return
        address = _address(writer)
        if self._waiting_from[address] >= self.max_waiting_per_address:
            await self._refuse(writer, "too many tables waiting from your address")
            return
        fut = asyncio.get_running_loop().create_future()
        self.waiting[(role, room)] = (reader, writer, fut)
        self._waiting_from[address] += 1
        try:
            finished = await asyncio.wait_for(fut, self.pair_timeout)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            if self.waiting.get((role, room), (None, None, None))[2] is fut:
                del self.waiting[(role, room)]
                self._left(writer)
            writer.close()
            return
        await finished.wait()  # the partner's task pipes both directions; keep this one open

    def _left(self, writer: asyncio.StreamWriter) -> None:
        """A waiting peer was paired or gave up: its address may wait again."""
        address = _address(writer)
        self._waiting_from[address] -= 1
        if self._waiting_from[address] <= 0:
            del self._waiting_from[address]

    @staticmethod
    async def _refuse(writer: asyncio.StreamWriter, why: str) -> None:
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


def _address(writer: asyncio.StreamWriter) -> str:
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


async def relay_connect(
    relay_host: str, relay_port: int, role: str, room: str, timeout: float = 600.0
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a pairing at the relay; returns the stream once the other peer has arrived."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(relay_host, relay_port), 10)
    except (OSError, asyncio.TimeoutError) as exc:
        raise RelayError(
            f"cannot reach the relay {relay_host}:{relay_port}: {exc or 'timed out'}"
        ) from None
    writer.write(f"{MAGIC} {role} {room}\n".encode())
    try:
        answer = await asyncio.wait_for(reader.readuntil(b"\n"), timeout)
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError) as exc:
        writer.close()
        raise RelayError(f"the relay did not pair us: {exc or 'timed out'}") from None
    text = answer.decode("ascii", "replace").strip()
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
    args = parser.parse_args(argv)

    async def serve() -> None:
        relay = Relay(args.host, args.port)
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
