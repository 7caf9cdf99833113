"""A hand's link through the table: what ``MatchSession`` talks through at a table of three
or four.

Each player has one authenticated link, to the table's host, which passes the players'
messages on. A hand's two players talk through ``PairLink``: every frame of their
two-player match travels as the text of a ``tpair`` message and is decoded, and checked
against the schema, only at the other player's end (``protocol.decode``), exactly as a frame
off a socket. ``PairInbox`` holds the frames that came for each (hand, player) until that
hand's match reads them, bounded, so a flood costs nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from .protocol import decode, encode

MAX_WAITING = 2000  # frames kept for one hand's match before it reads them (a hand has ~300)
AHEAD = 3  # frames are taken for the hands from the oldest unsettled one to this many more


class PairLink:
    """One end of a hand's two-player match, over the table (see ``transport.Link``). Each
    link reads its own queue: a link that replaces it (after a reconnect) gets a new one."""

    def __init__(
        self,
        hand: int,
        other: int,
        send: Callable[[int, int, str], Awaitable[None]],
        inbox: asyncio.Queue,
    ) -> None:
        self.hand = hand
        self.other = other
        self._send = send
        self.inbox = inbox
        self.closed = False
        self.peer_fingerprint = ""

    async def send(self, msg: dict) -> None:
        if self.closed:
            raise ConnectionError("link closed")
        await self._send(self.other, self.hand, encode(msg)[4:].decode())

    async def recv(self) -> dict:
        body = await self.inbox.get()
        if body is None or self.closed:
            raise ConnectionError("link closed")
        return decode(body.encode())

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.inbox.put_nowait(None)


def is_resume(body: str) -> bool:
    """Whether a hand's frame is a ``resume`` (the first frame on every new link of a match;
    encoded with sorted keys: ``{"got":…,"match":…,"t":"resume"}``)."""
    return body.startswith('{"got":') and body.endswith(',"t":"resume"}')


class PairInbox:
    """The frames waiting for each hand's match, by (hand, the player they are from)."""

    def __init__(self) -> None:
        self.queues: dict[tuple[int, int], asyncio.Queue] = {}
        self.oldest = 0  # hands before this one are settled: their late frames are dropped
        self.rejoined = 0  # we play again from this hand (we were replaced): see ``rejoin``

    def queue(self, hand: int, other: int) -> asyncio.Queue:
        return self.queues.setdefault((hand, other), asyncio.Queue())

    def fresh(self, hand: int, other: int, first: str | None = None) -> asyncio.Queue:
        """A new queue for a link that replaces the hand's current one (frames still in
        the old one are resent by the match after its resume), ``first`` already in it."""
        q: asyncio.Queue = asyncio.Queue()
        if first is not None:
            q.put_nowait(first)
        self.queues[(hand, other)] = q
        return q

    def put(self, hand: int, other: int, body: str) -> str | None:
        """Keep a frame for its hand's match; returns why it is refused, None if kept."""
        if hand < self.oldest:
            return None  # a finished hand's last pings: nothing to do
        if hand > max(self.oldest, self.rejoined) + AHEAD:
            return f"a frame for hand {hand + 1}, which is not near"
        q = self.queue(hand, other)
        if q.qsize() >= MAX_WAITING:
            return f"more than {MAX_WAITING} frames waiting for hand {hand + 1}"
        q.put_nowait(body)
        return None

    def rejoin(self, hand: int) -> None:
        """We take our seat back from ``hand``: its first frames may come while we are
        still replaying the hands we missed (all sent at once), before it is near."""
        self.rejoined = max(self.rejoined, hand)

    def close_all(self) -> None:
        """The table stopped: every hand's link reads its end (a match still starting too)."""
        for q in self.queues.values():
            q.put_nowait(None)

    def settle(self, below: int) -> None:
        """Hands before ``below`` are over: forget their frames."""
        self.oldest = max(self.oldest, below)
        for key in [k for k in self.queues if k[0] < self.oldest]:
            del self.queues[key]
