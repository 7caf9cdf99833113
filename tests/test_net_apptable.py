"""The app's side of a table of three or four (``NetService.host_table`` / ``join_net_table``)
against real processes on loopback: the command line plays the other seats (the greedy
player), the test answers the local human's ``your_turn`` events as the app would, and every
player must finish the game with the same log."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net_processes import FAST, LOOP, _finish, _line, _spawn

from gin3d.engine import PartnershipGame, RuleSet, ThreePlayerGame
from gin3d.net.api import NetService
from gin3d.net.session import Timing
from gin3d.players import GreedyPlayer

CLI = ("-m", "gin3d.net.cli")
TARGET = 30


def _service() -> NetService:
    return NetService(name="Ann", timing=Timing(0.3, 2.5, 60), stand_in=GreedyPlayer).start()


async def _play_as_human(net: NetService, timeout: float = 90) -> list:
    """Every event of the table until it ends, each ``your_turn`` answered with the greedy
    player's move through ``net.play`` (as the table's input would)."""
    brain = GreedyPlayer()
    seen = []
    while True:
        ev = await asyncio.to_thread(net.events.get, True, timeout)
        seen.append(ev)
        if ev.kind == "your_turn":
            net.play(brain.choose(ev.data["view"]))
        elif ev.kind == "ended":
            return seen


def _join(code: str, port: str, out: Path, *extra: str):
    return _spawn(
        *CLI, "table-join", "--code", code, "--address", f"{LOOP}:{port}", "--out", str(out),
        *FAST, *extra,
    )  # fmt: skip


def _of(events: list, kind: str) -> list[dict]:
    return [ev.data for ev in events if ev.kind == kind]


def _check_my_hands(events: list, me: int, played: bool = True) -> None:
    """Each move of a hand came with the view of our own seat at it (``played``: whether
    we were at any hand: at three the first dealer sits out, and a game may end there)."""
    games = _of(events, "game")
    assert bool(games) == played, "no moves of our hands were told" if played else games
    for data in games:
        assert me in data["seats"]
        assert data["view"].seat == data["seats"].index(me)


def test_the_app_hosts_a_table_of_three_and_two_processes_join(tmp_path):
    net = _service()
    rules = RuleSet().but(game_target=TARGET)
    try:
        info = net.host_table(3, rules, player=None, lan=False, listen=LOOP, port=0).result(10)

        async def scenario():
            play = asyncio.ensure_future(_play_as_human(net))
            guests = []
            for i in (1, 2):
                guests.append(await _join(info.code, str(info.port), tmp_path / f"p{i}.json"))
            await _finish(*guests, timeout=90)
            return await play

        events = asyncio.run(scenario())
    finally:
        net.stop()
    ended = _of(events, "ended")[-1]
    assert ended["reason"] == "finished", ended["detail"]
    results = [json.loads((tmp_path / f"p{i}.json").read_text()) for i in (1, 2)]
    assert all(r["ended"] == "finished" and r["log_head"] == ended["log_head"] for r in results)
    # the host saw its guests come, and everyone seated with the same safety code
    assert [t["joined"] for t in _of(events, "table")][:3] == [[], [1], [1, 2]]
    connected = _of(events, "connected")[-1]
    assert (connected["seat"], connected["players"]) == (0, 3)
    assert connected["safety_code"] == results[0]["safety_code"]
    # every hand came as the engine's game of the table, its totals the others' too
    overs = _of(events, "hand_over")
    _check_my_hands(events, 0, played=any(0 in seats for seats in overs[-1]["game"].seats))
    assert all(isinstance(o["game"], ThreePlayerGame) for o in overs)
    assert [len(o["game"].hands) for o in overs] == list(range(1, len(overs) + 1))
    final = _of(events, "game_over")[-1]
    assert final["totals"] == overs[-1]["totals"] == results[0]["totals"]
    assert max(final["totals"]) >= TARGET and final["winner"] in range(3)


def test_the_app_joins_a_table_of_four_by_address_and_code(tmp_path):
    net = _service()

    async def scenario():
        host = await _spawn(
            *CLI, "table-host", "--players", "4", "--listen", LOOP, "--port", "0",
            "--target", str(TARGET), "--out", str(tmp_path / "p0.json"), *FAST,
        )  # fmt: skip
        port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
        await asyncio.wrap_future(net.join_net_table(code, f"{LOOP}:{port}"))
        await asyncio.wait_for(_line(host, "NOTE seated player 1"), 30)
        play = asyncio.ensure_future(_play_as_human(net))
        guests = []
        for i in (2, 3):
            guests.append(await _join(code, port, tmp_path / f"p{i}.json"))
            await asyncio.wait_for(_line(host, f"NOTE seated player {i}"), 30)
        await _finish(host, *guests, timeout=90)
        return await play

    try:
        events = asyncio.run(scenario())
    finally:
        net.stop()
    ended = _of(events, "ended")[-1]
    assert ended["reason"] == "finished", ended["detail"]
    results = [json.loads((tmp_path / f"p{i}.json").read_text()) for i in (0, 2, 3)]
    assert all(r["log_head"] == ended["log_head"] for r in results)
    connected = _of(events, "connected")[-1]
    assert (connected["seat"], connected["players"]) == (1, 4)
    assert _of(events, "table")[-1]["you"] == 1
    _check_my_hands(events, 1)
    overs = _of(events, "hand_over")
    assert all(isinstance(o["game"], PartnershipGame) for o in overs)
    assert _of(events, "game_over")[-1]["totals"] == results[0]["totals"]


def test_chat_that_comes_before_the_table_opens_waits_for_it():
    # a player who knew every key before we did may chat before our "connected": the app's
    # table is not there yet (the lobby would drop it), so the line comes after it
    from gin3d.net.apptable import TableRun
    from gin3d.net.tableguest import TableGuest
    from gin3d.net.transport import make_code

    seen: list = []
    peer = TableGuest(GreedyPlayer(), make_code(), (LOOP, 1))  # never started
    TableRun(peer, lambda kind, **data: seen.append((kind, data)))
    peer.on_chat(1, "hello table")
    peer.on_emote(2, "hello")
    assert [k for k, _ in seen if k in ("chat", "emote", "connected")] == []
    peer.on_note("table safety code 123 456")
    kinds = [k for k, _ in seen if k in ("chat", "emote", "connected")]
    assert kinds == ["connected", "chat", "emote"], seen
    peer.on_chat(2, "later")
    assert seen[-1] == ("chat", {"seat": 2, "text": "later"})
