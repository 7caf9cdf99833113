"""TLS + join-code handshake over real loopback sockets: right code, wrong code, wrong
version, a man in the middle, garbage, and a stranger trying to take over a match."""

import ast
import asyncio
import contextlib
import gc
from pathlib import Path

import pytest
from plain_failures import parse_source

from gin3d.engine import RuleSet
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.session import Callbacks
from gin3d.net.transport import (
    HandshakeError,
    Identity,
    make_code,
    normalize_code,
    parse_address,
    parse_relays,
    room_id,
    tls_link,
)
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)
LOOP = "127.0.0.1"
GIN3D = Path(__file__).resolve().parent.parent / "gin3d"


async def _host(**kw):
    host = HostedMatch(GreedyPlayer(), SHORT, listen=LOOP, port=0, options=MatchOptions(**kw))
    await host.start()
    return host


def test_codes():
    code = make_code()
    assert normalize_code(code.lower().replace("-", " ")) == code
    assert room_id(code) == room_id(code[:4] + "-" + "2" * 6)  # the relay sees the room part
    with pytest.raises(ValueError, match="not a join code"):
        normalize_code("ABC-0OIL")
    assert parse_address("127.0.0.1:5000", 1) == ("127.0.0.1", 5000)
    assert parse_address("[::1]:7", 1) == ("::1", 7)
    assert parse_address("lan-box", 47470) == ("lan-box", 47470)
    with pytest.raises(ValueError, match="port"):
        parse_address("h:99999", 1)
    assert parse_address("gin3d.example.org.:9", 1) == ("gin3d.example.org.", 9)
    for typed in ("my friend's pc", ":5000", "a:b:c", "box\x1b[2J", "-x.org", "a..b", "é.org"):
        with pytest.raises(ValueError, match="not a host name or IP address"):
            parse_address(typed, 1)
    with pytest.raises(ValueError, match="not a host name"):
        parse_relays("127.0.0.1:5000, bad host:5001", 1)


def test_right_code_plays_a_game_over_tls():
    async def scenario():
        host = await _host()
        guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
        await guest.start()
        ended = await asyncio.gather(host.wait(), guest.wait())
        assert guest.peer_fingerprint == host.identity.fingerprint
        assert host.peer_fingerprint == guest.identity.fingerprint
        assert host.session.log.head == guest.session.log.head
        assert host.safety_code == guest.safety_code and len(host.safety_code) == 7
        await host.close()
        await guest.close()
        return ended

    assert [e.reason for e in asyncio.run(scenario())] == ["finished", "finished"]


def test_wrong_code_fails_clearly_and_the_table_stays_open():
    async def scenario():
        host = await _host()
        wrong = "2222-222222" if host.code != "2222-222222" else "3333-333333"
        with pytest.raises(HandshakeError, match="join code is wrong"):
            await JoinedMatch(GreedyPlayer(), wrong, direct=(LOOP, host.port)).start()
        assert host.session is None and any("join code" in f for f in host.failures)
        guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
        await guest.start()
        await asyncio.gather(host.wait(), guest.wait())
        await host.close()
        await guest.close()

    asyncio.run(scenario())


def test_incompatible_version_gets_an_explicit_error():
    async def scenario():
        host = await _host()
        guest = JoinedMatch(
            GreedyPlayer(), host.code, direct=(LOOP, host.port), options=MatchOptions(version=99)
        )
        with pytest.raises(HandshakeError, match="incompatible versions"):
            await guest.start()
        assert any("incompatible versions" in f for f in host.failures)
        await host.close()

    asyncio.run(scenario())


def test_man_in_the_middle_is_detected():
    async def scenario():
        failed = asyncio.Event()

        def status(text):
            if text.startswith("connection failed"):
                failed.set()

        host = await _host(callbacks=Callbacks(on_status=status))
        mallory = Identity.generate("mallory")

        async def intercept(reader, writer):
            to_guest, _ = await tls_link(reader, writer, "host", mallory)
            r2, w2 = await asyncio.open_connection(LOOP, host.port)
            to_host, _ = await tls_link(r2, w2, "guest", mallory)

            async def pump(src, dst):
                with contextlib.suppress(Exception):
                    while True:
                        await dst.send(await src.recv())

            await asyncio.gather(pump(to_guest, to_host), pump(to_host, to_guest))

        proxy = await asyncio.start_server(intercept, LOOP, 0)
        port = proxy.sockets[0].getsockname()[1]
        # mallory even knows the code: the fingerprints bound into the confirmation differ
        guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, port))
        with pytest.raises(HandshakeError, match="intercepting"):
            await guest.start()
        await failed.wait()
        assert host.session is None and "intercepting" in host.failures[0]
        proxy.close()
        await host.close()

    asyncio.run(scenario())


