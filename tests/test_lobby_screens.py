"""LAN and Online screens on the offscreen app, with real matches over loopback (127.0.0.1).

The app hosts from the LAN screen and a second NetService (a computer player, in this
process) joins; or the app joins a table from its LAN list. Discovery (mDNS) stays off: the
LAN list is fed one ``tables`` event naming a real table on 127.0.0.1, and hosting does not
advertise, so nothing is sent beyond loopback. Every local move goes through the real input
path (``InputDriver`` clicks card nodes); the table is checked against the seat's view.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
from rendezvous_servers import servers  # noqa: F401 (a fixture)
from scene_harness import Driver, check_scene, get_app

from gin3d.engine import CardDealt, RuleSet
from gin3d.net.api import NetEvent, NetService
from gin3d.net.discovery import Table
from gin3d.net.offer import rules_label
from gin3d.net.protocol import PROTOCOL_VERSION
from gin3d.net.session import Timing
from gin3d.players import GreedyPlayer
from gin3d.scene.control.net_hub import NetConfig, NetHub
from tools.net_screenshots import relay_node

RULES = RuleSet.preset("classic", game_target=100)
TIMING = Timing(heartbeat=0.5, dead_after=10)


@pytest.fixture(scope="module", autouse=True)
def rendezvous(servers):  # noqa: F811
    """Online hosting with no service meets at these loopback servers (the built-in
    defaults pointed at them, as a packager would), never at the public ones."""
    before = {name: os.environ.get(name) for name in servers.env}
    os.environ.update(servers.env)
    yield servers
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    app.net_hub = NetHub(
        app,
        NetConfig(
            name="Ann", listen="127.0.0.1", port=0, discovery=False, upnp=False, timing=TIMING
        ),
    )
    app.setup.options = {}
    yield app
    app.request("Menu")
    app.net_hub.close(wait=True)


@pytest.fixture
def peer():
    service = NetService("Bob", timing=TIMING).start()
    yield service
    service.stop()


def pump(app, until, what: str, timeout: float = 60.0) -> None:
    """Run app frames until ``until()``; the bound only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            note = getattr(app.screens, "note", None)
            said = note.getText() if note is not None and not note.isEmpty() else ""
            raise AssertionError(
                f"gave up waiting for {what} (screen {app.screens.state}, saying {said!r})"
            )
        app.taskMgr.step()


def host_online_for(app, peer):
    """The app hosts an online table with no service set (menu, setup, open: a friend's
    code, met at the loopback rendezvous) and ``peer`` joins it by the code alone; returns
    the app's session once the table shows."""
    app.request("Online")
    app.screens.panel.buttons["host"]["command"]()
    app.screens.panel.buttons["host"]["command"]()  # the host setup: open the table
    pump(app, lambda: "Join code" in app.screens.current.host_lines[0].getText(), "hosting")
    match = app.net_hub.service.match
    assert match.met_at.startswith("ws://127.0.0.1:")  # met at the loopback server
    peer.join_code(match.code, player=GreedyPlayer()).result(30)
    pump(app, lambda: app.screens.state == "Table", "the table")
    return app.session


def join_online(app, info) -> None:
    """As the guest: type the host's code and address on the Online screen and join."""
    app.request("Online")
    p = app.screens.panel
    p.entries["code"].enterText(info.code)
    p.entries["address"].enterText(f"127.0.0.1:{info.port}")
    p.buttons["join"]["command"]()


def accept_offer(app, rules=None) -> None:
    """As the guest: the host's rules are shown before the first deal; accept them."""
    pump(app, lambda: app.screens.state == "Offer", "the host's rules")
    if rules is not None:
        shown = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
        assert shown[1] == rules_label(rules), shown
    app.screens.panel.buttons["accept"]["command"]()
    assert app.screens.state == "Table"


def check_view(app) -> None:
    """The table shows exactly what the local seat's view holds (we are drawn as seat 0)."""
    ctl = app.session.controller
    view = ctl.view(0)
    z = app.scene.zones()
    assert z["stock"] == view.stock_count
    assert all(face is None for face in z["stock_faces"])
    assert z["pile"] == list(view.pile)
    assert sorted(z["hand0"]) == sorted(view.hand)
    if view.knocker is None:
        assert len(z["hand1"]) == view.opponent_count
        faces = [c for c in z["hand1"] if c is not None]
        assert Counter(faces) <= Counter(view.opponent_known), (faces, view.opponent_known)


