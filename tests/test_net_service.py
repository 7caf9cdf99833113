"""The online service as many relay nodes sharing one real Redis (real processes, loopback):
players on different nodes are paired, a match survives its node's death, a waiting table
its node's restart, and the limits on squatters and guessers hold across nodes."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from net_harness import ScriptedPlayer
from net_harness import relay_proofs as proofs
from service_harness import Node, RedisServer
from test_net_relay_attacks import attempt, same_room_other_code, until

from gin3d.engine import RuleSet
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.relay import WRONG_CODE, relay_connect
from gin3d.net.service_client import join_table, list_tables, open_table, probe, quick_match
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)
LONGER = RuleSet.preset("classic", game_target=60)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def nodes(redis_server, tmp_path):
    """Two nodes, A and B, of one service; Redis starts empty for each test."""
    assert redis_server.command("FLUSHALL") == "+OK"
    started = []
    try:
        for name in "AB":
            started.append(Node(tmp_path, redis_server.url, name))
        yield started
    finally:
        for node in started:
            node.stop()


async def _finish(host: HostedMatch, guest: JoinedMatch, timeout: float = 60):
    ended = await asyncio.wait_for(asyncio.gather(host.wait(), guest.wait()), timeout)
    heads = (host.session.log.head, guest.session.log.head)
    ok = host.session.log.verify() and guest.session.log.verify()
    await host.close()
    await guest.close()
    return [e.reason for e in ended], heads, ok


def test_a_host_on_one_node_and_a_guest_on_another_play_a_whole_match(nodes, redis_server):
    """...and once the pair has ended the service keeps nothing of it: only the nodes' own
    entries stay in Redis (no room, booking, slot or address)."""
    a, b = nodes

    def left_over() -> list[str]:
        return [k for k in redis_server.keys("gin3d:*") if not k.startswith("gin3d:node:")]

    async def scenario():
        host = HostedMatch(GreedyPlayer(), SHORT, options=MatchOptions(relay=a.address))
        await host.start()
        await until(left_over, 10)
        waiting = left_over()  # the host's booking and room while it waits
        guest = JoinedMatch(GreedyPlayer(), host.code, options=MatchOptions(relay=b.address))
        await asyncio.wait_for(guest.start(), 30)
        result = await _finish(host, guest)
        await until(lambda: not left_over(), 10)
        return guest.route, waiting, result

    route, waiting, (reasons, heads, ok) = asyncio.run(scenario())
    assert route == "relay"
    assert waiting  # the check sees the pair's entries while they are there
    assert reasons == ["finished", "finished"] and heads[0] == heads[1] and ok


def test_a_match_through_a_node_that_is_killed_finishes_through_another(nodes):
    a, b = nodes
    service = [a.address, b.address]
    killed = []

    async def kill_a(session, view):
        a.kill()  # SIGKILL mid-hand: both links through A and the host's booking die
        killed.append(view.hand_number)

    async def scenario():
        opts = MatchOptions(relay=service, retry=0.2)
        for tries in range(3):
            host = HostedMatch(GreedyPlayer(), LONGER, options=opts)
            await host.start()
            player = ScriptedPlayer(kill_a, lambda v: v.hand_number == 2 and v.phase == "discard")
            guest = JoinedMatch(player, host.code, options=MatchOptions(relay=service, retry=0.2))
            try:
                await asyncio.wait_for(guest.start(), 30)
                break
            except ConnectionError:  # on a loaded machine the join, before any kill, can fail
                await host.close()
                if tries == 2:
                    raise
        return await _finish(host, guest, timeout=90), host, guest

    (reasons, heads, ok), host, guest = asyncio.run(scenario())
    if not killed:
        pytest.skip("the match ended before its second hand (very rare deal)")
    assert reasons == ["finished", "finished"] and heads[0] == heads[1] and ok
    assert any("relay" in f for f in host.failures)  # its booking at A was cut
    assert guest.session.games and guest.session.games[-1].over


def test_a_squatter_parked_on_both_nodes_does_not_get_the_real_guest(nodes):
    """The squatter of test_net_relay_attacks, spread over two nodes: knowing the room part,
    it parks a guest on A and a host on B; the real guest (on B) still pairs with the real
    host (on A), and the squatter with nobody."""
    a, b = nodes

    async def scenario():
        host = HostedMatch(GreedyPlayer(), SHORT, options=MatchOptions(relay=a.address))
        fake = same_room_other_code(host.code)
        room, claim, _ = proofs(fake)
        squat = [
            asyncio.ensure_future(relay_connect(*a.address, "guest", room, claim)),
            asyncio.ensure_future(
                relay_connect(*b.address, "host", room, proofs(same_room_other_code(fake))[2])
            ),
        ]
        await host.start()
        guest = JoinedMatch(GreedyPlayer(), host.code, options=MatchOptions(relay=b.address))
        await asyncio.wait_for(guest.start(), 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        pinned = (
            host.peer_fingerprint == guest.identity.fingerprint,
            guest.peer_fingerprint == host.identity.fingerprint,
            # a squat that ended in a refusal or its pre-pairing timeout paired nobody
            any(t.done() and not t.cancelled() and t.exception() is None for t in squat),
        )
        await guest.close()
        await host.close()
        for task in squat:
            task.cancel()
        return pinned

    host_has_guest, guest_has_host, squatter_paired = asyncio.run(scenario())
    assert host_has_guest and guest_has_host and not squatter_paired


def test_a_guesser_gets_one_budget_for_all_nodes_and_the_host_hears_of_every_miss(
    nodes, redis_server
):
    """A guesser alternating nodes gets one wrong-code budget (10), not one per node, and
    the host waiting on A hears of the misses tried on B."""
    a, b = nodes

    async def scenario():
        target = HostedMatch(GreedyPlayer(), SHORT, options=MatchOptions(relay=a.address))
        await target.start()
        room = proofs(target.code)[0]
        await until(lambda: redis_server.command("SCARD", f"gin3d:room:{room}") == ":1", 10)
        answers = []
        for i in range(12):
            node = (a, b)[i % 2]
            guess = secrets.token_hex(32)  # a claim of some other code of this room
            answers.append(await attempt(relay_connect(*node.address, "guest", room, guess)))
        await until(lambda: target.wrong_codes >= 10, 10)
        told = target.wrong_codes
        await target.close()
        return answers, told

    answers, told = asyncio.run(scenario())
    assert all(WRONG_CODE in x for x in answers[:10])
    assert all("too many wrong join codes" in x for x in answers[10:])
    assert told == 10


def test_a_waiting_table_stays_listed_through_its_nodes_restart(nodes):
    """A public table's host waits on A; A is killed: the table stays listed (its grace
    time) and keeps its waiting time, the host registers again (B, or A once restarted),
    and a guest who picks it from the list joins it."""
    a, b = nodes
    service = [a.address, b.address]

    async def listed(node) -> list:
        return await list_tables([node.address])

    async def scenario():
        opts = MatchOptions(relay=service, retry=0.2, name="Ann")
        host = await open_table(service, GreedyPlayer(), SHORT, opts)
        await until_async(lambda: listed(b), 10)
        before = (await listed(b))[0]
        a.kill()
        during = await listed(b)  # A is dead: its table is still there
        await asyncio.to_thread(a.restart)
        guest = await asyncio.wait_for(join_table([b.address], during[0], GreedyPlayer()), 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        after = await listed(b)  # taken: no longer listed
        pinned = guest.peer_fingerprint == host.identity.fingerprint
        await guest.close()
        await host.close()
        return before, during, after, pinned

    before, during, after, pinned = asyncio.run(scenario())
    assert [t.table_id for t in during] == [before.table_id]
    assert abs(during[0].since - before.since) <= 1.5  # the same table, waiting as long
    assert during[0].name == "Ann" and pinned
    assert after == []


async def until_async(probe, timeout: float) -> None:
    """Wait (bounded) until ``await probe()`` is truthy."""

    async def poll():
        while not await probe():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


@pytest.fixture(params=["memory", "redis"])
def service(request, tmp_path):
    """The service as players see it: one node alone, or two nodes sharing Redis."""
    if request.param == "memory":
        node = Node(tmp_path, None, "M")
        yield [node.address], node.address
        node.stop()
    else:
        a, b = request.getfixturevalue("nodes")
        yield [a.address, b.address], b.address


def test_open_tables_are_listed_clean_one_per_player_and_vanish_with_their_host(service):
    nodes, other = service
    rude = "\u202eAnn\x07\tthe\u200b  Great of the Very Long Name Indeed"

    async def scenario():
        info = await probe(nodes)
        host = await open_table(nodes, GreedyPlayer(), SHORT, MatchOptions(name=rude))
        await until_async(lambda: list_tables([other]), 10)
        shown = await list_tables([other], "classic")
        none_of_pagat = await list_tables([other], "pagat")
        second = proofs("K7QD-M3XR9P")
        extra = f"{'ab' * 32} classic 100 QmVu K7QD-M3XR9P"  # another table, same address
        refused = await attempt(
            relay_connect(*nodes[0], "table", second[0], second[2], timeout=5, extra=extra)
        )
        await host.close()
        await until_async(lambda: _empty(other), 10)
        return info, shown, none_of_pagat, refused, host

    info, shown, none_of_pagat, refused, host = asyncio.run(scenario())
    assert info.ok and info.compatible and info.mode in ("memory", "redis")
    assert len(shown) == 1 and none_of_pagat == []
    table = shown[0]
    assert table.name == "Ann the Great of the Ver"  # no bidi override, bell, tab, ZWSP
    assert len(table.name) <= 24 and all(ch.isprintable() for ch in table.name)
    assert (table.code, table.fingerprint) == (host.code, host.identity.fingerprint)
    assert (table.preset, table.target) == ("classic", 30)
    assert "you already have an open table" in refused


async def _empty(node) -> bool:
    return await list_tables([node]) == []


def test_quick_match_joins_the_oldest_table_of_its_preset_or_opens_one(service):
    nodes, other = service

    async def scenario():
        first = await quick_match(nodes, GreedyPlayer(), "pagat", MatchOptions(name="One"))
        await until_async(lambda: list_tables([other], "pagat"), 10)
        second = await quick_match([other], GreedyPlayer(), "pagat", MatchOptions(name="Two"))
        await asyncio.wait_for(first.ready.wait(), 10)
        left = await list_tables([other])
        result = (type(first), type(second), second.peer_fingerprint, first.identity.fingerprint)
        await until(lambda: second.session.rules is not None, 10)  # the host's setup came
        rules = second.session.rules.name
        await first.close()
        await second.close()
        return result, left, rules

    (kind1, kind2, pinned, fingerprint), left, rules = asyncio.run(scenario())
    assert (kind1, kind2) == (HostedMatch, JoinedMatch) and pinned == fingerprint
    assert left == [] and rules == "pagat"  # the guest plays the host's pagat table


def test_a_service_is_typed_as_one_address_or_its_nodes_comma_separated():
    from gin3d.net.transport import parse_relays

    assert parse_relays("relay.example.org", 47471) == ("relay.example.org", 47471)
    assert parse_relays(" a.example:1, b.example:2 ", 47471) == [("a.example", 1), ("b.example", 2)]
    for bad in ("", " , ", "a.example:1,b.example:99999"):
        with pytest.raises(ValueError):
            parse_relays(bad, 47471)


def test_a_node_whose_redis_is_gone_refuses_clearly_and_stays_up(tmp_path):
    """Redis stops under a running node: each request is refused with the reason (nothing
    is booked half-way), and the node process itself keeps running."""
    redis = RedisServer(tmp_path)
    node = Node(tmp_path, redis.url, "lonely")
    try:
        redis.stop()
        room, _, verifier = proofs("K7QD-M3XR9P")
        said = asyncio.run(attempt(relay_connect(*node.address, "host", room, verifier, 10)))
        alive = node.proc.poll() is None
    finally:
        node.stop()
        redis.stop()
    assert "the service is unavailable" in said and alive
