"""Play a friend online, direct first: the host publishes where it listens at the service (a
real Redis and a real node on loopback), the guest with only the code tries that before the
relay, and falls back to the relay when the published address is closed, silent, another
host's, or junk."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from net_harness import relay_proofs as proofs
from service_harness import Node
from test_net_relay_attacks import until
from test_net_service import redis_server  # noqa: F401 (a fixture)

from gin3d.engine import RuleSet
from gin3d.net.candidates import parse_candidate, parse_candidates, published_by
from gin3d.net.constants import MAX_CANDIDATES
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)
TRY_S = 1.5  # the guest's direct timeout here (DIRECT_TIMEOUT in play)
SLACK_S = 8.0  # ... plus the relay's pairing and the handshake, on a loaded machine


@pytest.fixture
def node(redis_server, tmp_path):  # noqa: F811
    assert redis_server.command("FLUSHALL") == "+OK"
    started = Node(tmp_path, redis_server.url, "A")
    yield started
    started.stop()


def _options(node: Node) -> MatchOptions:
    return MatchOptions(relay=node.address, direct_first=True, direct_timeout=TRY_S)


async def _play(host: HostedMatch, guest: JoinedMatch) -> tuple[float, list[str]]:
    """Join, play the short match out; the seconds the join took and how both ended."""
    began = time.monotonic()
    await asyncio.wait_for(guest.start(), 30)
    took = time.monotonic() - began
    ended = await asyncio.wait_for(asyncio.gather(host.wait(), guest.wait()), 60)
    assert host.session.log.head == guest.session.log.head and guest.session.log.verify()
    await guest.close()
    await host.close()
    return took, [e.reason for e in ended]


def test_a_guest_with_the_code_connects_directly_to_the_address_the_host_published(node):
    async def scenario():
        host = HostedMatch(GreedyPlayer(), SHORT, options=_options(node))
        await host.start()
        await until(lambda: host.public_ip)  # the node saw it: published
        guest = JoinedMatch(GreedyPlayer(), host.code, options=_options(node))
        _, reasons = await _play(host, guest)
        return host, guest, reasons

    host, guest, reasons = asyncio.run(scenario())
    assert host.public_ip == "127.0.0.1"  # what the node saw
    assert (guest.route, host.route) == ("direct", "direct")
    assert reasons == ["finished", "finished"]


async def _silent(connections: list) -> asyncio.base_events.Server:
    """A port that accepts and never says a word (a blackholing NAT, half-open)."""

    async def hold(reader, writer):
        connections.append(writer)
        await reader.read()
        connections.append("closed by the guest")

    return await asyncio.start_server(hold, "127.0.0.1", 0)


def test_a_closed_and_a_silent_published_address_fall_back_to_the_relay_in_time(node):
    async def scenario():
        seen: list = []
        silent = await _silent(seen)
        host = HostedMatch(GreedyPlayer(), SHORT, options=_options(node))
        host.external = [f"127.0.0.1:{silent.sockets[0].getsockname()[1]}"]
        await host.start()
        await until(lambda: host.public_ip)  # the node saw it: published
        host.server.close()  # its own port is published, and closed now
        guest = JoinedMatch(GreedyPlayer(), host.code, options=_options(node))
        took, reasons = await _play(host, guest)
        await until(lambda: len(seen) == 2)  # its socket there was closed at the deadline
        silent.close()
        seen[0].close()
        return guest, took, reasons, seen[1:]

    guest, took, reasons, after = asyncio.run(scenario())
    assert after == ["closed by the guest"]  # the guest did try it first, and gave up
    assert guest.route == "relay" and took < TRY_S + SLACK_S
    assert reasons == ["finished", "finished"]


def test_another_host_at_the_published_address_fails_the_handshake_and_the_relay_wins(node):
    """A gin3d host of another table sits where the published address points: it cannot
    pass the code's handshake, so the guest goes on to the relay and meets the real host."""

    async def scenario():
        other = HostedMatch(GreedyPlayer(), SHORT)  # listens only, another code
        await other.start()
        host = HostedMatch(GreedyPlayer(), SHORT, options=_options(node))
        host.external = [f"127.0.0.1:{other.port}"]
        await host.start()
        await until(lambda: host.public_ip)  # the node saw it: published
        host.server.close()
        guest = JoinedMatch(GreedyPlayer(), host.code, options=_options(node))
        took, reasons = await _play(host, guest)
        await other.close()
        return host, guest, other, took, reasons

    host, guest, other, took, reasons = asyncio.run(scenario())
    assert guest.route == "relay" and took < TRY_S + SLACK_S
    assert guest.peer_fingerprint == host.identity.fingerprint
    assert other.session is None and other.failures  # the other host let nobody in
    assert reasons == ["finished", "finished"]


