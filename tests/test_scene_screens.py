"""The screen FSM: menu → setup → table → pause and back with Esc, rules, settings."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scene_harness import get_app

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer


@pytest.fixture(scope="module")
def app():
    return get_app()


def press(app, key: str) -> None:
    app.messenger.send(key)
    app.taskMgr.step()


def test_menu_setup_and_back(app):
    app.screens.request("Menu")
    assert set(app.screens.panel.buttons) >= {
        "play",
        "lan",
        "online",
        "tutorial",
        "settings",
        "rules",
        "quit",
    }
    app.screens.panel.buttons["play"]["command"]()
    assert app.screens.state == "Setup"
    before = app.setup.preset
    app.screens.panel.buttons["preset"]["command"]()
    assert app.setup.preset != before
    assert app.screens.panel.buttons["preset"]["text"] == app.setup.preset
    press(app, "escape")
    assert app.screens.state == "Menu"
    app.screens.panel.buttons["lan"]["command"]()
    assert app.screens.state == "Lan"
    press(app, "escape")
    assert app.screens.state == "Menu"
    app.screens.panel.buttons["online"]["command"]()
    assert app.screens.state == "Online"
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
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=4)
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
    speed = app.speed
    app.screens.panel.buttons["speed"]["command"]()
    app.screens.panel.buttons["save"]["command"]()  # the screen edits a draft until Save
    assert app.speed != speed and app.queue.speed == app.speed
    assert app.screens.state == "Pause"
    # the shared app's saved speed back as well: the next Settings save would apply it
    app.user_settings = replace(app.user_settings, animation_speed=0.0)
    app.set_speed(0.0)
    app.screens.panel.buttons["resign"]["command"]()
    assert app.screens.state == "Confirm" and app.session is not None  # asked first
    app.screens.panel.buttons["yes"]["command"]()
    assert app.screens.state == "Menu" and app.session is None


def test_sort_buttons_reorder_the_hand(app):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=8)
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
        app.start_game([None, GreedyPlayer()], rules, seed=12)
        session = app.session
        session.controller.on_applied.append(lambda a, e: check_scene(app))
        check_scene(app)
        Driver(app).play_hand()
        assert app.screens.state in ("HandResult", "GameOver")
        limit = session.game.hand.knock_limit
        assert f"knock at {limit}" in session.hud.target.getText() or limit == 0
    app.request("Menu")


def test_quitting_mid_animation_is_clean(app):
    app.set_speed(1.0)
    try:
        app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=3)
        for _ in range(5):
            app.taskMgr.step()
        assert app.queue.busy  # the deal is still playing
        app.request("Menu")
        assert app.screens.state == "Menu" and app.session is None
        app.queue.finish_all()  # what still moves is the cards gathering behind the menu
        assert len(app.scene.stock) == len(app.scene.cards) and not app.queue.busy
    finally:
        app.set_speed(0.0)


@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_single_player_against_each_ai_level_plays_a_hand(app, level):
    from scene_harness import Driver, check_scene

    from gin3d.players import levels

    if level not in dict(levels()):
        pytest.skip("the AI package is not present")
    app.setup.level = level
    app.start_single_player()
    assert app.session.controller.names[1] != "You"
    app.session.controller.on_applied.append(lambda a, e: check_scene(app))
    Driver(app).play_hand()
    assert app.screens.state in ("HandResult", "GameOver")
    app.request("Menu")


def test_pause_over_a_hand_result_comes_back_to_it(app):
    from scene_harness import Driver

    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    Driver(app).play_hand()
    assert app.screens.state == "HandResult"
    press(app, "escape")
    assert app.screens.state == "Pause"
    press(app, "escape")
    app.taskMgr.step()
    assert app.screens.state == "HandResult"
    app.screens.panel.buttons["next"]["command"]()
    assert app.screens.state == "Table"
    app.request("Menu")


def test_the_game_over_sheet_stands_on_a_cleared_table_and_tells_the_last_hand(app):
    """Game over gathers the last hand's cards into the deck (they peeked out at the sheet's
    sides, a deadwood label beside them) and the sheet tells that hand's story, with its
    arithmetic, instead of "Last hand: You - Knock: 45"."""
    from scene_harness import Driver, check_scene, panel_texts

    from gin3d.scene.ui.result_story import hand_story

    session = app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic", game_target=10), seed=245
    )
    driver = Driver(app)
    for _ in range(10):
        driver.play_hand()
        if app.screens.state == "GameOver":
            break
        app.screens.panel.buttons["next"]["command"]()
    assert app.screens.state == "GameOver"
    app.queue.finish_all()
    check_scene(app)  # under the sheet: every card in the face-down deck
    assert app.scene.zones()["stock"] == 52
    hand = session.game.hand
    texts = panel_texts(app)
    for line in hand_story(hand.result, hand.knocker, session.controller.names):
        assert line in texts, texts
    assert "Last hand:" not in texts
    app.request("Menu")