def play_one_hand(app) -> Driver:
    """Our moves through clicks until the verified hand is over and its result shows."""
    driver = Driver(app)
    ctl = app.session.controller
    for _ in range(200):
        pump(
            app,
            lambda: ctl.waiting_for_human() or app.screens.state in ("HandResult", "GameOver"),
            "our turn or the result",
        )
        if app.screens.state in ("HandResult", "GameOver"):
            return driver
        check_view(app)
        driver.play_turn()
    raise AssertionError("the hand did not end")


def test_host_from_lan_screen_and_play_a_hand(app, peer):
    app.request("Menu")
    app.screens.panel.buttons["lan"]["command"]()
    assert app.screens.state == "Lan"
    p = app.screens.panel
    assert p.entries["table"].get() == "Ann's table"
    p.buttons["open"]["command"]()  # a table with a code (discovery is off anyway)
    p.buttons["host"]["command"]()
    assert app.screens.state == "HostSetup"  # the rules first (the setup's rows)
    assert app.screens.panel.buttons["preset"]["text"] == app.setup.preset
    app.screens.panel.buttons["host"]["command"]()
    assert app.screens.state == "Hosting"
    hub = app.net_hub
    pump(
        app,
        lambda: (
            hub.service.match is not None
            and "Join code" in app.screens.current.host_lines[0].getText()
        ),
        "the hosting screen",
    )
    code = hub.service.match.code
    lines = [t.getText() for t in app.screens.current.host_lines]
    assert lines[0] == f"Join code:  {code}"
    port = hub.service.match.port
    assert f"Port {port}" in lines[1] and "127.0.0.1" in lines[1]
    assert app.screens.current.waiting.getText() == "Waiting for an opponent..."
    assert peer.join_code(code, f"127.0.0.1:{port}", player=GreedyPlayer()).result(20)
    pump(app, lambda: app.screens.state == "Table", "the table")
    session = app.session
    assert session.controller.seat == 0 and session.names == ("You", "Bob")
    pump(app, lambda: session.controller.current.phase != "deal", "the deal")
    app.request("Pause")  # the pause menu's Rules show the match's rules mid-hand
    app.request("Rules", "Pause")
    assert app.screens.panel.title.getText() == f"Rules: {RULES.name}"
    app.request("Pause")  # back, as the Rules screen's Back button goes
    app.request("Table")
    inp = session.input  # the score pad: on the felt from the start, empty, our name first
    assert inp.pad.shown and inp.pad.lines == [("You", "Bob"), ("", "")]
    play_one_hand(app)
    check_scene(app)  # the verified full hand (all cards open) against the table
    game = session.game
    first = game.hands[0]  # the pad (and Tab's sheet) pencils in the verified hand
    pad = session.controller.score_sheet()
    assert pad is not None and len(pad.lines) == 1 and pad.lines[0].winner == first.winner
    assert game.hands[0].over and len(game.hands) == 1
    assert session.controller.submitted, "no move went through the input path"
    assert "direct" in session.status.info.getText()
    assert "safety code" in session.status.info.getText()
    title = app.screens.panel.title.getText()
    assert title == "Drawn hand" or title.endswith("won the hand"), title
    # the next hand was dealt meanwhile; it shows once we press Next hand
    pump(app, lambda: session.controller.held, "the next deal")
    assert app.scene.zones()["stock"] == len(game.hand.stock)  # still the finished hand
    app.screens.panel.buttons["next"]["command"]()
    assert app.screens.state == "Table"
    pump(app, lambda: session.controller.current.hand_number == 1, "the second hand")
    check_view(app)
    app.request("Menu")