def test_garbage_and_strangers_are_turned_away():
    async def scenario():
        host = await _host()
        _, writer = await asyncio.open_connection(LOOP, host.port)
        writer.write(bytes(range(256)) * 4)
        await writer.drain()
        writer.close()
        guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
        await guest.start()
        # a second player with the right code cannot take over: the fingerprint is pinned
        stranger = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
        with pytest.raises(HandshakeError, match="not the opponent"):
            await stranger.start()
        ended = await asyncio.gather(host.wait(), guest.wait())
        assert [e.reason for e in ended] == ["finished", "finished"]
        assert any("TLS" in f or "handshake" in f for f in host.failures)
        await host.close()
        await guest.close()

    asyncio.run(scenario())


class _Proxy:
    """A plain TCP forwarder that can be shut down with its connections (a host 'moving')."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.writers = []

    async def start(self):
        self.server = await asyncio.start_server(self._conn, LOOP, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _conn(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection(LOOP, self.target)
        self.writers += [writer, up_writer]

        async def pump(src, dst):
            with contextlib.suppress(OSError, ConnectionError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    def close(self):
        self.server.close()
        for w in self.writers:
            w.close()


def test_match_resumes_at_a_new_address():
    from net_harness import ScriptedPlayer

    async def scenario():
        host = await _host()
        first = await _Proxy(host.port).start()
        second = await _Proxy(host.port).start()
        moved = []

        async def move(session, view):  # mid-game the old address dies; a new one is given
            first.close()
            guest.direct = (LOOP, second.port)
            moved.append(view.hand_number)

        guest = JoinedMatch(
            ScriptedPlayer(move, lambda v: v.phase == "discard"),
            host.code,
            direct=(LOOP, first.port),
        )
        await guest.start()
        ended = await asyncio.gather(host.wait(), guest.wait())
        heads = host.session.log.head, guest.session.log.head
        second.close()
        await host.close()
        await guest.close()
        return ended, heads, moved, second

    ended, heads, moved, second = asyncio.run(scenario())
    assert moved and [e.reason for e in ended] == ["finished", "finished"]
    assert heads[0] == heads[1]
    assert second.writers  # the game went on through the new address


def test_the_network_code_touches_no_private_attribute_of_another_library():
    """asyncio's private attributes change between Python versions (StreamReaderProtocol's
    _replace_writer is not in 3.10 and was renamed in 3.13): an attribute with a leading
    underscore read in gin3d/net must be one that gin3d itself defines."""
    trees = {
        f: parse_source(f.read_text(encoding="utf-8"), str(f)) for f in sorted(GIN3D.rglob("*.py"))
    }
    ours = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ours.add(node.name)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                ours.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                ours.add(node.id)
    foreign = [
        f"{f.relative_to(GIN3D.parent)}:{node.lineno}: {ast.unparse(node)}"
        for f, tree in trees.items()
        if f.parent.name == "net"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and node.attr not in ours
    ]
    assert not foreign, foreign


def test_tls_on_a_connection_we_opened_as_the_server_survives_garbage_collection():
    """The host behind the relay is the TLS server on a connection it opened. After the
    upgrade only the TLS streams are kept; collecting the plain ones must not close the
    socket underneath (a StreamWriter closes its transport when collected, from 3.12)."""

    async def scenario():
        accepted: asyncio.Queue = asyncio.Queue()

        async def on_connect(reader, writer):
            link, host_fp = await tls_link(reader, writer, "guest", Identity.generate("g"))
            await accepted.put((link, host_fp))

        server = await asyncio.start_server(on_connect, LOOP, 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection(LOOP, port)
        host_id = Identity.generate("h")
        to_guest, _ = await tls_link(reader, writer, "host", host_id)
        to_host, host_fp = await asyncio.wait_for(accepted.get(), 10)
        del reader, writer
        gc.collect()
        await asyncio.sleep(0.05)
        assert host_fp == host_id.fingerprint
        for n in range(3):
            await to_guest.send({"t": "ping", "n": n})
            assert await asyncio.wait_for(to_host.recv(), 5) == {"t": "ping", "n": n}
            await to_host.send({"t": "ping", "n": 100 + n})
            assert await asyncio.wait_for(to_guest.recv(), 5) == {"t": "ping", "n": 100 + n}
        to_guest.close()
        with pytest.raises((asyncio.IncompleteReadError, ConnectionError)):
            await asyncio.wait_for(to_host.recv(), 5)
        to_host.close()
        server.close()
        await server.wait_closed()

    asyncio.run(scenario())
