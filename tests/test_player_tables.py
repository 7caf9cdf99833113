"""Player's-eye scenarios of a LAN table of three, and of four in two teams: the installed
game in a real X window hosts it from the menu (LAN, Host a table of 3 or of 4 (teams), Open
the table), command line players join it with the code and address its hosting screen shows
(real second processes, the greedy player), and the game's player plays with the mouse at
normal speed until a hand of theirs is over (hands sat out go by on the way). Screenshots go
to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import re
import time

import pytest
from player_harness import on, play_move
from test_player_flows import LOOP, NET_FAST, Process, net_move, net_move_or_result

pytestmark = pytest.mark.slow


def _chat(p, guests) -> None:
    """The table's chat: the first guest's line shows under its name, and a line typed in
    the chat field (real keys, Enter) reaches every other player."""
    p.wait(p.shows("Player 2: hello table"), 60, "the first guest's chat line")
    p.type_into("chat", "good luck")
    p.key("Return")
    p.wait(p.shows("You: good luck"), 20, "our chat line shown")
    for g in guests:
        assert g.line("CHAT 0", 30) == "good luck", g.out.read_text()


def _watching_live(s: dict) -> bool:
    """The table shows the hand we sit out under way: its near hand dealt, face down (but
    a card or two taken from the pile)."""
    hand = s.get("hand", [])
    return (
        s.get("screen") == "Table"
        and str(s.get("prompt", "")).startswith("You sit out")
        and len(hand) >= 10
        and sum(c["card"] == "??" for c in hand) >= 8
    )


def _check_pad(text: str, players: int) -> None:
    """The pad at our move: the table, and who sits out (three) or the teams and the
    partner's table, with the inset's line (four)."""
    assert f"Table of {players}" in text, text
    if players == 3:
        assert "sits out" in text, text
    else:
        assert "You & Player 3: " in text and "Partner's table: Player 3 vs" in text, text
        assert "Your partner's table" in text, text  # the inset's line under it


def _partner_table_line(p) -> None:
    """Four players: the partner's hand on the inset by now, its line under it."""
    line = "Your partner's table - their cards stay theirs"
    snap = p.wait(p.shows(line), 30, "the partner's table's line")
    text = " ".join(snap["texts"])
    assert "Player 3 vs Player " in text, text  # its players, how it stands


def _at_rest_mid_hand(p, players: int) -> bool:
    """After a few moves of ours: whether the table is at rest at our next move (with four,
    the partner's table's line shown). A guest may knock first: its result is the loop's."""
    snap = p.wait(net_move_or_result, 60, "the table at rest, our move or the result")
    if not net_move(snap):
        return False
    if players == 4:
        _partner_table_line(p)
    return True


@pytest.mark.parametrize(
    "players, label", [(3, "Host a table of 3"), (4, "Host a table of 4 (teams)")]
)
def test_host_a_lan_table_and_play_a_hand(player, tmp_path, players, label):
    name = f"table{players}"
    p = player(args=("--listen", LOOP, "--port", "0"))
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("LAN")
    p.wait(on("Lan"), 20, "the LAN screen")
    p.click_button(label)
    p.wait(on("HostSetup"), 20, "the host's rules")
    p.click_button("Open the table")
    snap = p.wait(p.shows("Join code:"), 30, "the hosting screen's code")
    text = "\n".join(snap["texts"])
    code = re.search(r"Join code:\s+(\S+)", text).group(1)
    port = re.search(r"Port (\d+)", text).group(1)
    assert f"Waiting for {players - 1} players..." in text, text
    p.screenshot(f"{name}-1-hosting")
    guests = []
    for i in range(1, players):
        guests.append(
            Process(
                tmp_path / f"guest{i}.out",
                "gin3d.net.cli",
                "table-join",
                "--code",
                code,
                "--address",
                f"{LOOP}:{port}",
                *(("--say", "hello table") if i == 1 else ()),
                *NET_FAST,
            )  # fmt: skip
        )
        if i == 1:
            snap = p.wait(p.shows("At the table: You, Player 2"), 30, "the first guest seated")
            left = f"Waiting for {players - 2} player{'s' * (players > 3)}..."
            assert p.shows(left)(snap), snap["texts"]
            p.screenshot(f"{name}-2-one-joined")
    p.wait(on("Table"), 60, "the table, everyone seated")
    _chat(p, guests)
    deadline = time.monotonic() + 300
    moves = 0  # of the hand under way
    shots: set[str] = set()

    def shot(name: str) -> None:
        if name not in shots:
            shots.add(name)
            p.screenshot(f"table{players}-{len(shots) + 2}-{name}")

    while True:  # until a hand we played is over (the ones we sit out go by on the way)
        snap = p.wait(
            lambda s: (
                net_move(s)
                or s.get("screen") in ("HandResult", "GameOver")
                or str(s.get("prompt", "")).startswith("You sit out")
            ),
            max(1.0, deadline - time.monotonic()),
            "a move, a hand sat out, or a result",
        )
        text = " ".join(snap["texts"])
        if snap["screen"] in ("HandResult", "GameOver"):
            if players == 3:
                assert "won the hand" in text or "Drawn hand" in text or "won the game" in text
                for who in ("You", "Player 2", "Player 3"):
                    assert who in text, text  # three scores
            else:  # the round: both hands, the teams' scores
                assert "Teams: You & Player 3 " in text or "win the game" in text, text
            if moves or snap["screen"] == "GameOver":
                shot("result-of-our-hand")
                break
            shot("result-of-a-hand-sat-out")  # laid out, every card open
            p.click_button("Next hand")
            p.wait(on("Table"), 30, "the next hand")
            continue
        if snap["prompt"].startswith("You sit out"):
            assert "sits out" in text, text  # the bench line on the pad, our portrait's
            # the hand we sit out plays on the table as it goes, its cards face down
            p.wait(_watching_live, 60, "the hand sat out dealt on the table, face down")
            shot("sitting-out")
            p.wait(lambda s: s.get("screen") != "Table", 120, "the hand sat out to end")
            continue
        _check_pad(text, players)
        if moves == 0 and players == 4:
            shot("first-move")  # the partner's hand on the inset, most often still going
        play_move(p, snap, knock=moves >= 6)
        moves += 1
        if moves == 4 and _at_rest_mid_hand(p, players):
            shot("mid-hand")
    assert moves > 0
    assert p.problems() == []
    for g in guests:
        assert g.proc.poll() is None, g.out.read_text()  # still at the table
        g.stop()
