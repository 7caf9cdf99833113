"""The tournament's screens offscreen: the ladder from the menu, a rung's game at the table
under the tournament rules with its title, the game over saying what it meant for the
ladder, back to the ladder, and the trophy on the ladder and on the final result."""

from __future__ import annotations

import pytest
from scene_harness import get_app, panel_texts

from gin3d import tournament
from gin3d.app.screens import tournament as tournament_screen
from gin3d.engine import Action, Game, NextHand
from gin3d.players import computer_player
from gin3d.saves import Seat, delete_save, write_save
from gin3d.scene.control.autoplay import InputDriver


@pytest.fixture()
def app():
    app = get_app()
    tournament.tournament_path().unlink(missing_ok=True)
    delete_save()
    app.request("Menu")
    yield app
    app.request("Menu")
    delete_save()
    tournament.tournament_path().unlink(missing_ok=True)


def finish_game(app, brain=None) -> None:
    """Play the local seat through the table's input to the game's end (Next hand on each
    hand's result)."""
    driver = InputDriver(app, brain)
    for _ in range(40):
        driver.play_hand()
        app.taskMgr.step()
        if app.screens.state == "GameOver":
            return
        assert app.screens.state == "HandResult", app.screens.state
        app.screens.panel.buttons["next"]["command"]()
        assert app.screens.state == "Table"
    raise AssertionError("the game did not end in 40 hands")


def images(app) -> list[str]:
    """The textures shown on the open panel's images."""
    return [
        n.getTexture().getName()
        for n in app.screens.panel.frame.findAllMatches("**/+GeomNode")
        if n.getTexture() is not None
    ]


def test_the_ladder_opens_from_the_menu_and_plays_its_first_rung(app):
    app.screens.panel.buttons["tournament"]["command"]()
    assert app.screens.state == "Tournament"
    texts = panel_texts(app)
    for name in ("Rosie (beginner)", "Walt (steady)", "Margo (sharp)", "Professor Vance (expert)"):
        assert name in texts
    assert texts.count("Not yet") == 3 and "Next opponent" in texts
    assert "The trophy waits" in texts and "trophy" not in images(app)
    assert app.screens.panel.buttons["play"]["text"] == "Play Rosie"
    app.screens.panel.buttons["play"]["command"]()
    assert app.screens.state == "Table"
    session = app.session
    assert session.game.rules.name == "tournament" and session.game.rules.game_target == 100
    assert session.controller.names[1] == "Rosie"
    assert session.hud.title.getText() == "Tournament - rung 1 of 4"
    assert tournament.load()[0].tries == [1, 0, 0, 0]
    finish_game(app)
    won = session.game.winner == 0
    ladder = tournament.load()[0]
    assert ladder.won == (1 if won else 0) and ladder.playing == ""
    texts = panel_texts(app)
    if won:
        assert "Rung 1 won - next: Walt" in texts
    else:
        assert "Rung 1 lost to Rosie - try again (that was try 1)" in texts
    assert app.screens.panel.buttons["again"]["text"] == "Ladder"
    app.screens.panel.buttons["again"]["command"]()
    assert app.screens.state == "Tournament"
    assert app.session is None  # the finished game left the table with its HUD
    texts = panel_texts(app)
    if won:  # the game's final score, yours first
        totals = session.game.totals()
        assert f"Won {totals[0]}-{totals[1]} (1 try)" in texts
    else:
        assert "Next opponent, 1 try so far" in texts
    assert app.screens.panel.buttons["play"]["text"] == ("Play Walt" if won else "Play Rosie")


def test_a_tournament_game_quit_and_resumed_still_counts(app):
    app.screens.panel.buttons["tournament"]["command"]()
    app.screens.panel.buttons["play"]["command"]()
    InputDriver(app).play_turn()
    app.request("Menu")  # Quit to menu: the game waits in the save
    app.screens.panel.buttons["tournament"]["command"]()
    assert "Your game against Rosie is in progress." in panel_texts(app)
    assert app.screens.panel.buttons["play"]["text"] == "Resume game"
    app.screens.panel.buttons["play"]["command"]()
    assert app.screens.state == "Table" and app.session.tournament
    assert app.session.hud.title.getText() == "Tournament - rung 1 of 4"
    finish_game(app)
    ladder = tournament.load()[0]
    assert len(ladder.rounds) == 1 and ladder.tries == [1, 0, 0, 0]


