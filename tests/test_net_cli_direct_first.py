"""The command-line host (``python -m gin3d.net.cli host``, packaged as ``gin3d-match``) with
the online service is direct first, as the app's host: real processes, a real Redis and a
real node on loopback. A guest process given only the code plays it directly, and through
the relay when the address the service holds for the host lets nothing through."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from net_harness import relay_proofs as proofs
from test_net_direct_first import _value, node  # noqa: F401 (a fixture)
from test_net_processes import FAST, _finish, _host, _line, _spawn
from test_net_relay_attacks import until
from test_net_service import redis_server  # noqa: F401 (a fixture)

from gin3d.net.candidates import seen_ip
from gin3d.net.cli import main

TARGET = ["--target", "30"]  # a short game: the route is what is tested
# the default link timeout: a link lost on a loaded machine would come back direct
STEADY = ["--dead-after", "8"]


async def _published(redis, code: str) -> str:
    """The Redis key of the host's direct addresses, once its node has published them."""
    key = f"gin3d:direct:{proofs(code)[2]}"
    await until(lambda: redis.command("EXISTS", key) == ":1", 20)
    return key


async def _guest(tmp: Path, code: str, relay: str):
    return await _spawn(
        "-m",
        "gin3d.net.cli",
        "join",
        "--code",
        code,
        "--relay",
        relay,
        "--out",
        str(tmp / "guest.json"),
        *FAST,
        *STEADY,
    )


async def _stop(proc) -> None:
    """A process of ours still running (a step before the match failed): killed."""
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


def _results(tmp: Path) -> tuple[dict, dict]:
    host = json.loads((tmp / "host.json").read_text())
    guest = json.loads((tmp / "guest.json").read_text())
    assert host["ended"] == guest["ended"] == "finished"
    assert host["moves"] == guest["moves"] and host["log_ok"] and guest["log_ok"]
    return host, guest


def test_a_cli_host_publishes_its_port_and_a_cli_guest_with_the_code_plays_directly(
    node,  # noqa: F811
    redis_server,  # noqa: F811
    tmp_path,
):
    relay = f"127.0.0.1:{node.port}"

    async def scenario():
        host, port, code = await _host(tmp_path, "--relay", relay, *TARGET, *STEADY)
        try:
            public = await asyncio.wait_for(_line(host, "PUBLIC"), 20)
            record = _value(redis_server, await _published(redis_server, code))
            await _finish(host, await _guest(tmp_path, code, relay))
        finally:
            await _stop(host)
        return port, public, record

    port, public, record = asyncio.run(scenario())
    assert public == f"127.0.0.1 {port}"  # what the node saw, printed by the host
    assert record.split()[1:] == [f"127.0.0.1:{port}"]
    host, guest = _results(tmp_path)
    assert guest["route"] == host["route"] == "direct"


def test_a_cli_guest_falls_back_to_the_relay_when_the_hosts_address_lets_nothing_through(
    node,  # noqa: F811
    redis_server,  # noqa: F811
    tmp_path,
):
    """The address the service holds for the host leads to a port that drops every
    connection (what a guest meets when the host's router forwards nothing): the guest
    tries it, gives up, and the match runs through the relay."""
    relay = f"127.0.0.1:{node.port}"
    tried: list = []

    async def scenario():
        async def drop(reader, writer):
            tried.append(writer)
            writer.close()

        closed = await asyncio.start_server(drop, "127.0.0.1", 0)
        nowhere = closed.sockets[0].getsockname()[1]
        host, _, code = await _host(tmp_path, "--relay", relay, *TARGET, *STEADY)
        try:
            key = await _published(redis_server, code)
            node_id = _value(redis_server, key).split()[0]
            assert redis_server.command("SET", key, f'"{node_id} 127.0.0.1:{nowhere}"') == "+OK"
            await _finish(host, await _guest(tmp_path, code, relay))
        finally:
            await _stop(host)
            closed.close()

    asyncio.run(scenario())
    assert len(tried) == 1  # the guest did try the published address first
    host, guest = _results(tmp_path)
    assert guest["route"] == host["route"] == "relay"


def test_relay_only_needs_a_relay():
    with pytest.raises(SystemExit) as exit_:
        main(["join", "--code", "K7QD-M3XR9P", "--address", "127.0.0.1:9", "--relay-only"])
    assert exit_.value.code == 2


def test_the_address_a_node_says_it_saw_is_checked_before_it_is_shown():
    assert seen_ip("203.0.113.5") == "203.0.113.5"
    assert seen_ip("2001:DB8::1") == "2001:db8::1"
    for junk in ("?", "", "0.0.0.0", "224.0.0.1", "evil.example.org", "1.2.3.4\x1b[2J"):
        assert seen_ip(junk) == ""
