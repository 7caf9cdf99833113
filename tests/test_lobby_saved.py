"""Saving a network match by hand and resuming it from the app (offscreen, 127.0.0.1 only).

The app hosts an online game and a second NetService (a computer player with its own save
folder) joins; after a hand the app's player presses Esc, then "Save and leave"; both sides
keep a save. The app's Saved matches list shows it (and a damaged file as unreadable, never
deleted); Resume hosts it again, a stranger is turned away, the peer resumes from its own
file and a hand is played to the end. Statistics count every hand once.
"""

from __future__ import annotations

import pytest
from scene_harness import check_scene, get_app
from test_lobby_screens import (
    TIMING,
    accept_offer,
    check_view,
    host_online_for,
    join_online,
    play_one_hand,
    pump,
    rendezvous,  # noqa: F401 (autouse: online hosting meets at loopback servers)
    servers,  # noqa: F401 (the fixture it needs)
)

from gin3d import stats as stats_mod
from gin3d.net.api import NetService
from gin3d.net.session import SAVED_BYE
from gin3d.players import GreedyPlayer
from gin3d.scene.control.net_hub import NetConfig, NetHub


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    folder = tmp_path_factory.mktemp("app-saves")
    app.net_hub = NetHub(
        app,
        NetConfig(
            name="Ann",
            listen="127.0.0.1",
            port=0,
            discovery=False,
            upnp=False,
            timing=TIMING,
            save_dir=str(folder),
        ),
    )
    app.setup.options = {}
    yield app
    app.request("Menu")
    app.net_hub.close(wait=True)


def online_hands() -> int:
    st, _ = stats_mod.load()
    return st.levels["online"].hands_played if "online" in st.levels else 0


