"""Modified peers that try to crash the other side: every such message is refused, never an
exception, and the honest side's table, match and state carry on unchanged."""

from __future__ import annotations

import asyncio

from gin3d.engine import RuleSet
from gin3d.net.peer import HostedMatch, JoinedMatch
from gin3d.net.protocol import HEADER
from gin3d.net.transport import Identity, handshake, open_table_code, tls_link
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)
LOOP = "127.0.0.1"
HUGE = b"9" * 5000  # a JSON integer Python refuses to convert (over 4,300 digits)


async def _open_table() -> HostedMatch:
    host = HostedMatch(GreedyPlayer(), SHORT, listen=LOOP, port=0, open_table=True)
    await host.start()
    return host


async def _raw(link, body: bytes) -> None:
    link.writer.write(HEADER.pack(len(body)) + body)
    await link.writer.drain()


async def _closed(link) -> bool:
    """Whether the other end closed the link (read until EOF, bounded in time)."""
    try:
        while await asyncio.wait_for(link.reader.read(65536), 10):
            pass
    except (ConnectionError, OSError):
        pass
    return True


async def _honest_guest_plays(host: HostedMatch) -> list[str]:
    guest = JoinedMatch(GreedyPlayer(), "", direct=(LOOP, host.port),
                        open_fingerprint=host.identity.fingerprint)
    await guest.start()
    ended = await asyncio.wait_for(asyncio.gather(host.wait(), guest.wait()), 60)
    await guest.close()
    return [e.reason for e in ended]


def test_huge_integer_before_authentication_is_refused_and_the_table_stays_open():
    async def scenario():
        host = await _open_table()
        reader, writer = await asyncio.open_connection(LOOP, host.port)
        link, _ = await tls_link(reader, writer, "guest", Identity.generate())
        await _raw(link, b'{"t":"hello","v":' + HUGE + b',"app":"gin3d","role":"guest"}')
        assert await _closed(link)
        assert host.session is None
        assert any("digits" in f for f in host.failures)
        reasons = await _honest_guest_plays(host)
        await host.close()
        return reasons

    assert asyncio.run(scenario()) == ["finished", "finished"]


def test_huge_integer_after_authentication_does_not_pin_an_open_table():
    async def scenario():
        host = await _open_table()
        reader, writer = await asyncio.open_connection(LOOP, host.port)
        me = Identity.generate()
        link, host_fp = await tls_link(reader, writer, "guest", me)
        await handshake(link, "guest", me, open_table_code(host_fp), host_fp)
        await link.recv()  # the host's resume
        await _raw(link, b'{"t":"resume","match":"' + b"ab" * 32 + b'","got":' + HUGE + b"}")
        assert await _closed(link)
        assert host.session is None and host.peer_fingerprint is None  # the table is free
        assert any("resume failed" in f for f in host.failures)
        reasons = await _honest_guest_plays(host)
        await host.close()
        return reasons

    assert asyncio.run(scenario()) == ["finished", "finished"]
