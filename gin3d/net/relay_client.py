"""A peer's side of ``gin3d-relay``: open a pairing (``relay_connect``), ask a node for a
host's direct addresses (``ask_direct``), and say why a node did not answer.

The request lines and answers are the relay's (``relay.py``'s docstring); this module is what
the game's peers import, so it holds the wire words both sides share.
"""

from __future__ import annotations

import asyncio
import hashlib

from .candidates import log, parse_candidates
from .constants import RELAY_PORT
from .transport import parse_address

MAGIC = "GIN3D-RELAY/2"
LINE_LIMIT = 512
MISS = b"MISS\n"  # relay -> waiting host: a guest tried a wrong code for this room
REDIRECTS = 3  # REDIRECT answers a client follows in a row
GO = b"GO\n"  # host -> guest through the relay: start TLS now


def claim_verifier(claim: str) -> str:
    """What the host registers: the hash of the guest's claim (``transport.room_claim``), so
    the relay can check a claim but holds nothing it could claim the table with itself."""
    return hashlib.sha256(b"gin3d-relay-verifier|" + claim.encode()).hexdigest()


class RelayError(ConnectionError):
    """The relay refused or could not pair (the message says why)."""


class RelayUnreachable(RelayError):
    """No connection to the relay node at all (a client of many nodes tries the next)."""


async def relay_connect(
    relay_host: str,
    relay_port: int,
    role: str,
    room: str,
    proof: str,
    timeout: float = 600.0,
    on_miss=None,
    extra: str = "",
    on_seen=None,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a pairing at the relay; returns the stream once the other peer has arrived.

    ``proof`` is the host's verifier or the guest's claim; ``on_miss()`` is called (host)
    each time the relay says a guest tried a wrong code for this room, ``on_seen(ip)``
    when it says which address it saw us come from (a host that publishes its direct
    addresses, ``extra`` ``direct <port> ...``). ``role`` ``table``
    opens a public table (``extra``: the rest of its line) and waits as its host. A node
    that answers ``REDIRECT <host:port>`` (the partner waits on that node of the service)
    is left for that one, with the same line."""
    line = f"{MAGIC} {role} {room} {proof}" + (f" {extra}" if extra else "")
    for _ in range(REDIRECTS + 1):
        reader, writer = await _open(relay_host, relay_port)
        writer.write(f"{line}\n".encode())
        try:
            text = await asyncio.wait_for(_answer(reader, on_miss, on_seen), timeout)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError) as exc:
            writer.close()
            raise RelayError(f"the relay did not pair us: {exc or 'timed out'}") from None
        except asyncio.CancelledError:  # a table closed while it waits: gone from the node now
            writer.close()
            raise
        if not text.startswith("REDIRECT "):
            break
        writer.close()
        try:
            relay_host, relay_port = parse_address(text[9:], RELAY_PORT)
        except ValueError:
            raise RelayError(f"the relay sent us to a bad address: {text[9:80]!r}") from None
    if text != "PAIRED":
        writer.close()
        raise RelayError(f"the relay said: {text[:100]}")
    # The guest (TLS client) may speak only once the host is ready for TLS: a ClientHello that
    # reached the host together with "PAIRED" would sit in this StreamReader's buffer, where
    # start_tls never sees it, and the handshake would hang. The host says GO and goes
    # straight into start_tls (no await in between reads the socket).
    if role != "guest":
        writer.write(GO)
    else:
        try:
            go = await asyncio.wait_for(reader.readuntil(b"\n"), 30)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError) as exc:
            writer.close()
            raise RelayError(f"the host did not start: {exc or 'timed out'}") from None
        except asyncio.CancelledError:
            writer.close()
            raise
        if go != GO:
            writer.close()
            raise RelayError("the host's side of the relay spoke out of turn")
    return reader, writer


def unreachable_why(exc: Exception) -> str:
    """Why a node did not answer, in words (not errno and a repeat of the address)."""
    if isinstance(exc, ConnectionRefusedError):
        return "nobody listens there"
    if isinstance(exc, asyncio.TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


async def _open(host: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    try:
        return await asyncio.wait_for(asyncio.open_connection(host, port), 10)
    except (OSError, asyncio.TimeoutError) as exc:
        raise RelayUnreachable(
            f"cannot reach the relay {host}:{port}: {unreachable_why(exc)}"
        ) from None


def relay_nodes(relay) -> list[tuple[str, int]]:
    """The nodes of a service as ``MatchOptions.relay`` gives it: one ``(host, port)`` or a
    list of them."""
    if relay is None:
        return []
    if isinstance(relay, tuple) and len(relay) == 2 and isinstance(relay[1], int):
        return [relay]
    return list(relay)


async def _answer(reader: asyncio.StreamReader, on_miss, on_seen=None) -> str:
    """The relay's answer line, after any ``MISS`` notes (each one calls ``on_miss``) and
    ``SEEN <ip>`` (``on_seen(ip)``)."""
    while True:
        line = await reader.readuntil(b"\n")
        if line == MISS:
            if on_miss is not None:
                on_miss()
            continue
        text = line.decode("ascii", "replace").strip()
        if not text.startswith("SEEN "):
            return text
        if on_seen is not None:
            on_seen(text[5:64])


async def ask_direct(
    nodes: list[tuple[str, int]], room: str, claim: str, timeout: float
) -> list[tuple[str, int]]:
    """The direct addresses the host of ``claim`` published at the service (the first node
    that answers), checked; ``[]`` when there are none or no node answered: never raises."""
    for host, port in nodes:
        try:
            reader, writer = await _open(host, port)
        except RelayUnreachable:
            continue
        try:
            writer.write(f"{MAGIC} where {room} {claim}\n".encode())
            raw = await asyncio.wait_for(reader.readline(), timeout)
        except (OSError, asyncio.TimeoutError, ValueError) as exc:
            log.warning("no direct addresses from %s:%s: %s", host, port, exc or "timed out")
            continue
        finally:
            writer.close()
        words = raw[:LINE_LIMIT].decode("ascii", "replace").split()
        if words[:1] == ["DIRECT"]:
            return parse_candidates(words[1:], f"the node {host}:{port}")
        if words[:1] != ["NONE"]:
            log.warning("ignored the node %s:%s's answer: %r", host, port, raw[:80])
        return []
    return []
