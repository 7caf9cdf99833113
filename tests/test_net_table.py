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

from net_processes import FAST, LOOP, FaultyProxy, _finish, _line, _spawn

CLI = ("-m", "gin3d.net.cli")
CHEATER = ("tests/net_table_cheater.py",)


async def _open_table(tmp: Path, players: int, *extra: str, program=None, address=None):
    """Spawn the host, then its guests one at a time (so the i-th guest is player i), all
    with ``extra`` options; ``program(i)``: what player i runs (the CLI by default);
    ``await address(i, port)``: the port guest i dials (the host's by default)."""
    program = program or (lambda i: CLI)
    host = await _spawn(
        *program(0), "table-host", "--players", str(players), "--listen", LOOP, "--port", "0",
        "--out", str(tmp / "p0.json"), *FAST, *extra,
    )  # fmt: skip
    port, code = (await asyncio.wait_for(_line(host, "LISTENING"), 30)).split()
    guests = []
    for i in range(1, players):
        at = port if address is None else await address(i, port)
        guests.append(
            await _spawn(
                *program(i),
                "table-join",
                "--code",
                code,
                "--address",
                f"{LOOP}:{at}",
                "--out",
                str(tmp / f"join{i}.json"),
                *FAST,
                *extra,
            )  # fmt: skip
        )
        await _seated(host, i)
    return host, guests


def _results(tmp: Path, players: int) -> dict[int, dict]:
    """Every player's result file, by player."""
    names = ["p0.json", *(f"join{i}.json" for i in range(1, players))]
    return {r["you"]: r for r in (json.loads((tmp / n).read_text()) for n in names)}


def _play_table(
    tmp: Path,
    players: int,
    target: int,
    cheat: tuple[int, str] | None = None,
    timeout: float = 60,
):
    """A whole game (player ``cheat[0]``, 0 being the host, runs the modified player with
    cheat ``cheat[1]``); returns every player's result, by player, once every process has
    ended (within ``timeout`` seconds)."""

    def program(i: int) -> tuple[str, ...]:
        return (*CHEATER, cheat[1]) if cheat is not None and cheat[0] == i else CLI

    async def scenario():
        host, guests = await _open_table(tmp, players, "--target", str(target), program=program)
        await _finish(host, *guests, timeout=timeout)

    tmp.mkdir(exist_ok=True)
    asyncio.run(scenario())
    return _results(tmp, players)


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
    results = _play_table(tmp_path, 4, 30, cheat=(1, "forge"))
    first = _same_table(results, 4)
    assert len(first["totals"]) == 2 and max(first["totals"]) >= 30
    hands = {line.split()[2] for line in first["moves"]}
    assert len(hands) == 2 * first["hands"]  # two hands a round, at once
    assert results[1]["refusals"] == []
    for p in (0, 2, 3):
        # round 0 is players 0-1 at table 0 (hand 1) and 2-3 at table 1 (hand 2)
        assert results[p]["refusals"] == ["player 1 sent a record of hand 2, which it did not play"]
        # and each heard the other honest players refuse it too
        told = {who for who, note in results[p]["notes"] if "which it did not play" in note}
        assert told == {0, 2, 3} - {p}


