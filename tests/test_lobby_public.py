"""Online → Find an opponent and Settings → Online service, on a real relay node (127.0.0.1).

A second ``NetService`` in this process (a computer player, Bob) opens a public table at the
node; the app lists it on the Tables screen and joins it with the Join button, or finds it
by quick match; the Settings screen's Test button asks the node and says what it is.
"""

from __future__ import annotations

import time

import pytest
from scene_harness import get_app
from test_lobby_screens import RULES, TIMING, accept_offer, check_view, pump

from gin3d.net.api import NetService
from gin3d.players import GreedyPlayer
from gin3d.scene.control.net_hub import NetConfig, NetHub
from tools.net_screenshots import relay_node


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.net_hub.close(wait=True)
    app.net_hub = NetHub(
        app, NetConfig(name="Ann", listen="127.0.0.1", port=0, discovery=False, upnp=False)
    )
    yield app
    app.request("Menu")
    app.net_hub.close(wait=True)


@pytest.fixture
def node():
    """One relay node (in memory) on its own event loop thread."""
    with relay_node() as address:
        yield address


def bob_opens_a_table(service: str) -> NetService:
    bob = NetService("Bob", relay=service, timing=TIMING).start()
    assert bob.open_public_table(RULES, player=GreedyPlayer()).result(10) == "host"
    # its listing reaches the node after the code's proof is made (scrypt, a moment later);
    # the bound only turns a hang into a failure
    deadline = time.monotonic() + 30
    while not bob.public_tables().result(10):
        assert time.monotonic() < deadline, "Bob's table was never listed"
    return bob


def shown(app) -> list[str]:
    return [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]


def test_find_an_opponent_lists_the_open_table_and_join_plays_it(app, node):
    bob = bob_opens_a_table(node)
    try:
        app.net_hub.config.relay = node
        app.request("Menu")
        app.request("Online")
        app.screens.panel.buttons["find"]["command"]()
        assert app.screens.state == "Tables"
        pump(app, lambda: app.screens.current.public_tables, "the list of open tables")
        rows = [t for t in shown(app) if t.startswith("Bob")]
        assert len(rows) == 1 and "classic to 100" in rows[0] and "waiting" in rows[0], rows
        buttons = app.screens.panel.buttons
        assert buttons["prev"].isHidden() and buttons["next"].isHidden()  # one page: no paging
        app.screens.panel.buttons["join0"]["command"]()
        accept_offer(app, RULES)
        session = app.session
        pump(app, lambda: session.controller.waiting_for_human(), "our first turn")
        check_view(app)
        assert session.route == "relay" and session.names[1] == "Bob"
        app.request("Menu")
    finally:
        app.net_hub.config.relay = None
        app.net_hub.close(wait=True)
        bob.stop()


def test_quick_match_takes_the_waiting_table_of_its_preset(app, node):
    bob = bob_opens_a_table(node)
    try:
        app.net_hub.config.relay = node
        app.request("Menu")
        app.request("Online")
        app.request("Tables")
        app.screens.panel.buttons["quick:classic"]["command"]()
        accept_offer(app, RULES)
        assert app.session.names[1] == "Bob" and app.session.controller.seat == 1
        app.request("Menu")
    finally:
        app.net_hub.config.relay = None
        app.net_hub.close(wait=True)
        bob.stop()


def test_hosting_online_shows_the_address_the_service_sees_once_it_says(app, node):
    """Play a friend: the code stays the thing to share; the host's address on the
    internet (the node's SEEN) is shown as a line of its own once the node has said it."""
    app.net_hub.close(wait=True)
    try:
        app.net_hub.config.relay = node
        app.request("Menu")
        app.request("Online")
        app.request("HostSetup", "online", "")  # its Host button
        app.request("Hosting", "online", "")
        lines = app.screens.current.host_lines
        pump(app, lambda: any("internet" in w.getText() for w in lines), "the seen address")
        port = app.net_hub.service.match.port
        said = [w.getText() for w in lines if w.getText()]
        assert said[0].startswith("Join code:") and said[2].startswith("Your friend types only")
        assert f"Your address on the internet: 127.0.0.1 (port {port})," in said[-1], said
        app.request("Menu")
    finally:
        app.net_hub.config.relay = None
        app.net_hub.close(wait=True)


def test_without_a_service_the_tables_screen_says_where_to_set_one(app):
    app.net_hub.config.relay = None
    app.request("Menu")
    app.request("Online")
    app.request("Tables")
    assert any("Settings, Online service" in t for t in shown(app))
    assert "join0" not in app.screens.panel.buttons
    app.messenger.send("escape")
    assert app.screens.state == "Online"
    app.request("Menu")


def test_settings_test_button_asks_the_service_and_says_what_answered(app, node):
    app.request("Menu")
    app.request("Settings", "Menu")
    p = app.screens.panel
    p.entries["service"].enterText(node)
    p.buttons["test_service"]["command"]()
    note = app.screens.current.service_note
    pump(app, lambda: note.getText().startswith("The service answers"), "the service's answer")
    assert node in note.getText() and "single node" in note.getText()
    p.entries["service"].enterText("127.0.0.1:1")  # nobody there
    p.buttons["test_service"]["command"]()
    pump(app, lambda: note.getText().startswith("No answer"), "no answer")
    app.request("Menu")
