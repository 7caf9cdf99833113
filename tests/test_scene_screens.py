"""The screen FSM: menu → setup → table → pause and back with Esc, rules, settings."""

from __future__ import annotations

import pytest
from scene_harness import get_app

from gin3d.engine import RuleSet
from gin3d.players import SimplePlayer


@pytest.fixture(scope="module")
def app():
    return get_app()


def press(app, key: str) -> None:
    app.messenger.send(key)
    app.taskMgr.step()


def test_menu_setup_and_back(app):
    app.screens.request("Menu")
    assert set(app.screens.panel.buttons) >= {"play", "lan", "online", "tutorial", "settings",
                                               "rules", "quit"}
    app.screens.panel.buttons["play"]["command"]()
    assert app.screens.state == "Setup"
    before = app.setup.preset
    app.screens.panel.buttons["preset"]["command"]()
    assert app.setup.preset != before
    assert app.screens.panel.buttons["preset"]["text"] == app.setup.preset
    press(app, "escape")
    assert app.screens.state == "Menu"
    app.screens.panel.buttons["lan"]["command"]()
    assert app.screens.state == "Coming"
    press(app, "escape")
    assert app.screens.state == "Menu"
    app.setup.preset = "classic"


def test_setup_deals_a_game_with_its_rules(app):
    app.screens.request("Setup")
    app.screens.panel.buttons["target"]["command"]()  # 100 -> 150
    assert app.setup.rules().game_target == 150
    app.screens.panel.buttons["start"]["command"]()
    assert app.screens.state == "Table"
    assert app.session.game.rules.game_target == 150
    assert app.session.hud.target.getText().startswith("Game to 150")
    app.setup.target = None
    app.request("Menu")


def test_escape_pauses_and_resumes_the_table(app):
    app.start_game([None, SimplePlayer()], RuleSet.preset("classic"), seed=4)
    session = app.session
    assert app.screens.state == "Table"
    press(app, "escape")
    assert app.screens.state == "Pause" and session.controller.paused
    assert not session.input.enabled
    press(app, "escape")
    assert app.screens.state == "Table" and not session.controller.paused
    press(app, "escape")
    app.screens.panel.buttons["rules"]["command"]()
    assert app.screens.state == "Rules"
    texts = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
    assert any("Knock with 10 or less deadwood" in t for t in texts)
    press(app, "escape")
    assert app.screens.state == "Pause"
    app.screens.panel.buttons["settings"]["command"]()
    assert app.screens.state == "Settings"
    speed = app.settings.speed
    app.screens.panel.buttons["speed"]["command"]()
    app.screens.panel.buttons["save"]["command"]()  # the screen edits a draft until Save
    assert app.settings.speed != speed and app.queue.speed == app.settings.speed
    assert app.screens.state == "Pause"
    app.set_speed(0.0)
    app.screens.panel.buttons["resign"]["command"]()
    assert app.screens.state == "Menu" and app.session is None


def test_sort_buttons_reorder_the_hand(app):
    app.start_game([None, SimplePlayer()], RuleSet.preset("classic"), seed=8)
    scene = app.scene
    app.session.hud.sort_buttons["rank"]["command"]()
    ranks = [c.rank for c in scene.hand_cards(0)]
    assert ranks == sorted(ranks)
    app.session.hud.sort_buttons["suit"]["command"]()
    suits = [c.suit for c in scene.hand_cards(0)]
    assert suits == sorted(suits)
    press(app, "1")
    assert scene.sort_mode == "melds"
    app.request("Menu")


def test_no_upcard_and_oklahoma_tables_play(app):
    from scene_harness import Driver, check_scene

    for rules in (RuleSet.preset("classic", no_upcard=True), RuleSet.preset("oklahoma")):
        app.start_game([None, SimplePlayer()], rules, seed=12)
        session = app.session
        session.controller.on_applied.append(lambda a, e: check_scene(app))
        check_scene(app)
        Driver(app).play_hand()
        assert app.screens.state in ("HandResult", "GameOver")
        limit = session.game.hand.knock_limit
        assert f"knock at {limit}" in session.hud.target.getText() or limit == 0
    app.request("Menu")