def test_save_mid_game_then_resume_from_the_list(app, tmp_path):
    peer_dir = tmp_path / "peer"
    peer_dir.mkdir()
    peer = NetService("Bob", timing=TIMING, save_dir=str(peer_dir)).start()
    stranger = NetService("Eve", timing=TIMING).start()
    hands_before = online_hands()
    try:
        session = host_online_for(app, peer)
        play_one_hand(app)
        first = session.game.hands[0]
        totals = tuple(session.game.totals())
        assert online_hands() == hands_before + 1  # counted as soon as it was verified
        pump(app, lambda: session.controller.held, "the next deal")
        app.screens.panel.buttons["next"]["command"]()
        pump(app, lambda: session.controller.waiting_for_human(), "our turn in hand 2")
        # Esc, then "Save and leave" in the pause menu
        app.messenger.send("escape")
        assert app.screens.state == "Pause"
        labels = {k: b["text"] for k, b in app.screens.panel.buttons.items()}
        assert labels["save"] == "Save and leave"
        app.screens.panel.buttons["save"]["command"]()
        pump(app, lambda: app.screens.state == "Menu", "the menu after saving")
        shown = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
        assert any("match with Bob is saved" in t for t in shown), shown
        ended = []
        pump(
            app,
            lambda: ended.extend(e for e in peer.poll() if e.kind == "ended") or ended,
            "the peer told",
        )
        assert ended[0].data == {"reason": "opponent left", "detail": SAVED_BYE}
        peer_saves = list(peer_dir.glob("gin3d-match-*-guest.json"))
        assert len(peer_saves) == 1
        # a damaged file beside it: listed as unreadable, never deleted
        bad = f"{app.net_hub.config.save_dir}/gin3d-match-0badc0ffee00-host.json"
        with open(bad, "w") as f:
            f.write("{ not json")
        app.request("Online")
        app.screens.panel.buttons["saved"]["command"]()
        assert app.screens.state == "Saved"
        listed = app.screens.current.saved
        assert len(listed) == 2
        good = next(m for m in listed if m.ok)
        broken = next(m for m in listed if not m.ok)
        assert good.opponent == "Bob" and good.role == "host" and good.hands == 1
        assert good.kind == "online" and good.scores == totals  # we were the host: seat 0
        texts = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
        assert any(t.startswith("vs Bob") for t in texts), texts
        assert any("Unreadable: gin3d-match-0badc0ffee00-host.json" in t for t in texts)
        i_bad = listed.index(broken)
        assert app.screens.panel.buttons[f"resume{i_bad}"]["state"] == "disabled"
        # delete asks first; "Keep it" keeps it
        app.screens.panel.buttons[f"delete{i_bad}"]["command"]()
        assert app.screens.state == "DeleteSaved"
        app.screens.panel.buttons["no"]["command"]()
        assert app.screens.state == "Saved" and broken.path.exists()
        # resume: the app hosts the saved match again (same code, a new port)
        app.screens.panel.buttons[f"resume{listed.index(good)}"]["command"]()
        assert app.screens.state == "Hosting"
        pump(app, lambda: "Join code" in app.screens.current.host_lines[0].getText(), "resuming")
        assert app.screens.current.waiting.getText() == "Waiting for Bob to resume..."
        match = app.net_hub.service.match
        assert match.code == good_code(good)
        # someone else (another match, another identity) is turned away, clearly
        with pytest.raises(Exception, match="not the opponent"):
            stranger.join_code(match.code, f"127.0.0.1:{match.port}", player=GreedyPlayer()).result(
                20
            )
        pump(app, lambda: "not the opponent" in app.screens.current.note.getText(), "the refusal")
        assert app.screens.state == "Hosting"
        peer.resume(peer_saves[0], f"127.0.0.1:{match.port}", player=GreedyPlayer()).result(20)
        pump(app, lambda: app.screens.state == "Table", "the resumed table")
        session = app.session
        pump(app, lambda: session.game is not None, "the resumed game")
        assert len(session.game.hands) == 1  # the saved hand, as the result screens know it
        assert (
            "(!) match resumed after 1 hand; an unfinished hand is dealt again"
            in session.chat.lines
        )
        assert [int(c) for c in session.game.hands[0].deck] == [int(c) for c in first.deck]
        play_one_hand(app)
        check_scene(app)
        assert len(session.game.hands) == 2 and session.game.hands[1].over
        assert online_hands() == hands_before + 2  # the resumed hand was not counted again
        app.request("Menu")
        # the damaged file is still there; deleting it (confirmed) removes only it
        app.request("Online")  # its "Saved matches" button
        app.request("Saved", "Online")
        listed = app.screens.current.saved
        i_bad = next(i for i, m in enumerate(listed) if not m.ok)
        app.screens.panel.buttons[f"delete{i_bad}"]["command"]()
        app.screens.panel.buttons["yes"]["command"]()
        assert app.screens.state == "Saved" and not broken.path.exists()
        assert all(m.ok for m in app.screens.current.saved) and len(app.screens.current.saved) == 1
        app.request("Menu")
    finally:
        peer.stop()
        stranger.stop()


def good_code(sm) -> str:
    import json

    return json.loads(sm.path.read_text())["code"]


def test_save_and_leave_before_any_hand_says_so(app):
    """No hand verified yet: nothing could be resumed, so nothing is saved; the table says
    why and the match goes on."""
    peer = NetService("Bob", timing=TIMING).start()
    try:
        session = host_online_for(app, peer)
        pump(app, lambda: session.controller.waiting_for_human(), "our first turn")
        app.messenger.send("escape")
        app.screens.panel.buttons["save"]["command"]()
        pump(app, lambda: app.screens.state == "Table", "back at the table")
        assert "no hand has finished yet" in session.hud.message.getText()
        assert session.ended is None
        check_view(app)
        app.request("Menu")
    finally:
        peer.stop()


