"""Online tables: a table of three (and of four) whose players reach its host only through
the service's relay, as real processes on loopback (127.0.0.1): a ``gin3d-relay`` node, the
host (``cli table-host --relay``, listening on loopback but joined there by nobody) and its
guests given only the code and the node (``cli table-join --code C --relay H:P``). Every
player finishes the game with the same table log, each guest's route is the relay; and a
node that dies mid-game and comes back on its port: every player dials again through it,
and the game goes on to its end. And a stranger who knows the room part of the code but not
the rest: the relay never pairs it with the host, which hears of the wrong code, and the
table fills with its real players."""

from __future__ import annotations

import asyncio
from pathlib import Path

from net_processes import FAST, LOOP, _finish, _line, _spawn
from test_net_table import _results, _same_table, _seated

CLI = ("-m", "gin3d.net.cli")


async def _node(port: int = 0):
    """A relay node of ours on loopback; its address."""
    node = await _spawn("-m", "gin3d.net.relay", "--host", LOOP, "--port", str(port))
    address = await asyncio.wait_for(_line(node, "gin3d-relay (memory) listening on"), 30)
    return node, address.split()[-1]


async def _every(proc, line: str, players) -> None:
    """Until ``proc`` has printed ``line`` for each of ``players``, in any order."""
    left = {line.format(p) for p in players}
    while left:
        text = (await proc.stdout.readline()).decode()
        assert text, f"the process ended before printing {sorted(left)}"
        left = {want for want in left if not text.startswith(want)}


async def _relay_host(tmp: Path, players: int, relay: str, target: int):
    """The host of a table that waits at the relay; it and its code."""
    host = await _spawn(
        *CLI, "table-host", "--players", str(players), "--listen", LOOP, "--port", "0",
        "--relay", relay, "--target", str(target), "--out", str(tmp / "p0.json"), *FAST,
    )  # fmt: skip
    _, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
    return host, code


async def _relay_guests(tmp: Path, players: int, relay: str, host, code: str) -> list:
    """The other players, joining one at a time with the code alone, each seated in turn."""
    guests = []
    for i in range(1, players):
        guests.append(
            await _spawn(
                *CLI,
                "table-join",
                "--code",
                code,
                "--relay",
                relay,
                "--out",
                str(tmp / f"join{i}.json"),
                *FAST,
            )  # fmt: skip
        )
        await _seated(host, i)
    return guests


async def _relayed_table(tmp: Path, players: int, relay: str, target: int):
    host, code = await _relay_host(tmp, players, relay, target)
    return host, await _relay_guests(tmp, players, relay, host, code)


def test_a_table_of_three_played_through_the_relay(tmp_path):
    async def scenario():
        node, relay = await _node()
        try:
            host, guests = await _relayed_table(tmp_path, 3, relay, 30)
            await _finish(host, *guests, timeout=90)
        finally:
            node.kill()
            await node.wait()

    asyncio.run(scenario())
    results = _results(tmp_path, 3)
    first = _same_table(results, 3)
    assert max(first["totals"]) >= 30
    assert [results[p]["route"] for p in (1, 2)] == ["relay", "relay"]
    assert all(r["refusals"] == [] for r in results.values())


def test_a_table_of_four_survives_its_relay_node_dying_mid_game(tmp_path):
    async def scenario():
        node, relay = await _node()
        port = int(relay.rsplit(":", 1)[1])
        again = None
        try:
            host, guests = await _relayed_table(tmp_path, 4, relay, 60)
            # the game is under way: every link to the host runs through this node
            await asyncio.wait_for(_line(host, "NOTE table safety code"), 30)
            node.kill()
            await node.wait()
            await asyncio.wait_for(_every(host, "NOTE player {}'s link was lost", (1, 2, 3)), 30)
            again, _ = await _node(port)  # the node comes back where it was
            for guest in guests:
                await asyncio.wait_for(_line(guest, "NOTE back at the table"), 60)
            await _finish(host, *guests, timeout=120)
        finally:
            for proc in (node, again):
                if proc is not None and proc.returncode is None:
                    proc.kill()
                    await proc.wait()

    asyncio.run(scenario())
    results = _results(tmp_path, 4)
    first = _same_table(results, 4)
    assert max(first["totals"]) >= 60
    assert [results[p]["route"] for p in (1, 2, 3)] == ["relay"] * 3


def test_a_wrong_code_at_the_relay_takes_no_seat_and_the_host_hears_of_it(tmp_path):
    async def scenario():
        node, relay = await _node()
        try:
            host, code = await _relay_host(tmp_path, 3, relay, 20)
            secret = code[5:]
            wrong = code[:5] + ("2" if secret[0] != "2" else "3") + secret[1:]  # same room
            stranger = await _spawn(
                *CLI, "table-join", "--code", wrong, "--relay", relay,
                "--out", str(tmp_path / "stranger.json"), *FAST,
            )  # fmt: skip
            said = await asyncio.wait_for(stranger.stdout.read(), 60)
            assert await stranger.wait() != 0, said.decode()
            assert not (tmp_path / "stranger.json").exists()
            guests = await _relay_guests(tmp_path, 3, relay, host, code)
            await _finish(host, *guests, timeout=90)
        finally:
            node.kill()
            await node.wait()

    asyncio.run(scenario())
    results = _results(tmp_path, 3)
    _same_table(results, 3)
    assert any("wrong join code" in f for f in results[0]["failures"]), results[0]["failures"]