def test_every_player_watches_its_partners_hands_and_a_lie_about_them_is_refused(tmp_path):
    # player 2 is modified: of its first hand it tells the table a deal that cannot be (a
    # seat 9), of its second a discard of another card than the one it threw. Every other
    # player refuses each once (the first as it comes, the second once it does not fit what
    # comes after or once the hand is agreed), and the game goes on to its end. A round can
    # score the target on its own (a big gin): such a game is played again, at most 5 times;
    # so is one that ends with the round of the second lie (its refusal may come after the
    # game is over, when nobody listens any more)
    for attempt in range(5):
        results = _play_table(tmp_path / str(attempt), 4, 100, cheat=(2, "tell"))
        first = _same_table(results, 4)
        if first["hands"] >= 3:
            break
    rounds = first["hands"]
    assert rounds >= 2, first
    for p in range(4):
        # each round the partner plays the hand at the other table: its every move watched,
        # to its end, except the cheater's first (refused, nothing more heard of it)
        partner = (p + 2) % 4
        by_hand = _players_by_hand(first)
        mine = {int(h[1:]) for h, seats in by_hand.items() if f"s{p}" in seats}
        theirs = set(range(2 * rounds)) - mine
        watched = {hand: (moves, over) for hand, moves, over in results[p]["watched"]}
        lied = sorted(theirs)[:2] if partner == 2 else []  # the cheater's first two hands
        assert set(watched) == theirs - set(lied[:1]), (p, watched, theirs)
        for hand, (moves, over) in watched.items():  # the second: heard until refused
            assert moves > 20 and (over or hand in lied), (hand, watched)
        if p == 2:
            assert results[p]["refusals"] == []
            continue
        told = [r for r in results[p]["refusals"] if r.startswith("player 2 told")]
        assert told == results[p]["refusals"] and len(told) == 2, results[p]["refusals"]
        assert "wrongly: a hand's seat is 0 or 1, not '9'" in told[0], told


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
    # the caught host may have dealt on before the verdict reached it: it then waits out the
    # grace time for its guests (60 s) before it ends, so the table gets longer to end
    results = _play_table(tmp_path, 3, 20, cheat=(0, "alter"), timeout=180)
    caught = [r for r in results.values() if r["detail"].startswith("the table's host passed")]
    assert len(caught) == 1 and caught[0]["you"] != 0
    assert caught[0]["ended"] == "your opponent's client cheated"
    assert "passed on a trecord of player" in caught[0]["detail"]
    assert "that it did not sign" in caught[0]["detail"]
    # the table ends for everyone, saying who found what
    other = results[3 - caught[0]["you"]]
    assert other["ended"] == "your opponent's client cheated"
    assert other["detail"] == f"player {caught[0]['you']}: {caught[0]['detail']}"


def _vanishing_game(tmp: Path) -> list[str] | None:
    """A table of three to 30 whose player 2 is killed once hand 2 begins; every output,
    or None when the game ended before that."""

    async def scenario():
        extra = ("--grace", "2", "--stall", "15", "--target", "30")
        host, guests = await _open_table(tmp, 3, *extra)
        try:
            await asyncio.wait_for(_line(host, "NOTE hand 2: players"), 30)
        except AssertionError:  # the host ended first: the game was over in one hand
            await _finish(host, *guests, timeout=30)
            return None
        guests[1].kill()
        await asyncio.wait_for(_line(host, "NOTE player 2's link was lost"), 30)
        outs = await _finish(host, guests[0], timeout=60)
        await guests[1].wait()
        return outs

    tmp.mkdir()
    return asyncio.run(scenario())


def test_a_player_who_vanishes_is_replaced_by_the_computer_after_the_grace_time(tmp_path):
    """Player 2's process is killed once the game is under way: the host waits the grace
    time (2 s here) for it to come back, then a computer player takes its seat, run by a
    player not at its hands (a hand of it under way is dealt again), and the two others
    finish the game with the same log."""
    for attempt in range(5):  # a game to 30 may end in one hand: then it is played again
        outs = _vanishing_game(tmp_path / str(attempt))
        if outs is not None:
            break
    tmp = tmp_path / str(attempt)
    assert not (tmp / "join2.json").exists()
    host, one = (json.loads((tmp / f).read_text()) for f in ("p0.json", "join1.json"))
    assert host["ended"] == one["ended"] == "finished", (host["detail"], outs)
    assert host["moves"] == one["moves"] and host["log_head"] == one["log_head"]
    assert host["totals"] == one["totals"] and len(host["totals"]) == 3
    said = [line for line in outs[0].splitlines() if "played by the computer" in line]
    assert said and said[0].startswith("NOTE player 2 is played by the computer from hand ")
    assert said[0] in outs[1]  # both heard the same hand
    assert all(len(seats) == 2 for seats in _players_by_hand(host).values())


