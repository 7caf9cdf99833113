"""A client of the magic-wormhole mailbox server: the public meeting point where two games
with nothing configured find each other by a join code (docs/net.md, *A friend by code*).

The server (``magic-wormhole-mailbox-server``) keeps, per application id, *nameplates* (short
numbers a code begins with) and *mailboxes* (ordered messages between two sides). We speak
its websocket JSON protocol: ``bind`` (our appid and a random side), ``allocate`` /
``claim`` a nameplate, ``open`` its mailbox, ``add`` messages, ``release`` and ``close``.
Every body we add is already encrypted (``friendcode.py``): the server sees nameplates,
message sizes and timing, never a card or a code's secret part.

Anything the server sends that is not what we expect is dropped or turned into a
``RendezvousError`` (a ``ConnectionError``): a hostile or broken server can fail a
meeting, never raise anything else into the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import secrets
from urllib.parse import urlsplit

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from .candidates import seen_ip

APPID = "gin3d.game/gin3d/friend/v1"  # our application scope at the mailbox server
DEFAULT_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
DEFAULT_TRANSIT = "transit.magic-wormhole.io:4001"
MAILBOX_ENV = "GIN3D_RENDEZVOUS"  # a packager's or player's own mailbox server
TRANSIT_ENV = "GIN3D_TRANSIT"  # ... and transit relay (host:port)
LOOPBACK_ONLY_ENV = "GIN3D_TEST_LOOPBACK_ONLY"  # set by the tests: never a public server
MESSAGE_LIMIT = 64 * 1024  # bytes of one server message we accept
CONNECT_TIMEOUT = 10.0


class RendezvousError(ConnectionError):
    """The meeting at the mailbox server failed; the message says why, for the player."""


def mailbox_url(configured: str = "") -> str:
    """The mailbox server to use: ``configured``, else ``$GIN3D_RENDEZVOUS``, else the
    public one; checked (``ws://`` or ``wss://``; loopback only when the tests say so)."""
    url = configured or os.environ.get(MAILBOX_ENV, "") or DEFAULT_MAILBOX
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"{url!r} is not a mailbox server address (ws://host:port/v1)")
    check_loopback(parts.hostname)
    return url


def check_loopback(host: str) -> None:
    """With ``$GIN3D_TEST_LOOPBACK_ONLY`` set, refuse any host that is not a loopback
    literal: a test run can never reach a public server."""
    if not os.environ.get(LOOPBACK_ONLY_ENV):
        return
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(f"{host!r} is not a loopback address ({LOOPBACK_ONLY_ENV} is set)")


