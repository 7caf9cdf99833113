"""Tables of three players and of four in two teams, as real processes on loopback: one hosts
(``cli table-host``), the others join with its code (``cli table-join``); every process must
finish the game with the same totals and the same table log. And modified players: one sends
a made-up record of a hand it sat out (refused by all, the game goes on), one sends a record
of its own hand that differs from its opponent's (the table stops, every honest player saying
which hand and which players)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net_processes import FAST, LOOP, _finish, _line, _spawn

CLI = ("-m", "gin3d.net.cli")
CHEATER = ("tests/net_table_cheater.py",)


def _play_table(tmp: Path, players: int, target: int, cheat: tuple[int, str] | None = None):
    """Host and ``players - 1`` guests (the guest joining ``cheat[0]``-th runs the modified
    player with cheat ``cheat[1]``); returns every player's result, by player."""

    async def scenario():
        host = await _spawn(
            *CLI, "table-host", "--players", str(players), "--target", str(target),
            "--listen", LOOP, "--port", "0", "--out", str(tmp / "p0.json"), *FAST,
        )  # fmt: skip
        port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
        guests = []
        for i in range(1, players):
            program = CLI
            if cheat is not None and cheat[0] == i:
                program = (*CHEATER, cheat[1])
            guests.append(
                await _spawn(
                    *program,
                    "table-join",
                    "--code",
                    code,
                    "--address",
                    f"{LOOP}:{port}",
                    "--out",
                    str(tmp / f"join{i}.json"),
                    *FAST,
                )  # fmt: skip
            )
            if i < players - 1:  # one at a time, so the i-th guest is player i
                await _seated(host, i)
        await _finish(host, *guests, timeout=60)

    tmp.mkdir(exist_ok=True)
    asyncio.run(scenario())
    results = [json.loads((tmp / "p0.json").read_text())]
    results += [json.loads((tmp / f"join{i}.json").read_text()) for i in range(1, players)]
    return {r["you"]: r for r in results}


async def _seated(host, i: int) -> None:
    """Until the host has seated its ``i``-th guest (it says so), so join order is fixed."""
    await asyncio.wait_for(_line(host, f"NOTE seated player {i}"), 30)


def _same_table(results: dict, players: int) -> dict:
    first = results[0]
    assert sorted(results) == list(range(players))
    for r in results.values():
        assert r["ended"] == "finished", r["detail"]
        assert r["log_ok"] and r["log_head"] == first["log_head"]
        assert r["moves"] == first["moves"] and r["totals"] == first["totals"]
        assert r["players"] == players
    return first


def _players_by_hand(result: dict) -> dict[str, set[str]]:
    """Which players moved in each hand of a table's log (``h3`` -> ``{"s0", "s2"}``)."""
    by_hand: dict[str, set[str]] = {}
    for line in result["moves"]:
        _, _, hand, seat, *_ = line.split()
        by_hand.setdefault(hand, set()).add(seat)
    return by_hand


def test_three_processes_play_a_three_player_game_to_its_target(tmp_path):
    results = _play_table(tmp_path, 3, 30)
    first = _same_table(results, 3)
    assert len(first["totals"]) == 3 and max(first["totals"]) >= 30
    assert all(r["refusals"] == [] for r in results.values())
    # the hands were between two players each
    by_hand = _players_by_hand(first)
    assert len(by_hand) == first["hands"] and all(len(s) == 2 for s in by_hand.values())


def test_four_processes_play_a_partnership_game_to_its_target(tmp_path):
    results = _play_table(tmp_path, 4, 40)
    first = _same_table(results, 4)
    assert len(first["totals"]) == 2 and max(first["totals"]) >= 40
    assert all(r["refusals"] == [] for r in results.values())
    hands = {line.split()[2] for line in first["moves"]}
    assert len(hands) == 2 * first["hands"]  # two hands a round, at once


def test_a_record_of_a_hand_the_sender_sat_out_is_refused_by_all(tmp_path):
    # the cheat needs a hand player 1 sits out: a player who wins every hand never does (a
    # short game, now and then), so that game is played again, at most five times
    for attempt in range(5):
        results = _play_table(tmp_path / str(attempt), 3, 20, cheat=(1, "forge"))
        if any("s1" not in seats for seats in _players_by_hand(results[0]).values()):
            break
    _same_table(results, 3)
    for p in (0, 2):
        told = [r for r in results[p]["refusals"] if "player 1 sent a record of hand" in r]
        assert told and "which it did not play" in told[0]
        assert results[p]["notes"]  # and each heard the other honest player refuse it too


def test_a_record_that_differs_from_the_opponents_stops_the_table(tmp_path):
    # player 2 lies about its first hand; a short game may end before it plays one (it sat
    # out the first, which scored the target), so that game is played again, at most 5 times
    for attempt in range(5):
        results = _play_table(tmp_path / str(attempt), 3, 20, cheat=(2, "lie"))
        if results[0]["ended"] != "finished":
            break
    for p in (0, 1):
        r = results[p]
        assert r["ended"] == "your opponent's client cheated"
        assert "report different hands" in r["detail"] and "2" in r["detail"]
