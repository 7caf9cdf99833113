"""A partnership game on the table, offscreen: set up from the New game screen (Players 4),
your hand on the table checked against the engine after every move, your partner's hand
told in the HUD as it goes and when it ends, the team scores, the round's result by the
difference rule, and game over naming the winning team with the engine's totals."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from scene_harness import (
    Driver,
    app_keeping_setup,
    check_scene,
    panel_texts,
)

from gin3d.app.game_app import GameSetup
from gin3d.engine.groups import round_score, team_of
from gin3d.saves import delete_save, offer_resume

app = pytest.fixture(app_keeping_setup, name="app")


def start_teams(app, seed: int = 3):
    """A partnership game from the setup screen, with no saved game to ask about (an
    earlier test in the same process may have left one: a team game is saved too)."""
    delete_save()
    app.setup = GameSetup(level="simple")
    app.seed = seed
    app.screens.request("Menu")
    app.screens.request("Setup")
    for _ in range(2):  # 2 -> 3 -> 4
        app.screens.panel.buttons["players"]["command"]()
    assert app.setup.players == 4
    app.screens.panel.buttons["start"]["command"]()
    assert app.screens.state == "Table"
    return app.session


def play_rounds(app, rounds: int, seen: list | None = None) -> list[dict]:
    """Play up to ``rounds`` rounds (your hand through the input, the rest by the
    computers), checking your table against the engine after every move."""
    session = app.session
    ctl = session.controller
    ctl.on_applied.append(lambda a, e: check_scene(app))
    if seen is not None:
        ctl.on_change.append(lambda: seen.append((session.hud.scores.getText(), ctl.game.turn)))
    played = []
    for _ in range(rounds):
        game = ctl.game.game
        Driver(app).play_hand()
        for _ in range(5):  # your partner's hand finishes after yours: then the result
            if app.screens.state != "Table":
                break
            app.taskMgr.step()
        assert game.round_over
        check_scene(app)
        title = app.screens.panel.title.getText()
        played.append({"state": app.screens.state, "text": panel_texts(app), "title": title})
        played[-1]["tables"] = list(game.tables)
        played[-1]["seats"] = game.seats
        played[-1]["result"] = game.results[-1]
        played[-1]["run"] = game.running()
        if app.screens.state == "GameOver":
            break
        assert app.screens.state == "HandResult"
        app.screens.panel.buttons["next"]["command"]()
    return played


def hand_points(seats, tables) -> list[tuple[int | None, int]]:
    """Each table's (winning team, points), read from the hands."""
    out = []
    for players, hand in zip(seats, tables):
        won = hand.winner is not None and hand.result is not None
        out.append((team_of(players[hand.winner]), hand.result.points) if won else (None, 0))
    return out


def test_a_partnership_round_shows_your_hand_your_partners_and_the_team_scores(app):
    session = start_teams(app)
    ctl = session.controller
    names = ctl.player_names
    assert names[0] == "You" and len(set(names)) == 4
    seen: list = []
    played = play_rounds(app, 2, seen)
    mate = names[2]
    # while the round goes on, the HUD tells your partner's table: stock and whose turn
    going = [text for text, _ in seen if "cards in stock" in text]
    assert going, seen[:3]
    assert all(f"Partner {mate} vs " in text for text in going)
    turns = {text.split(", ")[-1].split("\n")[0] for text in going}
    assert any(t.endswith("to play") and t.split(" to play")[0] in names[1:] for t in turns)
    assert len(turns) > 1, turns  # the turn passes at your partner's table too
    teams = ctl.team_names
    assert teams == (f"You & {mate}", f"{names[1]} & {names[3]}")
    for h in played:
        # both hands, the round by the difference rule, the team totals of the engine
        text = h["text"]
        assert round_score(hand_points(h["seats"], h["tables"])) == h["result"]
        for players in h["seats"]:
            assert f"{names[players[0]]} vs {names[players[1]]}" in text
        assert all(f"{n} {p}" in text for n, p in zip(teams, h["run"])), text
        team, points = h["result"]
        nothing = "The round scores nothing"
        assert h["title"] == (nothing if team is None else f"{teams[team]} score {points}")
    # the HUD shows the team scores and your partner's finished hand
    hud = session.hud.scores.getText()
    run = played[-1]["run"]
    assert f"{teams[0]}: {run[0]}" in hud and f"{teams[1]}: {run[1]}" in hud, hud
    assert f"Partner {mate} vs " in hud


