"""Player's-eye scenarios of a friend's game with no online service set: the installed game
in a real X window, a real magic-wormhole mailbox server and transit relay on loopback
(tests/rendezvous_servers.py; the game is pointed at them with ``--rendezvous`` /
``--transit``, and the harness's ``GIN3D_TEST_LOOPBACK_ONLY`` refuses any other) and a
command line player (``gin3d-match``, a real second process). The game's player hosts from
Online and the friend joins with the code alone; and the game's player joins a friend's
game by typing its code alone. Screenshots go to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import re

import pytest
from player_harness import on
from rendezvous_servers import servers  # noqa: F401 (a fixture)
from test_player_flows import (
    LOOP,
    NET_FAST,
    Process,
    accept_and_play,
    net_move_or_result,
    open_online,
)

pytestmark = pytest.mark.slow


def _game_args(running) -> tuple[str, ...]:
    return (
        "--rendezvous",
        running.mailbox_url,
        "--transit",
        running.transit_at,
        "--listen",
        LOOP,
        "--port",
        "0",
    )


def _cli(tmp_path, name: str, *args: str) -> Process:
    """A command line player; its defaults point at the test's servers (``pointed``)."""
    return Process(tmp_path / f"{name}.out", "gin3d.net.cli", *args, *NET_FAST)


@pytest.fixture
def pointed(servers, monkeypatch):  # noqa: F811
    """The command line players' built-in defaults point at the loopback servers."""
    for name, value in servers.env.items():
        monkeypatch.setenv(name, value)
    return servers


def test_host_for_a_friend_with_no_service_and_the_code_alone_brings_them(
    player,
    pointed,
    tmp_path,
):
    running = pointed
    p = player(args=_game_args(running))
    snap = open_online(p)
    assert p.shows("No service set: you meet through the public magic-wormhole server.")(snap)
    assert not any("address and port" in t for t in snap["texts"]), snap["texts"]
    p.screenshot("friend-0-online")
    p.click_button("Host")
    p.wait(on("HostSetup"), 20, "the host's rules")
    p.click_button("Open the table")
    snap = p.wait(p.shows("Join code:"), 30, "the hosting screen's code")
    text = "\n".join(snap["texts"])
    code = re.search(r"Join code:\s+(\S+)", text).group(1)
    assert re.fullmatch(r"\d+-[2-9A-HJ-NP-Z]{6}", code), code
    assert "Your friend types only the code: no address, no port to forward" in text, text
    assert "magic-wormhole" in text, text
    assert snap["cut_off"] == [], snap["cut_off"]
    p.screenshot("friend-1-hosting")
    friend = _cli(tmp_path, "friend", "join", "--code", code, "--name", "Dee")
    try:
        snap = p.wait(lambda s: s.get("screen") == "Table", 60, "the table, our friend seated")
        snap = p.wait(net_move_or_result, 60, "the first move at the table")
        assert any("Dee" in t for t in snap["texts"]), snap["texts"]
        p.screenshot("friend-2-table")
        assert p.problems() == []
    finally:
        friend.stop()


def test_join_a_friends_game_by_its_code_alone_with_no_service(player, pointed, tmp_path):
    running = pointed
    host = _cli(tmp_path, "eve", "host", "--friend", "--port", "0", "--name", "Eve", "--relay-only")
    try:
        _, code = host.line("LISTENING", 30).split()
        p = player(args=_game_args(running))
        open_online(p)
        p.type_into("code", code.lower())  # typed as it was heard: case does not matter
        p.screenshot("friend-3-code-typed")
        p.click_button("Join")
        accept_and_play(p, "Eve", "friend-code")
        assert p.problems() == []
    finally:
        host.stop()