def test_join_from_lan_list_as_guest_with_chat(app, peer):
    info = peer.host(
        RULES, "Bob's table", player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
    ).result(10)
    app.request("Lan")
    listed = Table(
        "Bob's table._gin3d._tcp.local.",
        "Bob's table",
        "127.0.0.1",
        info.port,
        PROTOCOL_VERSION,
        peer.match.identity.fingerprint,
        False,
        RULES,
    )
    other = Table(
        "Old._gin3d._tcp.local.", "Old table", "127.0.0.1", 9, PROTOCOL_VERSION + 1, "0" * 64, True
    )
    saved = Table(
        "Ann._gin3d._tcp.local.",
        "Ann",
        "127.0.0.1",
        9,
        PROTOCOL_VERSION,
        "1" * 64,
        False,
        RULES,
        resume=True,
    )  # a saved match waiting for its own opponent
    app.net_hub.local.put(NetEvent("tables", {"tables": [saved, listed, other]}))
    pump(app, lambda: len(app.screens.current.table_rows) == 6, "the LAN list")  # not the saved one
    texts = [w.getText() for w in app.screens.current.table_rows[::3]]
    assert "Bob's table" in texts[0] and "needs a code" in texts[0]
    assert "other version" in texts[1]
    assert app.screens.current.table_rows[1].getText() == f"Rules: {rules_label(RULES)}"
    assert app.screens.current.table_rows[4].getText() == "Rules: rules not advertised"
    p = app.screens.panel
    p.buttons["row0"]["command"]()  # no code typed yet: told, nothing happens
    assert "needs its join code" in app.screens.current.note.getText()
    assert app.net_hub.role is None
    p.entries["code"].enterText(info.code)
    seen_dealt = []

    def listen(e):
        if isinstance(e, CardDealt) and e.seat == 0 and len(seen_dealt) < 10:
            seen_dealt.append(e.card)

    app.scene.listeners.append(listen)
    p.buttons["row0"]["command"]()
    accept_offer(app, RULES)
    session = app.session
    assert session.controller.seat == 1  # the guest, drawn at the bottom as seat 0
    session.chat.type_and_send("good luck!")
    got = []
    pump(
        app,
        lambda: got.extend(e for e in peer.poll() if e.kind == "chat") or got,
        "the chat at the host",
    )
    assert got[0].data == {"seat": 1, "text": "good luck!"}
    peer.chat("thanks, you too").result(5)
    peer.emote("well_played").result(5)
    pump(app, lambda: len(session.chat.lines) >= 3, "the chat on the table")
    assert session.chat.lines[:3] == [
        "You: good luck!",
        "Bob: thanks, you too",
        "Bob: *Well played*",
    ]
    assert "Bob: thanks, you too" in session.chat.text.getText()
    play_one_hand(app)
    check_scene(app)
    hand = session.game.hand
    assert hand.over and session.controller.submitted
    # the record is in our numbering: what we were dealt face up is seat 0's deal there
    ours = [e.card for e in hand.events if isinstance(e, CardDealt) and e.seat == 0]
    assert sorted(c for c in seen_dealt if c is not None) == sorted(ours)
    assert len(seen_dealt) == 10
    peer.leave().result(5)
    pump(app, lambda: session.ended == "opponent left", "the opponent leaving")
    assert "opponent left" in session.status.state.getText().lower()
    app.scene.listeners.remove(listen)
    app.request("Menu")


def test_online_join_with_a_wrong_code_shows_an_error(app, peer):
    info = peer.host(RULES, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0).result(10)
    wrong = "ABCD-EFGHJK" if info.code != "ABCD-EFGHJK" else "ABCD-EFGHJM"
    app.request("Online")
    p = app.screens.panel
    p.entries["code"].enterText("not a code")
    p.buttons["join"]["command"]()
    assert "is not a join code" in app.screens.current.note.getText()
    p.entries["code"].enterText(wrong)
    p.buttons["join"]["command"]()  # no address and no relay: only a friend's code goes alone
    assert "needs the host's address" in app.screens.current.note.getText()
    p.entries["address"].enterText(f"127.0.0.1:{info.port}")
    p.buttons["join"]["command"]()
    pump(app, lambda: "authenticate" in app.screens.current.note.getText(), "the error")
    assert app.screens.state == "Online" and app.session is None
    # the screen still works: Esc goes back to the menu
    app.messenger.send("escape")
    app.taskMgr.step()
    assert app.screens.state == "Menu"


