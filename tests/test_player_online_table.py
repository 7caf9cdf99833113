"""Player's-eye scenario of an online table of three: the installed game in a real X window
hosts it from Online (Host a table of 3, Open the table), with a real service node on
loopback; two command line players (real second processes) join it with the code alone,
through the relay, and the game's player makes a few moves with the mouse at normal speed.
Screenshots go to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import re
import time

import pytest
from player_harness import on, play_move
from test_player_flows import net_move, open_online, service  # noqa: F401

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
    p.wait(net_move, max(1.0, deadline - time.monotonic()), "the table at rest, our move")
    p.screenshot("online-table-2-mid-hand")
    assert p.problems() == []
