"""Online tables of three and four on the offscreen app, with real processes on loopback
(127.0.0.1): a ``gin3d-relay`` node, and command line players who reach the table only
through it. The app hosts a table of three from the Online screen (its players type only the
code) and plays it to the end; the app joins a command line host's table of four from the
Online screen with the code alone, as player 1, and plays it to the end: the same totals
everywhere, every guest's route the relay."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from net_processes import FAST, LOOP, ROOT
from scene_harness import Driver, get_app
from test_lobby_screens import check_view, pump

from gin3d.net.session import Timing
from gin3d.scene.control.net_hub import NetConfig, NetHub

TARGET = 50


def _process(out, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
    )


def _said(path, prefix: str, timeout: float = 30) -> str:
    """The rest of the first line of ``path`` that starts with ``prefix`` (waits for it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in path.read_text().splitlines():
            if line.startswith(prefix):
                return line[len(prefix) :].strip()
        time.sleep(0.05)  # the poll interval of a wait with a deadline
    raise AssertionError(f"no {prefix!r} in {path.name}: {path.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def relay(tmp_path_factory):
    """A relay node of ours on loopback; its address."""
    out = tmp_path_factory.mktemp("relay") / "relay.out"
    with out.open("w") as f:
        node = _process(f, "gin3d.net.relay", "--host", LOOP, "--port", "0")
    try:
        yield _said(out, "gin3d-relay (memory) listening on").split()[-1]
    finally:
        node.kill()
        node.wait(10)


@pytest.fixture(scope="module")
def app(relay):
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    config = NetConfig(
        name="Ann",
        relay=relay,
        listen=LOOP,
        port=0,
        discovery=False,
        upnp=False,
        timing=Timing(0.3, 2.5, 60),
    )
    app.net_hub = NetHub(app, config)
    app.setup.options = {}
    targets = app.setup.target, app.setup.team_target
    app.setup.target = app.setup.team_target = TARGET
    yield app
    app.setup.target, app.setup.team_target = targets
    app.request("Menu")
    app.net_hub.close(wait=True)


def _join(relay: str, code: str, out) -> subprocess.Popen:
    """A command line player joining through the relay with the code alone."""
    return subprocess.Popen(
        [sys.executable, "-m", "gin3d.net.cli", "table-join", "--code", code, "--relay", relay,
         "--out", str(out), *FAST],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _play_out(app) -> None:
    """Play our hands to the game-over screen (Next hand on each result)."""
    ctl = app.session.controller
    driver = Driver(app)
    for _ in range(3000):
        pump(
            app,
            lambda: (
                ctl.waiting_for_human()
                or app.screens.state in ("HandResult", "GameOver")
                or ctl.watching_line()
            ),
            "our turn, a hand we sit out or a result",
            timeout=90,
        )
        if app.screens.state == "GameOver":
            return
        if app.screens.state == "HandResult":
            app.screens.panel.buttons["next"]["command"]()
        elif ctl.watching_line():
            pump(app, lambda: app.screens.state in ("HandResult", "GameOver"), "the hand", 90)
        else:
            check_view(app)
            driver.play_turn()
    raise AssertionError("the game did not end")


def _stop(procs) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_host_a_table_of_three_online_joined_with_the_code_alone(app, relay, tmp_path):
    app.request("Menu")
    app.request("Online")
    app.screens.panel.buttons["host3"]["command"]()
    assert app.screens.state == "HostSetup"
    app.screens.panel.buttons["host"]["command"]()
    assert app.screens.state == "Hosting"
    screen = app.screens.current
    pump(app, lambda: "Join code" in screen.host_lines[0].getText(), "the hosting screen")
    lines = [w.getText() for w in screen.host_lines]
    assert any("type only the code" in t for t in lines), lines
    assert any(f"through the relay at {relay}" in t for t in lines), lines
    code = app.net_hub.service.host_info.code
    guests = [_join(relay, code, tmp_path / "p1.json")]
    try:
        pump(app, lambda: "You, Player 2 " in screen.seated.getText(), "the first guest")
        guests.append(_join(relay, code, tmp_path / "p2.json"))
        pump(app, lambda: app.screens.state == "Table", "the table", timeout=90)
        assert (app.session.controller.me, app.session.controller.players) == (0, 3)
        _play_out(app)
        for g in guests:
            g.wait(60)
    finally:
        _stop(guests)
    results = [json.loads((tmp_path / f"p{i}.json").read_text()) for i in (1, 2)]
    game = app.session.controller.game.game
    assert [r["ended"] for r in results] == ["finished"] * 2
    assert [r["route"] for r in results] == ["relay"] * 2
    assert [r["totals"] for r in results] == [list(game.totals())] * 2
    app.request("Menu")


def test_join_a_table_of_four_online_with_the_code_alone(app, relay, tmp_path):
    said = tmp_path / "host.out"
    with said.open("w") as out:
        host = _process(
            out, "gin3d.net.cli", "table-host", "--players", "4", "--listen", LOOP, "--port",
            "0", "--relay", relay, "--target", str(TARGET), "--out", str(tmp_path / "p0.json"),
            *FAST,
        )  # fmt: skip
    procs = [host]
    try:
        code = _said(said, "LISTENING").split()[1]
        app.request("Menu")
        app.request("Online")
        app.screens.panel.entries["code"].enterText(code)  # no address: the relay
        app.screens.panel.buttons["join_table"]["command"]()
        note = app.screens.lobby.note
        pump(app, lambda: "waiting for the others" in note.getText(), "the guest's waiting line")
        for i in (2, 3):
            procs.append(_join(relay, code, tmp_path / f"p{i}.json"))
            _said(said, f"NOTE seated player {i}")
        pump(app, lambda: app.screens.state == "Table", "the table", timeout=90)
        session = app.session
        assert (session.controller.me, session.controller.players) == (1, 4)
        assert "you are player 2" in session.status.info.getText()
        _play_out(app)
        host.wait(60)
    finally:
        _stop(procs)
    game = app.session.controller.game.game
    assert json.loads((tmp_path / "p0.json").read_text())["totals"] == game.totals()
    app.request("Menu")
