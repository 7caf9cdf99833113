"""The relay pairs by the code's room hash, refuses junk, and only ever sees ciphertext."""

import asyncio

from net_harness import relay_proofs as proofs
from test_net_relay_attacks import attempt, until

from gin3d.engine import RuleSet
from gin3d.net.directory import MemoryDirectory
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.relay import Limits, Relay, RelayError, claim_verifier, relay_connect
from gin3d.net.upnp import NOT_AVAILABLE, map_port
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"


def test_relay_forwards_only_what_it_cannot_read():
    seen = bytearray()

    async def scenario():
        relay = Relay(LOOP, 0, observer=seen.extend)
        await relay.start()
        opts = MatchOptions(relay=(LOOP, relay.port))
        host = HostedMatch(GreedyPlayer(), RuleSet.preset("classic", game_target=30), options=opts)
        await host.start()
        guest = JoinedMatch(GreedyPlayer(), host.code, options=MatchOptions(relay=opts.relay))
        await guest.start()
        ended = await asyncio.gather(host.wait(), guest.wait())
        await host.close()
        await guest.close()
        await relay.close()
        return host, guest, ended, relay

    host, guest, ended, relay = asyncio.run(scenario())
    assert [e.reason for e in ended] == ["finished", "finished"]
    assert guest.route == "relay" and relay.pairs >= 1 and len(seen) > 10_000
    for plain in (
        b'"t":"act"',
        b"discard",
        b'"deck"',
        host.code.encode(),
        host.code.replace("-", "").encode(),
    ):
        assert plain not in seen


def test_relay_refuses_bad_requests_and_double_bookings():
    async def scenario():
        relay = Relay(LOOP, 0)
        await relay.start()
        reader, writer = await asyncio.open_connection(LOOP, relay.port)
        writer.write(b"HELLO THERE\n")
        answer = await reader.readline()
        writer.close()
        room, claim, verifier = proofs("ABCD-EFGHJK")
        waiting = asyncio.ensure_future(relay_connect(LOOP, relay.port, "host", room, verifier))
        while ("host", verifier) not in relay.waiting:
            await asyncio.sleep(0)
        try:
            await relay_connect(LOOP, relay.port, "host", room, verifier)
        except RelayError as exc:
            busy = str(exc)
        guest = await relay_connect(LOOP, relay.port, "guest", room, claim)
        paired = await waiting
        paired[1].write(b"ping")
        got = await guest[0].readexactly(4)
        for _, w in (guest, paired):
            w.close()
        await relay.close()
        return answer, busy, got

    answer, busy, got = asyncio.run(scenario())
    assert answer.startswith(b"REFUSED")
    assert "already waiting" in busy
    assert got == b"ping"


def test_upnp_says_clearly_when_it_is_not_available(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "miniupnpc", None)  # as if the package were missing
    result = map_port(47470)
    assert not result.ok and result.message == NOT_AVAILABLE
    assert not map_port(0).ok


def test_one_address_cannot_fill_the_relay():
    """The attack: one machine books room after room until the relay is full for everyone.
    Now an address may keep only a few tables waiting; a pairing frees its place."""

    async def scenario():
        relay = Relay(LOOP, 0, limits=Limits(max_waiting_per_address=3))
        await relay.start()
        rooms = [proofs(f"{c}BCD-EFGHJK") for c in "ABCD"]
        waiting = [
            asyncio.ensure_future(relay_connect(LOOP, relay.port, "host", r, v))
            for r, _, v in rooms[:3]
        ]
        while len(relay.waiting) < 3:
            await asyncio.sleep(0)
        try:
            await relay_connect(LOOP, relay.port, "host", rooms[3][0], rooms[3][2])
            refused = ""
        except RelayError as exc:
            refused = str(exc)
        guest = await relay_connect(LOOP, relay.port, "guest", *rooms[0][:2])  # pairs the first
        host = await waiting[0]
        fourth = asyncio.ensure_future(
            relay_connect(LOOP, relay.port, "host", rooms[3][0], rooms[3][2])
        )
        while ("host", rooms[3][2]) not in relay.waiting:  # room for one more again
            await asyncio.sleep(0)
        for task in (*waiting[1:], fourth):
            task.cancel()
        for _, w in (guest, host):
            w.close()
        await relay.close()
        return refused

    assert "too many tables waiting from your address" in asyncio.run(scenario())


def test_an_unreachable_relay_is_said_in_words():
    """A host whose relay is down is told so in words on its hosting screen (it read
    "[Errno 111] Connect call failed ('127.0.0.1', P)")."""
    import socket

    from gin3d.net.relay_client import RelayUnreachable, _open

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    try:
        asyncio.run(_open("127.0.0.1", port))
    except RelayUnreachable as exc:
        said = str(exc)
    assert said == f"cannot reach the relay 127.0.0.1:{port}: nobody listens there"


class _RemoteDirectory(MemoryDirectory):
    """A node's directory whose closing of a table takes a round trip, as with Redis
    (the event loop runs other tasks meanwhile)."""

    async def close_table(self, table_id: str) -> None:
        for _ in range(20):
            await asyncio.sleep(0)
        await super().close_table(table_id)


def test_a_listed_tables_host_that_comes_back_to_its_waiting_guest_is_paired():
    """A listed table's host registers again (its node died, say) on the node where its
    guest already waits: both are paired. Closing the listing in the directory once let the
    guest's wait end first, unpaired, and the node closed it without a word."""
    room, claim, verifier = proofs("K7QD-M3XR9P")
    line = f"{'ab' * 32} classic 100 QmVu K7QD-M3XR9P"

    async def scenario():
        relay = Relay(LOOP, 0, directory=_RemoteDirectory())
        await relay.start()
        guest = asyncio.ensure_future(
            attempt(relay_connect(LOOP, relay.port, "guest", room, claim, 10))
        )
        await until(lambda: ("guest", claim_verifier(claim)) in relay.waiting)
        host = await attempt(
            relay_connect(LOOP, relay.port, "table", room, verifier, 10, extra=line)
        )
        joined = await guest
        await relay.close()
        return host, joined, relay.pairs

    assert asyncio.run(scenario()) == ("PAIRED", "PAIRED", 1)