def test_resume_a_match_we_joined(app, tmp_path):
    """The app joined; it saves and leaves. Resuming against a host that runs another match
    fails with a clear message; once the host resumes this one, the app's Resume (with the
    host's new address typed) reconnects and a hand is played."""
    peer_dir = tmp_path / "peer"
    peer_dir.mkdir()
    peer = NetService("Bob", timing=TIMING, save_dir=str(peer_dir)).start()
    try:
        info = peer.host(None, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0).result(
            10
        )
        join_online(app, info)
        accept_offer(app)
        session = app.session
        assert session.controller.seat == 1
        play_one_hand(app)
        pump(app, lambda: session.controller.held, "the next deal")
        app.screens.panel.buttons["next"]["command"]()
        pump(app, lambda: session.controller.waiting_for_human(), "our turn in hand 2")
        app.messenger.send("escape")
        app.screens.panel.buttons["save"]["command"]()
        pump(app, lambda: app.screens.state == "Menu", "the menu after saving")
        pump(app, lambda: peer.match.done, "the peer's match ended")
        host_save = next(peer_dir.glob("gin3d-match-*-host.json"))
        # the host opens another table: our saved match cannot get in there
        other = peer.host(
            None, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
        ).result(10)
        app.request("Online")  # its "Saved matches" button
        app.request("Saved", "Online")
        listed = app.screens.current.saved
        mine = next(i for i, m in enumerate(listed) if m.ok and m.role == "guest")
        assert listed[mine].opponent == "Bob" and listed[mine].kind == "online"
        app.screens.panel.entries["address"].enterText(f"127.0.0.1:{other.port}")
        app.screens.panel.buttons[f"resume{mine}"]["command"]()
        pump(
            app,
            lambda: "must choose Resume on this same match" in app.screens.current.note.getText(),
            "the refusal",
        )
        assert app.screens.state == "Saved" and app.session is None
        peer.stop()  # closes the other table (nobody joined it)
        peer = NetService("Bob", timing=TIMING, save_dir=str(peer_dir)).start()
        peer.resume(host_save, listen="127.0.0.1", port=0, player=GreedyPlayer()).result(10)
        address = f"127.0.0.1:{peer.match.port}"
        app.screens.panel.entries["address"].enterText(address)
        app.screens.panel.buttons[f"resume{mine}"]["command"]()
        pump(app, lambda: app.screens.state == "Table", "the resumed table")
        session = app.session
        assert session.controller.seat == 1 and app.screens.state == "Table"  # no offer again
        pump(app, lambda: session.game is not None, "the resumed game")
        play_one_hand(app)
        check_scene(app)
        assert len(session.game.hands) == 2
        app.request("Menu")
    finally:
        peer.stop()


def test_saved_matches_list_pages_through_older_saves(app, tmp_path):
    import os

    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(8):  # unreadable files list too; give each its own age, newest last
        path = folder / f"gin3d-match-{i:012x}-host.json"
        path.write_text("{ torn")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    before = app.net_hub
    app.request("Menu")
    app.net_hub = NetHub(
        app,
        NetConfig(
            name="Ann",
            listen="127.0.0.1",
            port=0,
            discovery=False,
            upnp=False,
            timing=TIMING,
            save_dir=str(folder),
        ),
    )
    try:
        app.request("Online")  # its "Saved matches" button
        app.request("Saved", "Online")
        buttons = app.screens.panel.buttons
        saved = app.screens.current.saved
        assert len(saved) == 8 and saved[0].path.name.endswith("000000000007-host.json")
        assert {f"resume{i}" for i in range(6)} <= set(buttons) and "resume6" not in buttons
        assert "older" in buttons and "newer" not in buttons
        buttons["older"]["command"]()
        buttons = app.screens.panel.buttons
        assert app.screens.state == "Saved"
        assert {"resume6", "resume7", "newer"} <= set(buttons) and "resume0" not in buttons
        assert "older" not in buttons
        buttons["delete7"]["command"]()  # the oldest, reachable only on the second page
        assert app.screens.state == "DeleteSaved"
        app.screens.panel.buttons["yes"]["command"]()
        assert not (folder / "gin3d-match-000000000000-host.json").exists()
        assert len(list(folder.glob("gin3d-match-*.json"))) == 7
        # back on the page it was deleted from: one row left there, and the way back
        buttons = app.screens.panel.buttons
        assert app.screens.state == "Saved" and "resume6" in buttons and "resume7" not in buttons
        assert "newer" in buttons and "older" not in buttons
    finally:
        app.request("Menu")
        app.net_hub.close(wait=True)
        app.net_hub = before
