"""Player's-eye scenarios of an online table of three, with a real service node on loopback
and command line players (real second processes): the installed game in a real X window
hosts it from Online (Host a table of 3, Open the table), the others join with the code
alone through the relay, and the game's player makes a few moves with the mouse at normal
speed; and the game's player joins a table by its code (Online: Join a table of 3 or 4),
the relay node dies mid-game and comes back on its port, and the table says so (lost,
reconnecting, back) and goes on. Screenshots go to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import re
import time

import pytest
from player_harness import on, play_move
from test_player_flows import LOOP, net_move, net_move_or_result, open_online, service  # noqa: F401

pytestmark = pytest.mark.slow


def test_host_an_online_table_of_three_joined_with_the_code_alone(player, service):  # noqa: F811
    p = player(args=("--relay", service.address, *service.game_args))
    snap = open_online(p)
    assert p.shows("Or a table of friends")(snap), snap["texts"]
    p.screenshot("online-table-0-online")
    p.click_button("Host a table of 3")
    p.wait(on("HostSetup"), 20, "the host's rules")
    p.click_button("Open the table")
    snap = p.wait(p.shows("Join code:"), 30, "the hosting screen's code")
    text = "\n".join(snap["texts"])
    assert "type only the code" in text and "through the relay" in text, text
    code = re.search(r"Join code:\s+(\S+)", text).group(1)
    p.screenshot("online-table-1-hosting")
    for i in (1, 2):
        service.match(f"guest{i}", "table-join", "--code", code)
        if i == 1:
            p.wait(p.shows("At the table: You, Player 2"), 60, "the first guest seated")
    p.wait(on("Table"), 90, "the table, everyone seated")
    deadline = time.monotonic() + 120
    moves = 0
    while moves < 3:  # a few moves of a hand of ours (a hand we sit out may go by first)
        snap = p.wait(
            lambda s: net_move(s) or s.get("screen") == "HandResult",
            max(1.0, deadline - time.monotonic()),
            "a move of ours, or the result of a hand we sat out",
        )
        if snap["screen"] == "HandResult":
            p.click_button("Next hand")
            continue
        assert "Table of 3" in " ".join(snap["texts"]), snap["texts"]
        play_move(p, snap, knock=False)
        moves += 1
    p.wait(
        net_move_or_result,
        max(1.0, deadline - time.monotonic()),
        "the table at rest: our move, or the result if a guest knocked",
    )
    p.screenshot("online-table-2-mid-hand")
    assert p.problems() == []


def _our_move(p, deadline: float) -> dict:
    """Until a move of ours is asked for at the table (Next hand past a hand we sat out)."""
    while True:
        snap = p.wait(
            lambda s: net_move(s) or s.get("screen") == "HandResult",
            max(1.0, deadline - time.monotonic()),
            "a move of ours, or the result of a hand we sat out",
        )
        if snap["screen"] != "HandResult":
            return snap
        p.click_button("Next hand")


def test_join_an_online_table_by_code_and_play_on_after_the_relay_dies(player, service):  # noqa: F811
    host = service.match("host", "table-host", "--players", "3", "--listen", LOOP, "--port", "0")
    _, code = host.line("LISTENING", 30).split()
    p = player(args=("--relay", service.address, *service.game_args))
    open_online(p)
    p.type_into("code", code)
    p.click_button("Join a table of 3 or 4")
    p.wait(p.shows("At the table"), 60, "seated at the host's table")
    service.match("guest2", "table-join", "--code", code)
    p.wait(on("Table"), 90, "the table, everyone seated")
    deadline = time.monotonic() + 120
    play_move(p, _our_move(p, deadline), knock=False)
    snap = _our_move(p, deadline)
    assert "you are player 2" in " ".join(snap["texts"]), snap["texts"]
    port = service.address.rsplit(":", 1)[1]
    service.node.stop()  # every link to the host ran through it
    snap = p.wait(p.shows("reconnecting to the host"), 30, "the table saying it reconnects")
    assert p.shows("link to the host was lost")(snap), snap["texts"]
    p.screenshot("online-join-table-1-reconnecting")
    again = service.start("relay-again", "gin3d.net.relay", "--host", LOOP, "--port", port)
    again.line("gin3d-relay (memory) listening on", 30)
    snap = p.wait(p.shows("back at the table"), 60, "the table saying we are back")
    assert p.shows("connected")(snap), snap["texts"]
    p.screenshot("online-join-table-2-back")
    deadline = time.monotonic() + 120
    for _ in range(2):  # the game goes on: our moves, and the others' in between
        snap = _our_move(p, deadline)
        assert not p.shows("claimed")(snap), snap["texts"]
        play_move(p, snap, knock=False)
    snap = _our_move(p, deadline)
    assert not p.shows("claimed")(snap) and p.shows("connected")(snap), snap["texts"]
    p.screenshot("online-join-table-3-goes-on")
    assert p.problems() == []
