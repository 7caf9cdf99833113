"""A hosted match's rules, in the app: the host picks them on the host setup screen (the
single-player setup's rows), the guest sees them in the LAN list and before the first deal,
and both play them; a table whose match does not use the rules it listed is refused."""

from __future__ import annotations

import pytest
from scene_harness import check_scene, get_app
from test_lobby_screens import TIMING, accept_offer, join_online, play_one_hand, pump

from gin3d.engine import RuleSet
from gin3d.net.api import NetEvent, NetService
from gin3d.net.discovery import Table
from gin3d.net.offer import rules_label
from gin3d.net.protocol import PROTOCOL_VERSION
from gin3d.net.session import DECLINED
from gin3d.players import GreedyPlayer
from gin3d.scene.control.net_hub import NetConfig, NetHub

OKLAHOMA = RuleSet.preset("oklahoma", game_target=150)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    app.net_hub = NetHub(
        app,
        NetConfig(
            name="Ann",
            listen="127.0.0.1",
            port=0,
            discovery=False,
            upnp=False,
            timing=TIMING,
            save_dir=str(tmp_path_factory.mktemp("saves")),
        ),
    )
    yield app
    app.request("Menu")
    app.net_hub.close(wait=True)
    app.setup.preset, app.setup.options, app.setup.target = "classic", {}, None


@pytest.fixture
def peer():
    service = NetService("Bob", timing=TIMING).start()
    yield service
    service.stop()


def listed(peer, info, rules) -> Table:
    return Table(
        "Bob's table._gin3d._tcp.local.",
        "Bob's table",
        "127.0.0.1",
        info.port,
        PROTOCOL_VERSION,
        peer.match.identity.fingerprint,
        False,
        rules,
    )


def test_host_picks_pagat_with_last_chance_and_the_guest_plays_it(app, peer):
    app.setup.preset, app.setup.options, app.setup.target = "classic", {}, None
    app.request("Lan")
    p = app.screens.panel
    p.buttons["open"]["command"]()  # a code table
    p.buttons["host"]["command"]()
    assert app.screens.state == "HostSetup"
    p = app.screens.panel
    assert "level" not in p.buttons  # no computer opponent to choose here
    while p.buttons["preset"]["text"] != "pagat":
        p.buttons["preset"]["command"]()
    p.buttons["last_chance"]["command"]()
    p.buttons["target"]["command"]()  # 100 -> 150
    assert (p.buttons["last_chance"]["text"], p.buttons["target"]["text"]) == ("on", "150")
    chosen = RuleSet.preset("pagat", last_chance=True, game_target=150, match_target=500)
    assert app.setup.rules() == chosen
    p.buttons["host"]["command"]()
    assert app.screens.state == "Hosting"
    shown = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
    assert "Rules: Pagat, game to 150, last chance" in shown
    pump(app, lambda: "Join code" in app.screens.current.host_lines[0].getText(), "hosting")
    match = app.net_hub.service.match
    assert match.rules == chosen
    peer.join_code(match.code, f"127.0.0.1:{match.port}", player=GreedyPlayer()).result(20)
    pump(app, lambda: app.screens.state == "Table", "the table")
    session = app.session
    play_one_hand(app)
    check_scene(app)
    assert session.rules == chosen and session.game.rules == chosen
    assert peer.match.session.rules == chosen  # the guest's engine plays the same RuleSet
    app.request("Menu")


def test_guest_sees_oklahoma_in_the_list_and_before_the_deal(app, peer):
    info = peer.host(
        OKLAHOMA, "Bob's table", player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
    ).result(10)
    app.request("Lan")
    app.net_hub.local.put(NetEvent("tables", {"tables": [listed(peer, info, OKLAHOMA)]}))
    pump(app, lambda: len(app.screens.current.table_rows) == 3, "the LAN list")
    app.screens.panel.entries["code"].enterText(info.code)  # a code table (no mDNS here)
    assert app.screens.current.table_rows[1].getText() == "Rules: Oklahoma, game to 150"
    app.screens.panel.buttons["row0"]["command"]()
    accept_offer(app, OKLAHOMA)
    session = app.session
    play_one_hand(app)
    check_scene(app)
    hand = session.game.hands[0]
    assert session.rules == OKLAHOMA and hand.rules == OKLAHOMA
    assert peer.match.session.rules == OKLAHOMA
    # Oklahoma: the knock limit is the first upcard's value
    assert hand.knock_limit == OKLAHOMA.knock_limit_for(hand.upcard)
    app.request("Menu")


def test_a_table_that_lists_other_rules_than_it_plays_is_refused(app, peer):
    info = peer.host(
        OKLAHOMA, "Bob's table", player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
    ).result(10)
    app.request("Lan")
    pagat = RuleSet.preset("pagat")
    app.net_hub.local.put(NetEvent("tables", {"tables": [listed(peer, info, pagat)]}))
    pump(app, lambda: len(app.screens.current.table_rows) == 3, "the LAN list")
    app.screens.panel.entries["code"].enterText(info.code)  # a code table (no mDNS here)
    app.screens.panel.buttons["row0"]["command"]()
    pump(app, lambda: app.session is not None and app.session.ended is not None, "the refusal")
    text = app.session.status.state.getText()
    assert text.startswith("Refused: the host's rules") and rules_label(pagat) in text
    assert app.screens.state != "Offer" and app.session.game is None  # nothing was dealt
    app.request("Menu")


def test_declining_the_rules_goes_back_and_tells_the_host(app, peer):
    info = peer.host(OKLAHOMA, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0).result(
        10
    )
    join_online(app, info)
    pump(app, lambda: app.screens.state == "Offer", "the host's rules")
    app.screens.panel.buttons["decline"]["command"]()
    assert app.screens.state == "Online" and app.session is None
    assert "declined" in app.screens.current.note.getText()
    ended = []
    pump(
        app,
        lambda: ended.extend(e for e in peer.poll() if e.kind == "ended") or ended,
        "the host told",
    )
    assert ended[0].data == {"reason": "opponent left", "detail": DECLINED}
    app.request("Menu")
