"""Two real processes play whole games over loopback: direct, through the relay, and through
a proxy that delays, cuts mid-frame, stalls and corrupts the stream (they must reconnect and
finish with identical move logs)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net_processes import FAST, LOOP, FaultyProxy, _finish, _line, _spawn


def _check_same_game(tmp: Path) -> tuple[dict, dict]:
    host = json.loads((tmp / "host.json").read_text())
    guest = json.loads((tmp / "guest.json").read_text())
    assert host["ended"] == guest["ended"] == "finished"
    assert host["log_head"] == guest["log_head"] and host["log_ok"] and guest["log_ok"]
    assert host["moves"] == guest["moves"]
    assert host["totals"] == guest["totals"] and max(host["totals"][0]) >= 100
    assert host["refusals"] == guest["refusals"] == []
    return host, guest


async def _host(tmp: Path, *extra: str):
    proc = await _spawn(
        "-m",
        "gin3d.net.cli",
        "host",
        "--listen",
        LOOP,
        "--port",
        "0",
        "--out",
        str(tmp / "host.json"),
        *FAST,
        *extra,
    )
    port, code = (await _line(proc, "LISTENING")).split()
    return proc, int(port), code


def test_two_processes_play_a_game_to_100_directly(tmp_path):
    async def scenario():
        host, port, code = await _host(tmp_path)
        guest = await _spawn(
            "-m",
            "gin3d.net.cli",
            "join",
            "--code",
            code,
            "--address",
            f"{LOOP}:{port}",
            "--out",
            str(tmp_path / "guest.json"),
            *FAST,
        )
        await _finish(host, guest)

    asyncio.run(scenario())
    _check_same_game(tmp_path)


def test_two_processes_play_through_the_relay(tmp_path):
    async def scenario():
        relay = await _spawn("-m", "gin3d.net.relay", "--host", LOOP, "--port", "0")
        relay_at = (await _line(relay, "gin3d-relay")).rsplit(None, 1)[1]
        # the guest first tries a dead address, then falls back to the relay
        dead = await asyncio.start_server(lambda r, w: w.close(), LOOP, 0)
        dead_port = dead.sockets[0].getsockname()[1]
        dead.close()
        await dead.wait_closed()
        host, _, code = await _host(tmp_path, "--relay", relay_at)
        guest = await _spawn(
            "-m",
            "gin3d.net.cli",
            "join",
            "--code",
            code,
            "--address",
            f"{LOOP}:{dead_port}",
            "--relay",
            relay_at,
            "--out",
            str(tmp_path / "guest.json"),
            *FAST,
        )
        try:
            await _finish(host, guest)
        finally:
            relay.terminate()
            await relay.wait()

    asyncio.run(scenario())
    host, guest = _check_same_game(tmp_path)
    assert guest["route"] == host["route"] == "relay"


def test_a_public_host_is_listed_at_the_service(tmp_path):
    """``host --public``: the table is listed at the node under the host's name and rules,
    with the code it printed (what Find an opponent and quick match show and join)."""
    from gin3d.net.service_client import list_tables

    async def scenario():
        relay = await _spawn("-m", "gin3d.net.relay", "--host", LOOP, "--port", "0")
        relay_at = (await _line(relay, "gin3d-relay")).rsplit(None, 1)[1]
        bad = await _spawn("-m", "gin3d.net.cli", "host", "--public")  # no --relay
        said = (await _finish(bad, timeout=30))[0]
        host = await _spawn(
            "-m", "gin3d.net.cli", "host", "--public", "--relay", relay_at, "--rules", "oklahoma",
            "--name", "Ann", *FAST,
        )  # fmt: skip
        try:
            listed = await asyncio.wait_for(_line(host, "LISTED"), 30)
            _, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
            for _ in range(100):  # its first dial to the node may still be under way
                tables = await list_tables(relay_at)
                if tables:
                    break
                await asyncio.sleep(0.1)
            return bad.returncode, said, listed, code, tables
        finally:
            for proc in (host, relay):
                proc.terminate()
                await proc.wait()

    returncode, said, listed, code, tables = asyncio.run(scenario())
    assert returncode == 2 and "--public" in said
    assert listed == "oklahoma Ann"
    assert [(t.name, t.preset, t.code) for t in tables] == [("Ann", "oklahoma", code)]


def test_faults_reconnect_and_finish_with_identical_logs(tmp_path):
    faults = [
        ("cut", 9_000),
        ("stall", 25_000),
        ("corrupt", 40_000),
        ("cut", 30_001),
        ("cut", 50_000),
    ]

    async def scenario():
        host, port, code = await _host(tmp_path)
        proxy = FaultyProxy(port, faults, delay=0.001)
        await proxy.start()
        guest = await _spawn(
            "-m",
            "gin3d.net.cli",
            "join",
            "--code",
            code,
            "--address",
            f"{LOOP}:{proxy.port}",
            "--out",
            str(tmp_path / "guest.json"),
            *FAST,
        )
        try:
            outs = await _finish(host, guest, timeout=180)
        finally:
            proxy.close()
        return proxy.connections, outs

    connections, outs = asyncio.run(scenario())
    host, _ = _check_same_game(tmp_path)
    assert host["route"] == "direct"
    assert connections > len(faults), outs  # every fault forced a reconnect
    assert "waiting for opponent" in outs[1]
