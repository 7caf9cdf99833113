"""Two real game processes (``gin3d-match``: ``python -m gin3d.net.cli``) with nothing
configured play by the friend code alone, through a real magic-wormhole mailbox server
and transit relay on loopback (the test points the built-in defaults at them with
``GIN3D_RENDEZVOUS`` / ``GIN3D_TRANSIT``): directly, and with the direct path withheld,
through the transit relay."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from net_processes import FAST, _finish, _line, _spawn
from rendezvous_servers import servers  # noqa: F401 (a fixture)

TARGET = ["--target", "30"]  # a short game: the route is what is tested


@pytest.fixture
def pointed(servers, monkeypatch):  # noqa: F811
    """The built-in defaults point at the loopback servers (the processes inherit it)."""
    for name, value in servers.env.items():
        monkeypatch.setenv(name, value)
    return servers


async def _play(tmp: Path, *host_extra: str) -> None:
    host = await _spawn(
        "-m", "gin3d.net.cli", "host", "--friend", "--port", "0",
        "--out", str(tmp / "host.json"), *FAST, *TARGET, *host_extra,
    )  # fmt: skip
    try:
        port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 20)).split()
        guest = await _spawn(
            "-m", "gin3d.net.cli", "join", "--code", code,
            "--out", str(tmp / "guest.json"), *FAST,
        )  # fmt: skip
        await _finish(host, guest, timeout=50)
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()


def _results(tmp: Path) -> tuple[dict, dict]:
    host = json.loads((tmp / "host.json").read_text())
    guest = json.loads((tmp / "guest.json").read_text())
    assert host["ended"] == guest["ended"] == "finished"
    assert host["moves"] == guest["moves"] and host["log_ok"] and guest["log_ok"]
    assert host["hands"] >= 1
    return host, guest


def test_two_games_with_nothing_configured_play_directly_by_the_code_alone(pointed, tmp_path):
    assert "GIN3D_TEST_LOOPBACK_ONLY" in os.environ  # nothing here can reach a public server
    asyncio.run(_play(tmp_path))
    host, guest = _results(tmp_path)
    assert guest["route"] == host["route"] == "direct"


def test_with_the_direct_path_withheld_they_play_through_the_transit_relay(pointed, tmp_path):
    asyncio.run(_play(tmp_path, "--relay-only"))
    host, guest = _results(tmp_path)
    assert guest["route"] == host["route"] == "relay"
