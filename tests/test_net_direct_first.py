"""Play a friend online, direct first: a node tells a host the address it sees and keeps
its direct addresses for the guest whose claim matches; both sides check them."""

from __future__ import annotations

import asyncio

import pytest
from net_harness import relay_proofs as proofs
from test_net_relay_attacks import until

from gin3d.net.candidates import parse_candidate, parse_candidates, published_by
from gin3d.net.constants import MAX_CANDIDATES


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
