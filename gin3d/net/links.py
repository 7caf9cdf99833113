"""Links: one live, framed, validated connection to the peer (a stream or in memory).

``StreamLink`` wraps asyncio streams (TLS already on): ``send`` writes one frame, ``recv``
reads one and validates it (``ProtocolError`` for a bad message; a frame over the size limit
means the stream cannot be read further). ``memory_pair`` gives two connected links in one
process, for running both seats of a match in one event loop (benchmarks, quick tests).
"""

from __future__ import annotations

import asyncio

from .protocol import decode, encode, read_frame


class StreamLink:
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer_fingerprint: str = ""
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.peer_fingerprint = peer_fingerprint
        self.code_tried = False  # the handshake got as far as testing the join code
        self.closed = False
        self.bytes_sent = 0
        self.bytes_received = 0

    async def send(self, msg: dict) -> None:
        if self.closed:
            raise ConnectionError("link closed")
        frame = encode(msg)
        self.bytes_sent += len(frame)
        self.writer.write(frame)
        await self.writer.drain()

    async def recv(self) -> dict:
        if self.closed:
            raise ConnectionError("link closed")
        body = await read_frame(self.reader)
        self.bytes_received += len(body) + 4
        return decode(body)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.writer.close()
            except (OSError, RuntimeError):
                pass


class MemoryLink:
    """One end of an in-process link; frames are encoded and decoded as on a socket."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.other: MemoryLink | None = None
        self.closed = False
        self.peer_fingerprint = ""
        self.bytes_sent = 0

    async def send(self, msg: dict) -> None:
        if self.closed or self.other is None or self.other.closed:
            raise ConnectionError("link closed")
        frame = encode(msg)
        self.bytes_sent += len(frame)
        self.other.inbox.put_nowait(frame[4:])

    async def send_raw(self, body: bytes) -> None:
        """Deliver arbitrary bytes as one frame body (for fault tests)."""
        self.other.inbox.put_nowait(body)

    async def recv(self) -> dict:
        body = await self.inbox.get()
        if body is None or self.closed:
            raise ConnectionError("link closed")
        return decode(body)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.inbox.put_nowait(None)
            if self.other is not None and not self.other.closed:
                self.other.inbox.put_nowait(None)


def memory_pair() -> tuple[MemoryLink, MemoryLink]:
    a, b = MemoryLink(), MemoryLink()
    a.other, b.other = b, a
    return a, b
