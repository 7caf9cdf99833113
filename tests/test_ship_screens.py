"""The player's screens in the real app, offscreen: settings saved and applied, statistics,
the replay viewer on the table, resume and undo through the app."""

from __future__ import annotations

import pytest
from scene_harness import Driver, check_scene, get_app
from ship_autoplay import state

from gin3d import paths, settings
from gin3d import stats as stats_mod
from gin3d.engine import Game, RuleSet
from gin3d.history import HandRecord, append_hand, read_hands
from gin3d.saves import load_save, offer_resume


@pytest.fixture
def app():
    app = get_app()
    for f in (paths.save_path(), paths.stats_path(), paths.history_path(), paths.settings_path()):
        f.unlink(missing_ok=True)
    app.user_settings = settings.Settings(animation_speed=0.0)
    app.set_speed(0.0)
    app.screens.request("Menu")
    yield app
    app.screens.request("Menu")
    app.set_speed(0.0)


def test_settings_screen_saves_and_applies(app):
    app.screens.request("Settings", "Menu")
    buttons = app.screens.panel.buttons
    buttons["style"]["command"]()  # classic -> four_colour
    buttons["level"]["command"]()  # simple -> hard
    buttons["second"]["command"]()  # hard -> expert (a three-player game's other computer)
    buttons["undo"]["command"]()
    buttons["speed"]["command"]()  # instant -> slow
    buttons["felt"]["command"]()  # green -> blue
    buttons["card_back"]["command"]()  # blue -> red
    buttons["music"]["command"]()  # 50% -> 75%
    for _ in range(3):
        buttons["ambience"]["command"]()  # 50% -> 75% -> 100% -> off
    app.screens.current.name_entry.enterText("Grace")
    buttons["save"]["command"]()
    assert app.screens.state == "Menu"
    saved = settings.load().settings
    assert (saved.card_style, saved.opponent_level, saved.undo_enabled) == (
        "four_colour",
        "hard",
        True,
    )
    assert saved.player_name == "Grace" and saved.animation_speed == 0.6
    assert app.user_settings == saved and app.queue.speed == 0.6 and app.setup.level == "hard"
    assert saved.second_opponent_level == "expert" and app.setup.second_level == "expert"
    # the looks and the sound, on the table and in the game's audio at once
    assert (saved.felt, saved.card_back) == ("blue", "red")
    assert (app.scene.felt, app.scene.factory.back_name) == ("blue", "back_red")
    assert (saved.music_volume, saved.ambience_volume) == (0.75, 0.0)
    assert (app.atmosphere.music.volume, app.atmosphere.ambience.volume) == (0.75, 0.0)
    app.screens.services.apply_settings(settings.Settings(animation_speed=0.0))
    assert (app.scene.felt, app.scene.factory.back_name) == ("green", "back_blue")


def test_settings_screen_refuses_a_bad_name(app):
    app.screens.request("Settings", "Menu")
    app.screens.current.name_entry.enterText("x" * 30)
    assert not app.screens.current._save_settings()
    assert app.screens.state == "Settings"
    assert "player_name" in app.screens.current.settings_note.getText()
    assert not paths.settings_path().exists()


def test_statistics_screen_shows_the_numbers(app):
    game = Game(RuleSet(), "stats-screen")
    driver_game_to_end(game)
    st = stats_mod.Stats()
    for h in game.hands:
        st.record_hand("simple", h, 0, "g")
    st.record_game("simple", game, 0, "g")
    st.save()
    app.screens.request("Stats", "Menu")
    texts = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
    assert "Walt" in texts and str(len(game.hands)) in texts
    chart = app.screens.current.chart
    assert chart.getNumChildren() > 2  # bars drawn
    # one opponent's bar: the box fits it (it was sized for five, the bar at its top)
    assert -chart["frameSize"][2] <= 0.08 + 0.11, chart["frameSize"]


def test_statistics_screen_draws_no_empty_chart_before_a_game(app):
    stats_mod.Stats().save()
    app.screens.request("Stats", "Menu")
    assert app.screens.current.chart is None
    texts = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
    assert any(t.startswith("No games finished yet") for t in texts), texts


def driver_game_to_end(game):
    from ship_autoplay import next_action

    while not game.over:
        game.apply(next_action(game))


