"""A client of the magic-wormhole transit relay: the fallback when a friend found by code
cannot be reached directly (docs/net.md, *A friend by code*).

Both games connect to the relay and send ``please relay <token> for side <side>\\n``; the
relay pairs two connections with the same token and different sides, answers each
``ok\\n`` and from then on copies bytes between them. The token comes from the key both
games agreed through the mailbox (``friendcode.py``), so only they can pair; what crosses
the relay afterwards is our TLS. The host then says ``GO`` and the guest starts TLS only
after it, for the reason ``relay.relay_connect`` gives (a ClientHello read together with
``ok`` would sit in a buffer ``start_tls`` never sees).
"""

from __future__ import annotations

import asyncio
import os
import re

from .mailbox import DEFAULT_TRANSIT, TRANSIT_ENV, RendezvousError, check_loopback
from .relay_client import GO, unreachable_why
from .transport import parse_address

_TOKEN = re.compile(r"[0-9a-f]{64}\Z")  # what the relay pairs by
_SIDE = re.compile(r"[0-9a-f]{16}\Z")  # which end we are (the two must differ)


def transit_address(configured: str = "") -> tuple[str, int]:
    """The transit relay to use: ``configured``, else ``$GIN3D_TRANSIT``, else the public
    one (``host:port``; loopback only when the tests say so)."""
    text = configured or os.environ.get(TRANSIT_ENV, "") or DEFAULT_TRANSIT
    text = text.removeprefix("tcp:")
    host, port = parse_address(text, 4001)
    check_loopback(host)
    return host, port


async def transit_connect(
    address: tuple[str, int], token: str, side: str, role: str, timeout: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A stream to the other game through the transit relay at ``address``, once the relay
    has paired us (waiting up to ``timeout`` s for the other side)."""
    if not (_TOKEN.match(token) and _SIDE.match(side)):
        raise ValueError("a transit token is 64 lower-case hex digits, a side 16")
    host, port = address
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
    except (OSError, asyncio.TimeoutError) as exc:
        raise RendezvousError(
            f"cannot reach the transit relay {host}:{port}: {unreachable_why(exc)}"
        ) from None
    writer.write(f"please relay {token} for side {side}\n".encode())
    try:
        answer = await asyncio.wait_for(reader.readuntil(b"\n"), timeout)
        if answer != b"ok\n":
            raise RendezvousError(f"the transit relay said: {answer[:60]!r}")
        if role == "host":
            writer.write(GO)
        elif await asyncio.wait_for(reader.readuntil(b"\n"), 30) != GO:
            raise RendezvousError("the host's side of the transit relay spoke out of turn")
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
        writer.close()
        raise RendezvousError(f"the transit relay did not pair us: {exc or 'timed out'}") from None
    except (OSError, RendezvousError, asyncio.CancelledError):
        writer.close()
        raise
    return reader, writer
