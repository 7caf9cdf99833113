"""What the LAN and Online screens say to a new player: the empty LAN list, the hosting lines,
the Online join fields and the router's answer. Nothing leaves loopback: the LAN search is
replaced by one that never finds anything, and the router by a stand-in."""

from __future__ import annotations

import sys
import time
from concurrent.futures import Future
from types import SimpleNamespace

import pytest
from scene_harness import get_app

from gin3d.app.screens.lobby import STILL_LOOKING_S, HostingScreen
from gin3d.net import upnp
from gin3d.net.api import HostInfo, NetService
from gin3d.scene.control.net_hub import NetConfig, NetHub


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    app.net_hub = NetHub(
        app, NetConfig(name="Ann", listen="127.0.0.1", port=0, discovery=False, upnp=False)
    )
    yield app
    app.request("Menu")
    app.net_hub.close(wait=True)


def texts(app) -> list[str]:
    return [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]


def test_an_empty_lan_list_says_no_tables_found_and_keeps_looking(app, monkeypatch):
    searches = []
    monkeypatch.setattr(
        NetService, "browse", lambda self, interfaces=None: searches.append(interfaces) or Future()
    )
    monkeypatch.setattr(app.net_hub.config, "discovery", True)
    app.request("Lan")
    assert searches, "the LAN search did not start"
    assert app.screens.current.tables_empty.getText() == "Looking for tables..."
    [task] = app.taskMgr.getTasksNamed("lan-still-looking")
    assert task.delayTime == pytest.approx(STILL_LOOKING_S) and STILL_LOOKING_S >= 2
    task.getFunction()(task)  # the timer's moment: no table was heard of meanwhile
    said = app.screens.current.tables_empty.getText()
    assert said.startswith("No tables found yet") and "still looking" in said
    app.request("Menu")
    assert not app.taskMgr.getTasksNamed("lan-still-looking")


def test_hosting_says_opening_once_and_the_open_table_hint_reads(app):
    app.screens.current.host_open = True
    app.request("Online")
    app.request("HostSetup", "online", "")  # its Host button
    app.request("Hosting", "online", "")
    assert texts(app).count("Opening the table...") == 1
    deadline = time.monotonic() + 30  # the bound only turns a hang into a failure
    while not app.screens.current.host_lines[0].getText().startswith("Join code"):
        assert time.monotonic() < deadline, "the table never opened"
        app.taskMgr.step()
    assert texts(app).count("Opening the table...") == 0
    app.request("Menu")
    info = HostInfo("ABCD-EFGH", 47470, ["192.168.1.5"], "not tried")
    app.request("Lan")
    app.request("HostSetup", "lan", "Ann's table")  # its Host button
    app.request("Hosting", "lan", "Ann's table")
    screens = app.screens.current
    screens.hosting = ("lan", True, True)  # an open table listed on the LAN
    screens._show_hosting(info)
    lines = [w.getText() for w in screens.host_lines if w.getText()]
    assert not any("host With" in line and "(To join" in line for line in lines)
    assert any('to be joined by host:port, choose "With a join code"' in line for line in lines), (
        lines
    )
    app.request("Menu")


@pytest.mark.parametrize("relay", [None, "127.0.0.1:47471"])
def test_the_online_address_field_says_when_it_is_needed(app, monkeypatch, relay):
    monkeypatch.setattr(app.net_hub.config, "relay", relay)
    app.request("Online")
    label = next(t for t in texts(app) if t.startswith("Address"))
    assert label == "Address (optional)"
    # the code alone does not mean relayed: the host is tried directly first
    assert any("tried directly first" in t for t in texts(app))
    if not relay:  # a friend's code goes alone (the public rendezvous); a host's own does not
        assert any("A friend's code like 7-K7QDM3 is enough" in t for t in texts(app))
        app.screens.panel.entries["code"].set("ABCD-EFGHJK")
        app.screens.current._join_online()  # no address: refused in words
        assert "needs the host's address" in app.screens.current.note.getText()
    app.request("Menu")


def test_a_router_failing_with_error_zero_says_what_failed(monkeypatch):
    class Router:
        discoverdelay = 0
        lanaddr = "192.168.1.5"

        def discover(self):
            return 1

        def selectigd(self):
            return "http://192.168.1.1/ctl"

        def addportmapping(self, *args):
            raise Exception("Success")  # what miniupnpc says for error 0

    monkeypatch.setitem(sys.modules, "miniupnpc", SimpleNamespace(UPnP=Router))
    result = upnp.map_port(47470)
    assert not result.ok
    assert "Success" not in result.message
    assert "asking for the port mapping" in result.message and "47470" in result.message

    def refuse(self, *args):
        raise Exception("ConflictInMappingEntry")

    monkeypatch.setattr(Router, "addportmapping", refuse)
    result = upnp.map_port(47470)
    assert "ConflictInMappingEntry" in result.message  # a real reason is passed on


RAW = "UPnP failed while looking for the router: Miniupnpc Socket error; forward port 47470"


@pytest.mark.parametrize("relay", [None, "127.0.0.1:47471"])
def test_hosting_online_keeps_the_routers_words_off_the_screen(app, relay):
    """A router search that failed: the screen says what it means in a line that fits, never
    the library's own error; with a service, nothing needs forwarding, so it says nothing of
    ports at all (the screen said "no port to forward" above "forward port 47470 by hand")."""
    info = HostInfo("ABCD-EFGH", 47470, ["192.168.1.5"], RAW)
    lines = HostingScreen._online_host_lines(info, relay)
    assert not any("Miniupnpc" in line or "UPnP failed" in line for line in lines), lines
    assert all(len(line) <= 80 for line in lines), lines
    forwards = [line for line in lines if "forward" in line and "no port to forward" not in line]
    if relay:
        assert forwards == [], lines
    else:
        assert forwards == [
            "Your router did not open port 47470: forward it, or set an online service"
        ]
    mapped = HostInfo("ABCD-EFGH", 47470, [], "router forwards port 47470", upnp_ok=True)
    assert any(
        "router forwards port 47470" in line
        for line in HostingScreen._online_host_lines(mapped, relay)
    )


@pytest.mark.parametrize("relay", [None, "127.0.0.1:47471"])
def test_hosting_online_says_what_the_friend_needs(app, relay):
    """With an online service the friend types only the code, and no port needs forwarding
    (the screen told the host to forward one even then); without one, it asks for both."""
    info = HostInfo("ABCD-EFGH", 47470, ["192.168.1.5"], "not tried")
    lines = HostingScreen._online_host_lines(info, relay)
    if relay:
        assert lines[0].startswith("Your friend types only the code")
        assert f"relay at {relay}" in lines[1]
        assert not any("forward port" in line for line in lines)
        assert not any("internet" in line for line in lines)  # not known yet: not shown
    else:
        assert any("forward port 47470" in line for line in lines)
        assert any("address:port" in line for line in lines)