def test_replay_viewer_steps_on_the_table(app):
    from ship_hands import UNDERCUT, play_script

    hand = play_script(UNDERCUT, dealer=1)
    append_hand(HandRecord.of(hand, names=("Ann", "Walt")))
    app.screens.request("History")
    app.screens.panel.buttons["hand0"]["command"]()
    assert app.screens.state == "Replay"
    view = app.screens.current.replay_view
    scene = app.scene
    # at the deal both hands lie face up: every card of both hands shows its face
    assert sorted(n.card for n in scene.hands[1]) == sorted(view.replay.hand.hands[1])
    assert sorted(n.card for n in scene.hands[0]) == sorted(view.replay.hand.hands[0])
    view.forward()
    view.forward()
    view.forward()
    assert view.replay.step == 3
    assert [n.card for n in scene.pile] == view.replay.hand.pile
    view.end()
    assert view.replay.hand.result.kind == "undercut"
    assert [sorted(m) for m in scene.zones()["table_melds"]] == [
        sorted(m) for m in hand.table_melds
    ]
    view.back()
    assert view.replay.step == view.replay.length - 1
    app.screens.current._refresh_replay()
    assert "Walt knocks" in app.screens.panel.title.getText()
    app.screens.request("History")
    assert all(n.body.getScale()[0] == 1 for n in scene.cards)


def test_the_history_names_both_players_of_a_three_player_hand(app):
    """A three-player hand is kept with its two players by seat, you at either one: the
    list names both (it said "vs You" when you sat at seat 1)."""
    from ship_hands import UNDERCUT, play_script

    from gin3d.recorder import THREE_PLAYERS

    hand = play_script(UNDERCUT, dealer=1)
    append_hand(HandRecord.of(hand, ("Margo", "Ann"), "three-1", THREE_PLAYERS))
    app.screens.request("History")
    label = app.screens.panel.buttons["hand0"]["text"]
    assert "Margo vs Ann (three players)" in label, label
    app.screens.request("Menu")


def test_the_statistics_and_history_name_partnership_games(app):
    """Your hands of a partnership game have their own row, "Partnerships", and the history
    list says which kind of game a hand was from (it read as a two-player hand's "vs Walt")."""
    from ship_hands import UNDERCUT, play_script

    from gin3d.recorder import PARTNERSHIPS

    hand = play_script(UNDERCUT, dealer=1)
    append_hand(HandRecord.of(hand, ("Ann", "Walt"), "teams-1", PARTNERSHIPS))
    st, _ = stats_mod.load()
    assert st.record_hand(PARTNERSHIPS, hand, 0, "teams-1")
    st.save()
    app.screens.request("History")
    label = app.screens.panel.buttons["hand0"]["text"]
    assert "vs Walt (partnerships)" in label, label
    app.screens.request("Menu")
    app.screens.request("Stats")
    texts = [w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText")]
    assert "Partnerships" in texts and PARTNERSHIPS not in texts, texts
    app.screens.request("Menu")


def test_single_player_game_is_saved_resumed_and_undone(app):
    app.user_settings = app.user_settings.but(undo_enabled=True, player_name="Ann")
    session = app.start_single_player()
    driver = Driver(app)
    game = session.game
    for _ in range(2):
        driver.play_turn()
    assert len(game.actions) > 2 and not game.hand.over
    saved = load_save()
    assert state(saved.game) == state(game)
    assert saved.record.seats[0].name == "Ann"
    # quit to the menu: the game stays resumable and is offered
    app.screens.request("Menu")
    assert "resume" in app.screens.panel.buttons
    resume, message = offer_resume()
    assert message is None
    session = app.resume_game(resume)
    assert state(session.game) == state(game)
    check_scene(app)
    # undo: back to just before the human's last action
    before = len(session.game.actions)
    assert app.undo()
    undone = app.session.game
    assert len(undone.actions) < before and undone.hand.turn == 0
    assert state(load_save().game) == state(undone)
    check_scene(app)
    # with the setting off there is no undo
    app.user_settings = app.user_settings.but(undo_enabled=False)
    driver.play_turn()
    assert not app.undo()
    # resigning ends the game: nothing to resume
    app.screens.request("Pause")
    assert "undo" not in app.screens.panel.buttons
    app.screens.panel.buttons["resign"]["command"]()
    assert offer_resume()[0] is not None  # asked first: nothing is lost yet
    app.screens.panel.buttons["yes"]["command"]()
    assert offer_resume() == (None, None)


def test_finished_hands_reach_history_and_statistics(app):
    app.start_single_player()
    driver = Driver(app)
    driver.play_hand()
    records, _ = read_hands()
    assert len(records) == 1
    st, _ = stats_mod.load()
    assert sum(s.hands_played for s in st.levels.values()) == 1
