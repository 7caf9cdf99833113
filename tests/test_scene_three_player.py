"""A three-player game on the table, offscreen: set up from the New game screen, every hand
shown as the engine has it (yours and the ones you sit out), the HUD naming all three with
the sit-out line, the hand results with three scores, and game over naming the winner."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from scene_harness import (
    Driver,
    app_keeping_setup,
    check_scene,
    panel_texts,
)

from gin3d.app.game_app import GameSetup
from gin3d.engine import Game, RuleSet
from gin3d.paths import save_path
from gin3d.saves import GameRecord, Seat, delete_save, offer_resume, read_save
from gin3d.scene.control.three_controller import ThreePlayerController
from gin3d.scene.ui.portraits import SITS_OUT

app = pytest.fixture(app_keeping_setup, name="app")


def watch_sit_outs(app, seen: list) -> None:
    """Note what the HUD shows after each change while you sit a hand out."""
    session = app.session
    ctl, hud = session.controller, session.hud

    def note() -> None:
        if ctl.game.watching and not ctl.game.hand.over:
            bench = hud.portraits.bench
            seen.append(
                (
                    hud.prompt.getText(),
                    hud.scores.getText(),
                    bench.name.getText(),
                    bench.score.getText(),
                    not bench.body.node().isOverallHidden(),  # (the HUD may be behind a result)
                    ctl.game.sitting_out,
                    ctl.log[-1] if ctl.log else "",
                )
            )

    ctl.on_change.append(note)


def play_game(app, hands: int) -> list[dict]:
    """Play up to ``hands`` hands (yours through the input, the rest by the computers),
    checking the table against the engine after every move; a record per finished hand."""
    session = app.session
    ctl = session.controller
    ctl.on_applied.append(lambda a, e: check_scene(app))
    check_scene(app)
    played = []
    for _ in range(hands):
        table = ctl.game
        if not table.watching:
            Driver(app).play_hand()
        for _ in range(5):  # a hand you sit out ends inside Next hand: its result comes next
            if app.screens.state != "Table":
                break
            app.taskMgr.step()
        assert table.hand.over
        check_scene(app)
        played.append(
            {
                "watching": table.watching,
                "state": app.screens.state,
                "text": panel_texts(app),
                "run": table.game.running(),
            }
        )
        if app.screens.state == "GameOver":
            break
        assert app.screens.state == "HandResult"
        app.screens.panel.buttons["next"]["command"]()  # a sit-out hand plays out at once
    return played


def start_three(app, target: int, seed: int = 5):
    """A three-player game from the setup screen, with no saved game to ask about (an
    earlier test in the same process may have left one)."""
    delete_save()
    app.setup = GameSetup(level="simple", target=target)
    app.seed = seed
    app.screens.request("Menu")
    app.screens.request("Setup")
    app.screens.panel.buttons["players"]["command"]()  # 2 -> 3
    assert app.setup.players == 3
    assert app.screens.panel.buttons["second"]["text"] != "-"
    app.screens.panel.buttons["start"]["command"]()
    assert app.screens.state == "Table"
    return app.session


def test_a_three_player_game_shows_your_hands_and_the_ones_you_sit_out(app):
    session = start_three(app, 100)
    names = session.controller.player_names
    assert names[0] == "You" and len(set(names)) == 3
    engine = session.game.game
    seen: list = []
    watch_sit_outs(app, seen)
    played = play_game(app, 6)
    assert any(h["watching"] for h in played) and not all(h["watching"] for h in played)
    assert seen, "no move was shown while you sat out"
    for prompt, scores, bench_name, bench_score, shown, out, _ in seen:
        assert out == 0
        assert prompt.startswith("You sit out this hand")
        assert f"{names[1]} plays {names[2]}" in prompt or f"{names[2]} plays {names[1]}" in prompt
        assert all(n in scores for n in names) and SITS_OUT in scores
        assert shown and bench_name == "You" and SITS_OUT in bench_score, seen[0]
    # both players' moves are told while you watch, the bottom one's too
    lines = [line for *_, line in seen]
    for name in names[1:]:
        assert any(line.startswith(f"{name} discarded the ") for line in lines), (name, lines)
    # every hand result names the winner and shows the three scores of the engine
    results = [h for h in played if h["state"] == "HandResult"]
    assert results
    for h in results:
        assert "won the hand" in h["text"] or "Drawn hand" in h["text"]
        assert all(f"{n} {p}" in h["text"] for n, p in zip(names, h["run"])), h
    # while you play, the HUD names the one who sits out
    if not session.game.watching:
        out = names[engine.sitting_out]
        assert f"{out}: " in session.hud.scores.getText()


def test_a_three_player_game_reaches_its_target_and_game_over(app):
    session = start_three(app, 50)
    played = play_game(app, 40)
    game = session.game.game
    assert game.over and played[-1]["state"] == "GameOver"
    assert max(game.running()) >= 50
    winner = session.controller.player_names[game.winner]
    assert app.screens.panel.title.getText() == f"{winner} won the game!"
    text = played[-1]["text"]
    assert all(str(t) in text for t in game.totals())
    assert len(played) == len(game.hands)


def test_the_two_computers_always_have_different_levels(app):
    setup = GameSetup(level="simple", players=3, second_level="simple")
    levels = setup.computers()
    assert levels[0] == "simple" and levels[1] not in ("simple", None)
    app.setup = setup
    app.screens.request("Setup")
    seen = set()
    for _ in range(6):
        app.screens.panel.buttons["second"]["command"]()
        seen.add(setup.computers()[1])
    assert "simple" not in seen and len(seen) == 3  # every other level, never the first's
    assert GameSetup(players=2).computers() == [GameSetup().level]


def into_a_hand_you_play(app) -> None:
    """Play on (a hand you sit out, or your hand through the input) until you are to move
    in a hand you play, two of your moves in."""
    for _ in range(6):
        table = app.session.controller.game
        if not table.watching and not table.hand.over:
            break
        play_game(app, 1)
    assert app.session.controller.waiting_for_human()
    for _ in range(2):
        Driver(app).play_turn()
    assert app.session.controller.waiting_for_human()


def table_state(app) -> tuple:
    table = app.session.game
    return (
        [str(a) for a in table.actions],
        table.game.running(),
        table.playing,
        [list(h) for h in table.hand.hands],
        list(table.hand.pile),
        app.session.controller.names,
    )


def test_a_three_player_game_is_saved_and_resumes_mid_hand_from_the_menu(app):
    delete_save()
    try:
        start_three(app, 50)
        into_a_hand_you_play(app)
        before = table_state(app)
        seats = [(s.kind, s.level) for s in read_save().seats]
        assert seats == [("human", None), ("computer", "simple"), ("computer", "hard")]
        # a fresh start: another setup, no session; the menu offers the saved game
        app.end_game()
        app.setup = GameSetup(level="expert")
        app.screens.request("Menu")
        resume, message = offer_resume()
        assert message is None and app.session is None
        line = resume.describe()  # the Welcome back prompt's line
        run = before[1]
        assert line.startswith("Three players with Walt and Margo, hand "), line
        assert line.endswith(f"score you {run[0]}, Walt {run[1]}, Margo {run[2]}"), line
        app.screens.panel.buttons["resume"]["command"]()
        assert app.screens.state == "Table"
        assert table_state(app) == before  # the same game, mid-hand, the same table
        check_scene(app)
        assert app.session.controller.waiting_for_human()
        assert app.setup.players == 3  # "Play again" plays three again
        played = play_game(app, 40)
        assert played[-1]["state"] == "GameOver" and app.session.game.over
        assert not save_path().exists()  # a finished game leaves nothing to resume
    finally:
        delete_save()


def test_a_two_player_save_of_an_earlier_version_still_resumes(app):
    """A version-1 file as gin3d wrote it before three-player saves (no version text)."""
    game = Game(RuleSet(), seed=12)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    old = GameRecord.of(game, (Seat("human", "Ada"), Seat("computer", "Walt", "simple")))
    data = old.to_dict()
    del data["gin3d_version"]
    save_path().parent.mkdir(parents=True, exist_ok=True)
    save_path().write_text(json.dumps(data))
    try:
        app.screens.request("Menu")
        app.screens.panel.buttons["resume"]["command"]()
        assert app.screens.state == "Table"
        actions = [str(a) for a in app.session.game.actions]  # (the computer may move on)
        assert actions[:5] == data["actions"]
        assert not isinstance(app.session.controller, ThreePlayerController)
        check_scene(app)
        assert app.keeper.level == "simple" and json.loads(save_path().read_text())["version"] == 1
        # dealing a three-player game would replace it: asked first
        app.screens.request("Menu")
        app.screens.request("Setup")
        app.screens.panel.buttons["players"]["command"]()
        app.screens.panel.buttons["start"]["command"]()
        assert app.screens.state == "Confirm" and "Replace" in app.screens.panel.title.getText()
    finally:
        delete_save()


def test_a_damaged_three_player_save_is_set_aside_with_a_message(app):
    delete_save()
    try:
        start_three(app, 100)
        into_a_hand_you_play(app)
        app.end_game()
        data = json.loads(save_path().read_text())
        data["actions"][1] = "discard 2C"  # no longer a move of this deal
        save_path().write_text(json.dumps(data))
        app.screens.request("Menu")
        app.screens.panel.buttons["resume"]["command"]()
        assert app.screens.state == "Menu" and app.session is None
        shown = " ".join(panel_texts(app).split())  # the menu's notice, word-wrapped
        assert "could not be restored" in shown and "action 2" in shown, shown
        assert not save_path().exists()
        kept = save_path().with_name(save_path().name + ".bad")
        assert json.loads(kept.read_text()) == data  # set aside whole, never deleted
        kept.unlink()
    finally:
        delete_save()


def test_undo_is_not_offered_in_a_three_player_game(app):
    settings = app.user_settings
    app.user_settings = replace(settings, undo_enabled=True)
    try:
        start_three(app, 100)
        into_a_hand_you_play(app)
        app.screens.request("Pause")
        assert "undo" not in app.screens.panel.buttons
        assert app.undo() is False
    finally:
        app.user_settings = settings
        delete_save()


def test_the_hand_you_sit_out_can_be_skipped_to_its_result(app):
    """At normal speed, the hand you sit out (the computers play it, about 90 s) offers Skip
    hand (End): the computers' moves are all made at once, the result shows, and the next
    hand is at the player's speed again. A hand you play offers no skip."""
    speed = app.speed
    app.set_speed(1.0)
    try:
        for seed in range(20):  # a deal where you sit out the first hand
            session = start_three(app, 100, seed)
            if session.controller.game.watching:
                break
        ctl = session.controller
        assert ctl.game.watching and app.queue.speed == 1.0
        for _ in range(3):
            app.taskMgr.step()
        assert not ctl.game.hand.over, "the hand played out at once by itself"
        assert ctl.can_skip() and "skip" in session.input.buttons
        assert not session.hud.buttons["skip"].isHidden()
        moves = len(ctl.game.hand.actions)
        session.hud.buttons["skip"]["command"]()
        for _ in range(5):
            app.taskMgr.step()
        assert ctl.game.hand.over and len(ctl.game.hand.actions) > moves
        assert app.screens.state == "HandResult"
        assert app.queue.speed == 1.0  # the next hand at speed again
        app.screens.panel.buttons["next"]["command"]()
        app.taskMgr.step()
        assert not ctl.game.watching and not ctl.can_skip() and not ctl.skip()
        assert "skip" not in session.input.buttons
    finally:
        app.set_speed(speed)