class StalledNet:
    """What ``NetService.status()`` says while the opponent owes a step (no real match)."""

    def __init__(self) -> None:
        self.claim_in: float | None = None
        self.claimed = 0

    def status(self) -> dict:
        return {
            "status": "connected",
            "route": "direct",
            "opponent": "Bob",
            "fingerprint": None,
            "safety_code": "",
            "round_trip_ms": None,
            "claim_in": self.claim_in,
            "stall_s": 120.0,
        }

    def claim(self):
        import concurrent.futures

        self.claimed += 1
        done = concurrent.futures.Future()
        done.set_result(None)
        return done


def test_status_line_counts_down_to_a_claim_against_an_opponent_who_stopped_playing(app):
    net = StalledNet()
    session = app.start_net_game(
        NetHub(app, NetConfig(discovery=False, upnp=False)), 1, "Bob", "direct", ""
    )
    session.net = net
    assert app.taskMgr.hasTaskNamed(session._clock_task)  # refreshed every second
    for claim_in, words in (
        (None, "connected"),
        (110.0, "connected"),
        (75.2, "claim the match in 76 s"),
        (1.0, "in 1 s"),
    ):
        net.claim_in = claim_in
        session.refresh_status()
        assert words in session.status.state.getText()
        assert session.status.claim.isHidden()
    net.claim_in = 0.0
    session.refresh_status()
    assert "stopped playing" in session.status.state.getText()
    assert not session.status.claim.isHidden()
    session.status.claim["command"]()
    assert net.claimed == 1
    session.handle(NetEvent("ended", {"reason": "claimed", "detail": "opponent stopped playing"}))
    assert session.status.claim.isHidden()
    app.request("Menu")
    assert not app.taskMgr.hasTaskNamed(session._clock_task)


def test_status_line_tells_line_drops_departures_and_cheating(app):
    """The status line and prompt for what the service may report during a match (the events
    a real NetService emits; this one never connects)."""
    net = NetService("Ann")
    session = app.start_net_game(
        NetHub(app, NetConfig(discovery=False, upnp=False)), 1, "Bob", "relay", "123 456"
    )
    session.net = net
    session.handle(NetEvent("status", {"text": "waiting for opponent…"}))
    assert "waiting for opponent" in session.status.state.getText()
    assert session.hud.prompt.getText() == "Waiting for opponent..."
    assert session.status.claim.isHidden() and not session.status.save.isHidden()
    session.handle(NetEvent("status", {"text": "opponent gone"}))
    assert "claim" in session.status.state.getText() and not session.status.claim.isHidden()
    assert session.status.save["text"] == "Save and leave" and not session.status.save.isHidden()
    session.handle(NetEvent("status", {"text": "connected"}))
    assert session.status.state.getText() == "connected" and session.status.claim.isHidden()
    assert session.status.save.isHidden()
    assert "relay" in session.status.info.getText() and "123 456" in session.status.info.getText()
    session.handle(
        NetEvent(
            "cheat",
            {
                "message": "your opponent's client cheated: bad deck",
                "evidence": "gin3d-evidence-x-seat1-1.json",
            },
        )
    )
    text = session.status.state.getText()
    assert "cheated" in text and "gin3d-evidence-x-seat1-1.json" in text
    session.handle(NetEvent("ended", {"reason": "opponent left", "detail": ""}))
    assert "cheated" in session.status.state.getText()  # the cheat stays the headline
    session.handle(NetEvent("status", {"text": "opponent gone"}))
    assert session.status.save.isHidden()  # the match is over: nothing to save
    session.handle(NetEvent("emote", {"seat": 0, "name": "good_game"}))
    assert session.chat.lines[-1] == "Bob: *Good game*"
    # while the chat entry has the keyboard the table's keys are off; a click away restores them
    session.chat.entry["focus"] = 1
    for _ in range(2):
        app.taskMgr.step()
    assert session.chat.typing and not app.isAccepting("s")
    app.messenger.send("mouse1")
    assert not session.chat.typing and app.isAccepting("s")
    session.chat.type_and_send("still there?")
    assert "nobody is listening" in session.chat.lines[-1]
    app.request("Menu")
    assert app.session is None


