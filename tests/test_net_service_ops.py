"""Running the online service: ``gin3d-relay --version``, its log lines, ``/healthz`` and
``/metrics``, what a player is told while Redis is down, and the wrong-code limit under
simultaneous tries (real node processes, a real Redis, loopback only)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import pytest
from net_harness import relay_proofs as proofs
from service_harness import ROOT, Node, RedisServer
from test_net_relay_attacks import attempt, same_room_other_code, until

from gin3d import version
from gin3d.net.relay import WRONG_CODE, relay_connect
from gin3d.net.transport import make_code

# one sample line of the text exposition format: name{labels} value
SAMPLE = re.compile(r'[a-z_:][a-z0-9_:]*(\{([a-z_]+="[^"]*",?)*\})? -?[0-9.e+-]+|[+-]Inf|NaN')


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


def two_nodes(redis_server, folder, metrics: bool):
    """Two nodes of one service; Redis empty for each test."""
    assert redis_server.command("FLUSHALL") == "+OK"
    started = []
    try:
        for name in "AB":
            started.append(Node(folder, redis_server.url, name, metrics=metrics))
        yield started
    finally:
        for node in started:
            node.stop()


@pytest.fixture
def watched(redis_server, tmp_path):
    """Two nodes, each serving its metrics."""
    yield from two_nodes(redis_server, tmp_path, True)


@pytest.fixture
def nodes(redis_server, tmp_path):
    yield from two_nodes(redis_server, tmp_path, False)


def test_gin3d_relay_version_prints_the_package_version():
    done = subprocess.run(
        [sys.executable, "-m", "gin3d.net.relay", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == f"gin3d-relay {version()}"


def test_health_metrics_and_a_log_line_per_pair_that_names_no_secret(watched):
    """A pair made across the two nodes: /metrics counts it (and is valid exposition
    text), /healthz says ok with Redis reachable, and the node's log says it was paired
    without the code, the room, the claim or the verifier."""
    a, b = watched
    code = make_code()
    room, claim, verifier = proofs(code)

    async def pair():
        host = asyncio.ensure_future(relay_connect(*a.address, "host", room, verifier, 20))
        await until(lambda: a.metric("gin3d_relay_rooms_open") == 1, 10)
        _, guest = await relay_connect(*b.address, "guest", room, claim, 20)
        _, writer = await host
        await until(lambda: "paired room" in a.log, 10)
        guest.close()
        writer.close()

    asyncio.run(pair())
    status, health = a.get("/healthz")
    assert status == 200 and '"ok": true' in health and '"redis": "reachable"' in health
    status, text = a.get("/metrics")
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert status == 200 and all(SAMPLE.fullmatch(line) for line in samples), samples
    assert a.metric("gin3d_relay_pairs_total") == 1 and b.metric("gin3d_relay_redirects_total")
    assert a.metric("gin3d_relay_redis_seconds_count") > 0
    assert a.get("/nothing")[0] == 404
    paired = [line for line in a.log.splitlines() if "paired room" in line]
    assert len(paired) == 1
    for secret in (code, code.replace("-", ""), room, claim, verifier, room[:10], claim[:16]):
        assert secret not in a.log + b.log


def test_while_redis_is_down_players_hear_a_generic_refusal_and_health_says_so(tmp_path):
    """Redis stops under a node: a player's request is refused as "the service is
    unavailable" and nothing in it names Redis's address or its error; /healthz answers
    503, and /metrics counts the refusal by reason."""
    redis = RedisServer(tmp_path)
    node = Node(tmp_path, redis.url, "alone", metrics=True)
    try:
        assert node.get("/healthz")[0] == 200
        redis.stop()
        room, _, verifier = proofs(make_code())
        said = asyncio.run(attempt(relay_connect(*node.address, "host", room, verifier, 10)))
        listed = asyncio.run(node.ask("list all"))
        status, health = node.get("/healthz")
        refused = node.metric("gin3d_relay_refusals_total")
        logged = node.log
    finally:
        node.stop()
        redis.stop()
    assert said == "the relay said: REFUSED the service is unavailable: try again"
    assert listed == ["REFUSED the service is unavailable: try again"]
    assert str(redis.port) not in said + listed[0] and "Redis" not in said
    assert status == 503 and '"redis": "unreachable"' in health
    assert refused >= 2 and str(redis.port) in logged  # the operator's log says where


def test_simultaneous_wrong_codes_stay_within_the_rooms_limit(nodes, redis_server):
    """30 guessers on 30 addresses (so no address runs out) try wrong codes for one room
    at the same moment, half through each node: the room's budget allows 20, and no more
    than 20 are checked (the rest are refused before their claim is read)."""
    a, b = nodes
    code = make_code()
    room, _, verifier = proofs(code)
    claims = [proofs(same_room_other_code(code))[1] for _ in range(30)]

    def redis_waits(room: str) -> bool:  # the host is booked in its room
        return bool(redis_server.keys(f"gin3d:room:{room}"))

    async def guess(i: int, claim: str) -> str:
        node = (a, b)[i % 2]
        reader, writer = await node.say(f"guest {room} {claim}", f"127.55.{i}.1")
        try:
            return (await asyncio.wait_for(reader.readline(), 20)).decode().strip()
        finally:
            writer.close()

    async def scenario():
        host = asyncio.ensure_future(relay_connect(*a.address, "host", room, verifier, 30))
        await until(lambda: redis_waits(room), 10)
        said = await asyncio.gather(*(guess(i, c) for i, c in enumerate(claims)))
        host.cancel()
        return said

    said = asyncio.run(scenario())
    wrong = [s for s in said if s == f"REFUSED {WRONG_CODE}"]
    limited = [s for s in said if "too many wrong join codes" in s]
    assert len(wrong) == 20 and len(limited) == 10, said