def test_a_malformed_published_list_in_the_directory_is_ignored(node, redis_server, caplog):  # noqa: F811
    junk = [
        "999.1.1.1:5",
        "127.0.0.1:0",
        "example.org:80",
        "[::1",
    ]

    async def scenario():
        host = HostedMatch(GreedyPlayer(), SHORT, options=_options(node))
        await host.start()
        await until(lambda: host.public_ip)  # the node saw it: published
        key = f"gin3d:direct:{proofs(host.code)[2]}"
        assert redis_server.command("GET", key).startswith("$")  # it was published
        assert redis_server.command("SET", key, '"x ' + " ".join(junk) + '"') == "+OK"
        guest = JoinedMatch(GreedyPlayer(), host.code, options=_options(node))
        _, reasons = await _play(host, guest)
        return guest, reasons

    with caplog.at_level(logging.WARNING, logger="gin3d.net.candidates"):
        guest, reasons = asyncio.run(scenario())
    assert guest.route == "relay" and reasons == ["finished", "finished"]
    ignored = [
        r.getMessage() for r in caplog.records if "ignored a direct address" in r.getMessage()
    ]
    assert len(ignored) == len(junk)


def test_published_addresses_are_checked_both_ways():
    assert parse_candidate("203.0.113.5:47470") == ("203.0.113.5", 47470)
    assert parse_candidate("[2001:db8::1]:9") == ("2001:db8::1", 9)
    for bad in ("203.0.113.5", "203.0.113.5:65536", "2001:db8::1:9", "0.0.0.0:9", "a" * 60):
        with pytest.raises(ValueError):
            parse_candidate(bad)
    too_many = [f"10.0.0.{i}:9" for i in range(MAX_CANDIDATES + 1)]
    assert parse_candidates(too_many, "test") == []
    assert parse_candidates(["10.0.0.1:9", "10.0.0.1:9", "x"], "test") == [("10.0.0.1", 9)]
    # a node publishes what it saw plus the host's valid extras, never more than the limit
    assert published_by("198.51.100.7", 47470, ["junk", "10.0.0.1:9"], "test") == [
        "198.51.100.7:47470",
        "10.0.0.1:9",
    ]


def test_play_a_friend_hosts_publishes_its_upnp_mapping_and_the_code_alone_joins_direct(
    node,
    redis_server,  # noqa: F811
    monkeypatch,
):
    """The app's path (NetService): hosting with a service set publishes the address the
    node sees and the UPnP mapping's; the guest types only the code and is told "direct"."""
    import gin3d.net.api as api
    from gin3d.net.session import Timing
    from gin3d.net.upnp import PortMapping

    # a router that forwards its port 1 to us (never dialled: the seen address comes first)
    monkeypatch.setattr(api, "map_port", lambda port: PortMapping(True, "mapped", "127.0.0.1", 1))
    monkeypatch.setattr(api, "unmap_port", lambda mapping: None)
    relay = f"127.0.0.1:{node.port}"
    timing = Timing(heartbeat=0.5, dead_after=5)
    host = api.NetService("Ann", relay=relay, timing=timing).start()
    guest = api.NetService("Bob", relay=relay, timing=timing).start()
    try:
        info = host.host(
            SHORT, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0, upnp=True
        ).result(10)
        key = f"gin3d:direct:{proofs(info.code)[2]}"
        asyncio.run(until(lambda: redis_server.command("EXISTS", key) == ":1"))
        record = _value(redis_server, key)
        assert record.split()[1:] == [f"127.0.0.1:{info.port}", "127.0.0.1:1"]
        assert guest.join_code(info.code, player=GreedyPlayer()).result(30) == "direct"
        assert guest.status()["route"] == "direct"
        asyncio.run(until(lambda: host.status()["route"] == "direct"))
    finally:
        guest.stop()
        host.stop()


def _value(server, key: str) -> str:
    """A Redis string value (``GET`` answers its length first, then the value)."""
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=2) as s:
        s.sendall(f"GET {key}\r\n".encode())
        return s.recv(4096).decode().split("\r\n")[1]


def test_a_node_tells_the_host_what_it_sees_and_only_the_claim_opens_the_list():
    """One node alone (its directory in memory): a host's junk extra is dropped, the list
    goes with the host's wait, and a guest of another code gets nothing but spends a try."""
    from test_net_relay_attacks import same_room_other_code

    from gin3d.net.relay import Relay, ask_direct, relay_connect
    from gin3d.net.transport import make_code

    async def scenario():
        relay = Relay("127.0.0.1", 0)
        await relay.start()
        nodes = [("127.0.0.1", relay.port)]
        code = make_code()
        room, claim, verifier = proofs(code)
        seen: list[str] = []
        extra = "direct 5000 10.0.0.1:9 junk"
        host = asyncio.ensure_future(
            relay_connect(*nodes[0], "host", room, verifier, extra=extra, on_seen=seen.append)
        )
        await until(lambda: seen and relay.waiting)
        found = await ask_direct(nodes, room, claim, 5)
        wrong = await ask_direct(nodes, room, proofs(same_room_other_code(code))[1], 5)
        misses = relay.misses
        host.cancel()
        await until(lambda: not relay.waiting)
        after = await ask_direct(nodes, room, claim, 5)
        await relay.close()
        return seen, found, wrong, misses, after

    seen, found, wrong, misses, after = asyncio.run(scenario())
    assert seen == ["127.0.0.1"]
    assert found == [("127.0.0.1", 5000), ("10.0.0.1", 9)]
    assert wrong == [] and misses == 1
    assert after == []