def test_a_partnership_game_reaches_game_over_with_the_engines_team_totals(app):
    session = start_teams(app, seed=11)
    played = play_rounds(app, 60)
    game = session.game.game
    assert game.over and played[-1]["state"] == "GameOver"
    assert max(game.running()) >= game.rules.partnership_target == 125
    teams = session.controller.team_names
    assert app.screens.panel.title.getText() == f"{teams[game.winner]} win the game!"
    text = played[-1]["text"]
    assert all(str(t) in text for t in game.totals())
    assert len(played) == len(game.results)


def team_state(game) -> tuple:
    """Both tables as they stand: the log, scores, who plays whom, every hand and pile."""
    return (
        game.log(),
        game.running(),
        game.seats,
        [[list(h) for h in hand.hands] for hand in game.tables],
        [list(hand.pile) for hand in game.tables],
    )


def test_a_partnership_game_is_saved_at_both_tables_and_resumes_mid_round(app):
    """Saved after every move at either table (your partner's included), offered on the
    menu with both teams' scores, resumed to the same two tables, played to game over;
    then your hands and the game are in the statistics under "Partnerships"."""
    from gin3d import stats as stats_mod
    from gin3d.history import read_hands
    from gin3d.paths import history_path, save_path, stats_path
    from gin3d.recorder import PARTNERSHIPS
    from gin3d.saves import offer_resume, read_save

    delete_save()
    try:
        session = start_teams(app, seed=8)
        game = session.game.game
        driver = Driver(app)
        for _ in range(3):
            driver.play_turn()
        for _ in range(400):  # until your partner's table has moved too
            if any(entry.startswith("1 ") for entry in game.log()):
                break
            app.taskMgr.step()
        record = read_save()
        assert record.actions == game.log()  # the last move, at either table, is in
        assert any(entry.startswith("1 ") for entry in record.actions)
        assert [s.kind for s in record.seats] == ["human", "computer", "computer", "computer"]
        assert json.loads(save_path().read_text())["version"] == 3
        before = team_state(game)
        names = session.controller.player_names
        # a fresh start: another setup, no session; the menu offers the saved game
        app.end_game()
        app.setup = GameSetup(level="expert")
        app.screens.request("Menu")
        resume, message = offer_resume()
        assert message is None and app.session is None
        assert resume.describe() == (
            f"Partners with {names[2]} against {names[1]} and {names[3]}, round 1, "
            "score your team 0, theirs 0"
        )
        assert team_state(resume.game) == before  # the same game, mid-round, both tables
        app.screens.panel.buttons["resume"]["command"]()
        assert app.screens.state == "Table"
        game = app.session.game.game
        log = before[0]
        assert game.log()[: len(log)] == log  # (the computers may move on at once)
        assert app.session.controller.player_names == names
        if not any(entry.startswith("0 ") for entry in game.log()[len(log) :]):
            assert [list(h) for h in game.tables[0].hands] == before[3][0]  # your table
        check_scene(app)
        assert app.setup.players == 4  # "Play again" plays four again
        stats_before, _ = stats_mod.load(stats_path())
        had = stats_before.levels.get(PARTNERSHIPS)
        played = play_rounds(app, 60)
        game = app.session.game.game
        assert played[-1]["state"] == "GameOver" and game.over
        assert not save_path().exists()  # a finished game leaves nothing to resume
        st, _ = stats_mod.load(stats_path())
        row = st.levels[PARTNERSHIPS]
        assert row.games_played == (had.games_played if had else 0) + 1
        assert row.hands_played - (had.hands_played if had else 0) == len(game.results)
        records = [r for r in read_hands(history_path())[0] if r.opponent_level == PARTNERSHIPS]
        assert len({r.hand_number for r in records[-len(game.results) :]}) == len(game.results)
    finally:
        delete_save()