def test_whole_network_game_then_rematch(app, peer):
    """Online: the app hosts a short game, plays it to the end through clicks, and both
    players agree to a rematch, which deals a new game on the same table."""
    from gin3d import stats as stats_mod
    from gin3d.history import read_hands

    def online():
        st = stats_mod.load()[0].levels.get("online")
        return (st.games_played, st.games_won, st.hands_played) if st else (0, 0, 0)

    before = online()
    history_before = len(read_hands()[0])
    app.setup.target = 50
    try:
        session = host_online_for(app, peer)
    finally:
        app.setup.target = None
    for _ in range(30):
        play_one_hand(app)
        check_scene(app)
        if app.screens.state == "GameOver":
            break
        pump(app, lambda: session.controller.held, "the next deal")
        app.screens.panel.buttons["next"]["command"]()
    assert app.screens.state == "GameOver"
    game = session.game
    assert game.over and game.rules.game_target == 50
    assert max(game.totals()) >= 50
    winner = session.names[game.winner]
    assert app.screens.panel.title.getText() == f"{winner} won the game!"
    assert app.screens.panel.buttons["again"]["text"] == "Rematch"
    # the finished game counts once in the statistics (games, wins, every hand) and history
    won = int(game.winner == 0)
    assert online() == (before[0] + 1, before[1] + won, before[2] + len(game.hands))
    kept = read_hands()[0][history_before:]
    assert len(kept) == len(game.hands)
    assert all(r.opponent_level == "online" and r.names == ("Ann", "Bob") for r in kept)
    answered = []

    def peer_says_yes():
        for ev in peer.poll():
            if ev.kind == "rematch_asked":
                peer.answer_rematch(True)
                answered.append(ev)
        return answered

    pump(app, peer_says_yes, "the peer's rematch question")
    app.screens.panel.buttons["again"]["command"]()
    pump(app, lambda: app.screens.state == "Table", "the rematch")
    pump(
        app,
        lambda: (
            session.controller.current.phase != "deal"
            and session.controller.current.scores == (0, 0)
        ),
        "the new game's deal",
    )
    check_view(app)
    assert session.game is None or not session.game.over
    assert online()[:2] == (before[0] + 1, before[1] + won)  # the rematch is another game
    app.request("Menu")


def test_hosting_on_a_busy_port_moves_to_a_free_one(app):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        app.net_hub.config.port = busy
        try:
            app.request("Online")
            app.screens.panel.buttons["host"]["command"]()
            app.screens.panel.buttons["host"]["command"]()
            pump(app, lambda: "Join code" in app.screens.current.host_lines[0].getText(), "hosting")
        finally:
            app.net_hub.config.port = 0
        port = app.net_hub.service.match.port
        assert port != busy and f"Port {port}" in app.screens.current.host_lines[1].getText()
        assert "port busy" in app.screens.current.note.getText()
    app.messenger.send("escape")  # Esc: back to Online, and the table is closed
    app.taskMgr.step()
    assert app.screens.state == "Online" and app.net_hub.service is not None
    app.request("Menu")
    assert app.net_hub.service is None


def test_online_join_by_code_alone_through_a_relay(app):
    """With a relay configured the code is enough: the match runs relayed (127.0.0.1; the
    host does not publish a direct address, so the guest's direct try finds none)."""
    with relay_node() as node:
        host = NetService("Bob", relay=node, timing=TIMING).start()
        try:
            info = host.host(
                RULES, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0, publish=False
            ).result(10)
            app.net_hub.config.relay = node
            app.request("Online")
            p = app.screens.panel
            shown = [w.getText() for w in p.widgets if hasattr(w, "getText")]
            assert f"Relay: {node}" in shown
            p.entries["code"].enterText(info.code.lower())  # typed loosely: still the code
            p.buttons["join"]["command"]()
            accept_offer(app)
            session = app.session
            pump(app, lambda: session.controller.waiting_for_human(), "our first turn")
            check_view(app)
            assert session.route == "relay" and " relay " in f" {session.status.info.getText()} "
            app.request("Menu")
        finally:
            app.net_hub.config.relay = None
            app.net_hub.close(wait=True)
            host.stop()