def _cut_game(tmp: Path, refused: int = 0, *extra: str) -> tuple[int, list[str]]:
    """A table of three where player 2 reaches the host through a proxy that cuts its
    first connection 20 kB in and refuses the ``refused`` next ones; returns the proxy's
    connections and every output."""

    proxies = []

    async def via_proxy(i: int, port: str) -> str:
        if i != 2:
            return port
        faults = [("cut", 20_000)] + [("refuse", 0)] * refused
        proxies.append(FaultyProxy(int(port), faults, delay=0))
        await proxies[0].start()
        return str(proxies[0].port)

    async def scenario():
        host, guests = await _open_table(tmp, 3, *(extra or ("--target", "30")), address=via_proxy)
        proxy = proxies[0]
        try:
            outs = await _finish(host, *guests, timeout=60)
        finally:
            proxy.close()
        return proxy.connections, outs

    tmp.mkdir()
    return asyncio.run(scenario())


def test_a_player_whose_link_is_cut_comes_back_and_the_game_finishes(tmp_path):
    """Player 2's link is cut mid-game; it dials again with the same identity, is given
    its seat back, both ends send what the other missed, its hand under way resumes (its
    match resends what was lost), and all finish with the same log."""
    # a short game may end before 20 kB went to player 2, or the cut may fall between its
    # hands: then it is played again (at most five times)
    for attempt in range(5):
        connections, outs = _cut_game(tmp_path / str(attempt))
        if connections > 1 and "resuming with player" in outs[2]:
            break
    _same_table(_results(tmp_path / str(attempt), 3), 3)
    # two links at least: a redial quicker than the host's sight of the loss is turned
    # away once (the seat's old link still counts) and dials again
    assert connections >= 2, "\n".join(outs)
    assert "NOTE player 2's link was lost" in outs[0] and "NOTE player 2 is back" in outs[0]
    assert "NOTE back at the table" in outs[2]
    # the hand under way resumed at both of its players
    resumed = [line for line in outs[2].splitlines() if "resuming with player" in line][0]
    hand, other = resumed.split()[2].rstrip(":"), int(resumed.split()[-1])
    assert f"NOTE hand {hand}: resuming with player 2" in outs[other]


def test_a_player_replaced_by_the_computer_takes_its_seat_back(tmp_path):
    """Player 2's link is cut and the network stays away longer than the grace time (2 s):
    the computer takes its seat; when it gets through again it is given its seat back from
    a hand nobody has begun, learns what it missed, and all three finish with one log."""
    for attempt in range(5):  # the game may end before it is back: then it is played again
        extra = ("--target", "80", "--grace", "2", "--stall", "20")
        connections, outs = _cut_game(tmp_path / str(attempt), 8, *extra)
        if "plays again from hand" in outs[0] and "played by the computer" in outs[0]:
            break
    _same_table(_results(tmp_path / str(attempt), 3), 3)
    lines = outs[0].splitlines()
    away = next(i for i, line in enumerate(lines) if "is played by the computer" in line)
    back = next(i for i, line in enumerate(lines) if "player 2 plays again from hand" in line)
    assert away < back
    from_hand, again = (int(lines[i].split()[-1]) for i in (away, back))
    assert again > from_hand
    assert f"NOTE player 2 plays again from hand {again}" in outs[1]
    assert f"NOTE player 2 plays again from hand {again}" in outs[2]


def test_a_player_away_when_the_game_ends_comes_back_to_see_the_end(tmp_path):
    """Player 2's link is cut and it cannot get through for longer than the game lasts: the
    computer plays its seat to the end, the host keeps the table open for it, and when it
    gets through it replays every hand it missed and ends with the same log and totals."""
    for attempt in range(5):  # a short game may end before 20 kB went to player 2
        extra = ("--target", "30", "--grace", "2", "--stall", "40")
        connections, outs = _cut_game(tmp_path / str(attempt), 30, *extra)
        if connections > 1 and "is back to see the end" in outs[0]:
            break
    assert "NOTE keeping the table open for player 2" in outs[0], outs[0]
    assert "NOTE player 2 saw the end" in outs[0]
    assert "plays again" not in outs[0]  # it never took its seat back: the game was over
    results = _results(tmp_path / str(attempt), 3)
    _same_table(results, 3)
    assert results[2]["ended"] == "finished"
