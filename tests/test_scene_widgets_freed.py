"""Screens free their widgets when they close, at once, not at the next full garbage
collection: a removed panel kept alive by one of its texts kept every vertex buffer of it
prepared in the renderer, and the player's-eye soak saw the count climb hand after hand."""

from __future__ import annotations

import gc
import weakref

import pytest
from scene_harness import Driver, get_app

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer
from gin3d.scene.ui.panel import Panel


@pytest.fixture(scope="module")
def app():
    return get_app()


@pytest.fixture
def no_collector():
    """Only reference counting frees objects while a test runs, as between the rare full
    collections of a long game."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_a_closed_panel_keeps_no_node_alive(app, no_collector):
    panel = Panel(app, "Title")
    kept = panel.text("a line a closure keeps", 0.0)  # as a count-up's closure does
    panel.button("ok", "OK", lambda: None, (0, -0.3))
    gone = weakref.ref(panel)
    panel.destroy()
    assert kept.isEmpty(), "a kept text still holds the removed frame"
    del panel
    assert gone() is None, "the panel lives on in a reference cycle"


def test_the_hud_frees_its_band_lines(app, no_collector):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=5)
    hud = app.session.hud
    prompt, message = hud.prompt, hud.message
    app.request("Menu")
    assert prompt.isEmpty() and message.isEmpty(), "the HUD's band lines outlive it"


def _values(obj) -> list:
    """What a container or an object's attributes hold (Python 3.11 keeps most objects'
    attributes in no dict of their own until asked, so attributes are read here)."""
    if isinstance(obj, dict):
        return list(obj.values())
    if isinstance(obj, (list, tuple, set)):
        return list(obj)
    attrs = getattr(obj, "__dict__", None)
    return list(attrs.values()) if isinstance(attrs, dict) else []


def _removed_frames_held() -> dict:
    """The removed panels' frames (tops named DirectFrame-...) that a Python object still
    points into, by node (each kept alive here, so a later frame cannot take its address)."""
    from panda3d.core import NodePath

    return {
        value.getTop().node().this: value.getTop()
        for obj in gc.get_objects()
        for value in _values(obj)
        if isinstance(value, NodePath)
        and not value.isEmpty()
        and value.getTop().getName().startswith("DirectFrame")
    }


def test_result_screens_leave_no_removed_frame_behind(app, no_collector):
    """A hand's result, counted up at normal speed and closed: nothing under its removed
    frame is still held by a Python object (what earlier tests left is not counted)."""
    from panda3d.core import NodePath

    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    Driver(app).play_hand()
    before = _removed_frames_held()
    app.set_speed(1.0)
    try:
        screens = app.screens
        screens.exitHandResult()
        screens.enterHandResult()  # again, at normal speed: its points count up
        for _ in range(5):
            app.taskMgr.step()
        title = screens.panel.title
        screens.exitHandResult()
    finally:
        app.set_speed(0.0)
    assert NodePath(title).isEmpty()
    assert _removed_frames_held().keys() - before.keys() == set(), "a removed result is held"
    app.request("Menu")


def test_a_row_taken_off_a_panel_leaves_no_dead_widget_in_it(app):
    """A list's refresh replaces its rows: a row taken off is freed and gone from the
    panel's widgets and buttons (the public tables' refresh left destroyed rows there, and
    reading the panel's texts raised)."""
    panel = Panel(app, "Tables")
    row = panel.text("Bob - classic", 0.3)
    join = panel.button("join0", "Join", lambda: None, (0.9, 0.3))
    for widget in (row, join):
        panel.remove(widget)
    assert row.isEmpty() and join.isEmpty()
    assert row not in panel.widgets and join not in panel.widgets and "join0" not in panel.buttons
    assert [w.getText() for w in panel.widgets if hasattr(w, "getText")] == ["Tables"]
    panel.destroy()


def test_the_setup_screen_leaves_no_removed_frame_behind(app, no_collector):
    """The New game screen's opponent portrait is freed with it (the screens kept it, and
    with it the whole closed panel)."""
    app.request("Menu")
    before = _removed_frames_held()
    app.request("Setup")
    app.request("Menu")
    assert _removed_frames_held().keys() - before.keys() == set(), "the setup panel is held"
