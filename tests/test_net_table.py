"""Tables of three players and of four in two teams, as real processes on loopback: one hosts
(``cli table-host``), the others join with its code (``cli table-join``); every process must
finish the game with the same totals and the same table log. And modified players: one sends
a made-up record of a hand it did not play (refused by all, the game goes on), one sends a
record of its own hand that differs from its opponent's (the table stops, every honest player
saying which hand and which players), and a host alters a record it passes on (the guest it
reaches sees the signature fail)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net_processes import FAST, LOOP, _finish, _line, _spawn

CLI = ("-m", "gin3d.net.cli")
CHEATER = ("tests/net_table_cheater.py",)


def _play_table(tmp: Path, players: int, target: int, cheat: tuple[int, str] | None = None):
    """Host and ``players - 1`` guests (player ``cheat[0]``, 0 being the host, runs the
    modified player with cheat ``cheat[1]``); returns every player's result, by player."""

    def program(i: int) -> tuple[str, ...]:
        return (*CHEATER, cheat[1]) if cheat is not None and cheat[0] == i else CLI

    async def scenario():
        host = await _spawn(
            *program(0), "table-host", "--players", str(players), "--target", str(target),
            "--listen", LOOP, "--port", "0", "--out", str(tmp / "p0.json"), *FAST,
        )  # fmt: skip
        port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
        guests = []
        for i in range(1, players):
            guests.append(
                await _spawn(
                    *program(i),
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
        assert r["safety_code"] == first["safety_code"] != ""
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
    # player 1 is modified: in the first round it also sends a made-up record of the hand
    # at the other table, which it did not play: every other player refuses it, and the
    # game goes on to its end with the same log everywhere
    results = _play_table(tmp_path, 4, 40, cheat=(1, "forge"))
    first = _same_table(results, 4)
    assert len(first["totals"]) == 2 and max(first["totals"]) >= 40
    hands = {line.split()[2] for line in first["moves"]}
    assert len(hands) == 2 * first["hands"]  # two hands a round, at once
    assert results[1]["refusals"] == []
    for p in (0, 2, 3):
        # round 0 is players 0-1 at table 0 (hand 1) and 2-3 at table 1 (hand 2)
        assert results[p]["refusals"] == ["player 1 sent a record of hand 2, which it did not play"]
        # and each heard the other honest players refuse it too
        told = {who for who, note in results[p]["notes"] if "which it did not play" in note}
        assert told == {0, 2, 3} - {p}


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


def test_a_host_that_alters_a_record_it_passes_on_is_caught(tmp_path):
    results = _play_table(tmp_path, 3, 20, cheat=(0, "alter"))
    caught = [r for r in results.values() if "did not sign" in r["detail"]]
    assert len(caught) == 1 and caught[0]["you"] != 0
    assert caught[0]["ended"] == "your opponent's client cheated"
    assert "passed on a trecord of player" in caught[0]["detail"]
    other = results[3 - caught[0]["you"]]  # the other guest hears why, and stops too
    assert other["ended"] != "finished"
    assert any("did not sign" in note for _, note in other["notes"])


def test_a_player_who_vanishes_ends_the_table_for_the_others_at_once(tmp_path):
    """Player 2's process is killed once the game is under way: the host sees its link
    close and stops the table, saying who left; player 1 hears why and stops too (a hand
    it was starting or playing ends with the table: nobody waits for a stall)."""

    async def scenario():
        host = await _spawn(
            *CLI, "table-host", "--players", "3", "--listen", LOOP, "--port", "0",
            "--out", str(tmp_path / "p0.json"), *FAST,
        )  # fmt: skip
        port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
        guests = []
        for i in (1, 2):
            guests.append(
                await _spawn(
                    *CLI,
                    "table-join",
                    "--code",
                    code,
                    "--address",
                    f"{LOOP}:{port}",
                    "--out",
                    str(tmp_path / f"join{i}.json"),
                    *FAST,
                )  # fmt: skip
            )
            await _seated(host, i)
        await asyncio.wait_for(_line(host, "NOTE table safety code"), 30)
        guests[1].kill()
        await _finish(host, guests[0], timeout=30)
        await guests[1].wait()

    asyncio.run(scenario())
    host = json.loads((tmp_path / "p0.json").read_text())
    one = json.loads((tmp_path / "join1.json").read_text())
    assert not (tmp_path / "join2.json").exists()
    assert host["ended"] == "opponent left" and "player 2 left the table" in host["detail"]
    assert one["ended"] == "opponent left"
    assert any("player 2 left the table" in note for p, note in one["notes"] if p == 0)