def test_the_game_to_row_sets_the_teams_target_in_a_team_game(app):
    """In a team game "Game to" cycles the teams' target (it cycled the two-player one,
    which a team game does not use, while the row said 125)."""
    app.setup = GameSetup(level="simple", players=4)
    app.screens.request("Menu")
    app.screens.request("Setup")
    app.screens.panel.buttons["target"]["command"]()
    assert app.setup.rules().partnership_target == 150
    assert "150 (teams)" in panel_texts(app) + app.screens.panel.buttons["target"]["text"]
    app.screens.panel.buttons["start"]["command"]()
    assert app.session.game.game.rules.partnership_target == 150
    assert "Game to 150" in app.session.hud.target.getText()


def test_the_three_computers_have_three_levels(app):
    for level in ("beginner", "simple", "hard", "expert"):
        levels = GameSetup(level=level, players=4, second_level=level).computers()
        assert len(levels) == 3 and len(set(levels)) == 3 and levels[0] == level


def test_w_shows_your_partners_hand_on_the_table_while_yours_waits(app):
    session = start_teams(app, seed=5)
    ctl = session.controller
    partner = ctl.partner
    slow, partner.pace = partner.pace, lambda seconds: 1e6  # their computers think on
    Driver(app).play_hand()
    for _ in range(3):
        app.taskMgr.step()
    mate, rival = (ctl.player_names[p] for p in ctl.game.partner.playing)
    hand = ctl.game.partner.hand
    assert ctl.game.hand.over and not hand.over and app.screens.state == "Table"
    assert "W to watch your partner's" in session.hud.scores.getText()
    app.messenger.send("w")
    app.taskMgr.step()
    assert ctl.watching and ctl.names == (mate, rival)
    assert session.hud.message.getText() == f"Your partner's table: {mate} vs {rival}"
    assert session.hud.prompt.getText().startswith(f"Watching {mate} play {rival}")
    # the table shows your partner's hand as the engine has it, their cards face up
    shown = SimpleNamespace(
        scene=app.scene, session=SimpleNamespace(game=SimpleNamespace(hand=hand))
    )
    check_scene(shown)
    app.messenger.send("w")  # back to your finished hand, and to theirs again
    assert not ctl.watching and ctl.names[0] == "You"
    check_scene(app)
    app.messenger.send("w")
    assert ctl.watching
    check_scene(shown)
    partner.pace = slow
    partner.restart_pause()
    partner.on_applied.append(lambda a, e: ctl.watching and check_scene(shown))  # on the table
    moves = len(hand.actions)
    for _ in range(400):
        if app.screens.state != "Table":
            break
        app.taskMgr.step()
    assert (
        hand.over and len(hand.actions) > moves and app.screens.state in ("HandResult", "GameOver")
    )
    app.screens.panel.buttons["next"]["command"]()
    assert not ctl.watching and ctl.names[0] == "You"
    check_scene(app)  # the next deal is yours again


def test_the_stock_and_pile_stay_right_of_the_inset_after_a_resume(app):
    """Your hand over while your partner's plays on: the stock and the pile lie aside on the
    right (the inset takes the left), and a resume puts them there again (they came back on
    the left, under the inset: the hand's events were shown before the side was chosen)."""
    delete_save()
    try:
        session = start_teams(app, seed=8)
        Driver(app).play_hand()
        scene = app.scene
        assert session.game.game.tables[0].over
        live = (scene.anchor_stock.getX(), scene.anchor_pile.getX())
        assert min(live) > 0, live  # right of the middle
        resume, message = offer_resume()
        assert message is None
        app.end_game()
        app.screens.request("Menu")
        app.screens.panel.buttons["resume"]["command"]()
        again = (scene.anchor_stock.getX(), scene.anchor_pile.getX())
        assert again == pytest.approx(live), (live, again)
    finally:
        delete_save()