def test_a_tournament_game_cannot_be_undone_even_with_undo_on(app):
    before = app.user_settings
    app.user_settings = before.but(undo_enabled=True)
    try:
        app.start_single_player()
        InputDriver(app).play_turn()
        assert app.screens.panel is None and app.undo()  # an ordinary game: undo works
        app.request("Menu")
        app.screens.panel.buttons["tournament"]["command"]()
        app.screens.panel.buttons["play"]["command"]()  # replaces that game, once asked
        app.screens.panel.buttons["yes"]["command"]()
        assert app.session.tournament
        InputDriver(app).play_turn()
        moves = len(app.session.game.actions)
        app.request("Pause")
        assert "undo" not in app.screens.panel.buttons
        assert not app.undo() and len(app.session.game.actions) == moves
    finally:
        app.user_settings = before


def test_a_game_outside_the_tournament_is_not_counted_and_is_replaced_only_on_yes(app):
    app.start_single_player()
    assert app.session.tournament == "" and app.session.hud.title.getText() == ""
    app.request("Menu")
    app.screens.panel.buttons["tournament"]["command"]()
    assert app.screens.panel.buttons["play"]["text"] == "Play Rosie"
    app.screens.panel.buttons["play"]["command"]()
    assert app.screens.state == "Confirm"
    app.screens.panel.buttons["cancel"]["command"]()
    assert app.screens.state == "Tournament" and tournament.load()[0].tries == [0, 0, 0, 0]


def last_move_of_a_won_game(seed: int) -> tuple[Game, Action] | None:
    """A tournament game that the player (seat 0, played by the expert) wins against Rosie,
    taken back to just before the player's last move of it, and that move: None when the
    player lost that game."""
    game = Game(tournament.tournament_rules(), seed=seed)
    players = [computer_player("expert", seed=1), computer_player("beginner", seed=2)]
    movers = []
    while not game.over:
        if game.hand.over:
            movers.append(None)
            game.apply(NextHand())
            continue
        movers.append(game.turn)
        game.apply(players[game.turn].choose(game.view(game.turn)))
    if game.winner != 0:
        return None
    last = max(i for i, seat in enumerate(movers) if seat == 0)
    before = Game(tournament.tournament_rules(), seed=seed)
    for action in game.actions[:last]:
        before.apply(action)
    return before, game.actions[last]


def test_the_top_rung_wins_the_trophy_shown_on_the_result_and_the_ladder(app):
    """The top rung's game, resumed one move from its win (a save the game wrote could hold
    just that): the move wins the game, the result says so and shows the trophy, the
    ladder shows it too, and Climb again starts from the bottom with the trophy kept."""
    found = next(x for x in map(last_move_of_a_won_game, range(1, 40)) if x is not None)
    game, move = found
    seats = (Seat("human", "Player"), Seat("computer", "Professor Vance", "expert"))
    write_save(game, seats, game_id="top-rung")
    tournament.Ladder(won=3, tries=[1, 2, 1, 1], playing="top-rung").save()
    app.screens.panel.buttons["tournament"]["command"]()
    assert app.screens.panel.buttons["play"]["text"] == "Resume game"
    app.screens.panel.buttons["play"]["command"]()
    assert app.session.hud.title.getText() == "Tournament - rung 4 of 4"
    InputDriver(app).act(move)
    for _ in range(50):
        if app.screens.state == "GameOver":
            break
        app.taskMgr.step()
    assert app.screens.state == "GameOver" and app.session.game.winner == 0
    assert "Tournament won - the trophy is yours!" in panel_texts(app)
    assert "trophy" in images(app)
    app.screens.panel.buttons["again"]["command"]()
    assert app.screens.state == "Tournament"
    texts = panel_texts(app)
    assert "Trophy won" in texts and texts.count("Won ") == 4
    assert tournament_screen.day(tournament.load()[0].trophies[0]) in texts
    assert "trophy" in images(app)
    assert app.screens.panel.buttons["play"]["text"] == "Climb again"
    app.screens.panel.buttons["play"]["command"]()  # a second climb, from the bottom
    assert app.session.controller.names[1] == "Rosie"
    ladder = tournament.load()[0]
    assert (ladder.climb, ladder.won, len(ladder.trophies)) == (2, 0, 1)