class MailboxClient:
    """One websocket connection to the mailbox server, bound to ``APPID`` and one side.

    The server allows one claim, one open, one release and one close per connection; a
    fresh meeting (after a wrong code spoiled one) uses a fresh client and side."""

    def __init__(self, url: str, appid: str = APPID) -> None:
        self.url = mailbox_url(url)
        self.appid = appid
        self.side = secrets.token_hex(5)
        self.nameplate = ""
        self.mailbox = ""
        self._ws = None
        self._reader: asyncio.Task | None = None
        self._replies: asyncio.Queue[dict] = asyncio.Queue()
        self._messages: list[dict] = []  # the other side's messages, in order
        self._arrived = asyncio.Event()
        self._closed_why = ""
        self.seen_ip = ""  # the address the server saw us come from (its welcome says)

    async def connect(self, timeout: float = CONNECT_TIMEOUT) -> None:
        try:
            self._ws = await asyncio.wait_for(
                connect(self.url, max_size=MESSAGE_LIMIT, open_timeout=timeout), timeout
            )
        except (OSError, asyncio.TimeoutError, WebSocketException) as exc:
            raise RendezvousError(
                f"cannot reach the meeting server {self.url}: {exc or 'timed out'}"
            ) from None
        self._reader = asyncio.ensure_future(self._read())
        await self._send("bind", appid=self.appid, side=self.side, client_version=["gin3d", "1"])

    async def _read(self) -> None:
        """Sort what the server sends: the other side's messages, and replies to us."""
        try:
            async for raw in self._ws:
                msg = _parse(raw)
                if (
                    msg is not None
                    and msg["type"] == "welcome"
                    and self._welcome(msg.get("welcome"))
                ):
                    return  # the server turns everyone away (its operator's words in why)
                if msg is None or msg["type"] in ("ack", "welcome", "pong"):
                    continue
                if msg["type"] == "message":
                    if _is_message(msg) and msg["side"] != self.side:
                        self._messages.append(msg)
                        self._arrived.set()
                    continue
                await self._replies.put(msg)
        except (WebSocketException, OSError) as exc:
            self._closed_why = str(exc) or type(exc).__name__
        finally:
            self._closed_why = self._closed_why or "the meeting server closed the connection"
            self._arrived.set()
            await self._replies.put({"type": "gone"})

    def _welcome(self, welcome) -> bool:
        """The server's welcome: the IPv4 address it saw us come from, when it says
        (checked: a server's text is never used as is). True when it says it serves nobody
        now (``error``: an operator's signal to every client), with its words kept."""
        if not isinstance(welcome, dict):
            return False
        if "error" in welcome:
            self._closed_why = f"the meeting server said: {_text(welcome['error'])}"
            return True
        you = welcome.get("your-address")
        ip = you.get("ipv4") if isinstance(you, dict) else None
        if isinstance(ip, str):
            self.seen_ip = seen_ip(ip)
        return False

    async def _send(self, kind: str, **fields) -> None:
        if self._ws is None:
            raise RendezvousError("not connected to the meeting server")
        try:
            await self._ws.send(json.dumps({"type": kind, "id": secrets.token_hex(2), **fields}))
        except (WebSocketException, OSError) as exc:
            raise RendezvousError(f"the meeting server went away: {exc}") from None

    async def _reply(self, kind: str, timeout: float) -> dict:
        """The server's next reply of ``kind`` (an ``error`` reply, or a closed connection,
        is a RendezvousError naming it)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            try:
                msg = await asyncio.wait_for(self._replies.get(), deadline - loop.time())
            except asyncio.TimeoutError:
                raise RendezvousError("the meeting server did not answer") from None
            if msg["type"] == "gone":
                await self._replies.put(msg)  # every later wait sees it too
                raise RendezvousError(self._closed_why)
            if msg["type"] == "error":
                raise RendezvousError(f"the meeting server said: {_text(msg.get('error'))}")
            if msg["type"] == kind:
                return msg

    async def allocate(self, timeout: float = CONNECT_TIMEOUT) -> str:
        """A fresh nameplate (claimed by us) and its mailbox, opened."""
        await self._send("allocate")
        reply = await self._reply("allocated", timeout)
        nameplate = reply.get("nameplate")
        if not _is_nameplate(nameplate):
            raise RendezvousError("the meeting server gave us a bad nameplate")
        await self.claim(nameplate, timeout)
        return nameplate

    async def claim(self, nameplate: str, timeout: float = CONNECT_TIMEOUT) -> None:
        """Claim ``nameplate`` and open its mailbox (``crowded``: two sides have it already)."""
        await self._send("claim", nameplate=nameplate)
        reply = await self._reply("claimed", timeout)
        mailbox = reply.get("mailbox")
        if not isinstance(mailbox, str) or not 0 < len(mailbox) <= 64:
            raise RendezvousError("the meeting server gave us a bad mailbox")
        self.nameplate, self.mailbox = nameplate, mailbox
        await self._send("open", mailbox=mailbox)

    async def add(self, phase: str, body: bytes) -> None:
        await self._send("add", phase=phase, body=body.hex())

    async def get(self, phase: str, timeout: float) -> bytes:
        """The other side's next message of ``phase`` (its body), waiting up to ``timeout``;
        a message of the phase ``error`` is raised as a RendezvousError with its text."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for msg in self._messages:
                if msg["phase"] in (phase, "error"):
                    self._messages.remove(msg)
                    body = bytes.fromhex(msg["body"])
                    if msg["phase"] == "error":
                        raise RendezvousError(body.decode("utf-8", "replace")[:200])
                    return body
            if self._ws is None or self._reader is None or self._reader.done():
                raise RendezvousError(self._closed_why or "not connected to the meeting server")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                raise RendezvousError("nobody came to the meeting in time") from None

    async def release(self, timeout: float = 5.0) -> None:
        """Give the nameplate back (the code's number may then be handed to someone else)."""
        if self.nameplate:
            with contextlib.suppress(RendezvousError):
                await self._send("release", nameplate=self.nameplate)
                await self._reply("released", timeout)
            self.nameplate = ""

    async def close(self, mood: str = "happy", timeout: float = 5.0) -> None:
        """Release, close the mailbox and the connection; never raises."""
        with contextlib.suppress(RendezvousError):
            await self.release(timeout)
            if self.mailbox:
                await self._send("close", mailbox=self.mailbox, mood=mood)
                await self._reply("closed", timeout)
        self.mailbox = ""
        if self._ws is not None:
            with contextlib.suppress(Exception):  # the socket may be half gone: any error
                await asyncio.wait_for(self._ws.close(), timeout)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


def _parse(raw) -> dict | None:
    """A server message as a dict with a text ``type``, or None for anything else."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode()
        except UnicodeDecodeError:
            return None
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return None
    return msg


def _is_message(msg: dict) -> bool:
    body, phase, side = msg.get("body"), msg.get("phase"), msg.get("side")
    if not (isinstance(body, str) and isinstance(phase, str) and isinstance(side, str)):
        return False
    if len(phase) > 40 or len(body) % 2:
        return False
    try:
        bytes.fromhex(body)
    except ValueError:
        return False
    return True


def _is_nameplate(value) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 7


def _text(value) -> str:
    return "".join(ch for ch in str(value)[:200] if ch.isprintable())
