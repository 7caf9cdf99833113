"""The tournament as a player meets it: Tournament on the main menu, the ladder, the first
rung's game at the table (which says it is the tournament's), left by a crash and resumed on
the next start, still the tournament's; the first rung's game won from a save one gin away
from 100, the game-over sheet saying what it meant for the ladder, the ladder a rung higher
after a restart. The whole climb of a first rung, a game to 100 played with the mouse
(1.5-6 minutes), runs with the long soak (GIN3D_SOAK=1). Played at three times the normal
animation speed (the game's own ``--speed`` option). Screenshots go to ``out/player/`` (or
``$GIN3D_SHOTS``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from player_harness import my_move, on, play_game, play_move, play_until

pytestmark = pytest.mark.slow

ARGS = ("--seed", "7", "--speed", "3")
SOAK = os.environ.get("GIN3D_SOAK", "") not in ("", "0")


def one_gin_from_the_first_rung(home: Path) -> None:
    """A home whose ladder has the first rung's game in progress, saved where the player
    (93 up against Rosie's 0, the dealer of the second hand) is to draw the card that gives
    them gin, and the game: the saves the game itself writes after every move."""
    from ship_hands import GIN, GIN_HAND, LOOSE_HAND, deck

    from gin3d import tournament
    from gin3d.engine import Discard, DrawStock, Game, NextHand, Pass, card
    from gin3d.saves import Seat, write_save

    second = deck(LOOSE_HAND, GIN_HAND, "QD", "2H 4S")  # Rosie draws the 2H, you the 4S
    game = Game.from_log(
        tournament.tournament_rules(),
        "rung-1-fixture",
        1,
        decks=[GIN[0], second],
        actions=[*GIN[1], NextHand(), Pass(), Pass(), DrawStock(), Discard(card("2H"))],
    )
    assert game.hand.dealer == 0 and game.turn == 0 and game.score.running() == [93, 0]
    data = home / ".local" / "share" / "gin3d"
    seats = (Seat("human", "Player"), Seat("computer", "Rosie", "beginner"))
    write_save(game, seats, data / "savegame.json", "rung-1-fixture")
    tries = [1] + [0] * (len(tournament.RUNGS) - 1)
    tournament.Ladder(tries=tries, playing="rung-1-fixture").save(data / tournament.FILE)


def open_ladder(p) -> dict:
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Tournament")
    return p.wait(on("Tournament"), 20, "the tournament's ladder")


def test_the_first_rung_won_by_a_gin_and_the_ladder_a_rung_higher(player, tmp_path):
    """Resumed one gin from 100 against Rosie: the stock clicked, Gin! pressed, the game
    is won and its sheet says "Rung 1 won - next: Walt"; Ladder shows the rung won, and so
    does the ladder after a restart."""
    home = tmp_path / "home"
    one_gin_from_the_first_rung(home)
    p = player(home=home, args=ARGS)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("Tournament - rung 1 of 4: Game against Rosie")(snap), snap["texts"]
    p.click_button("Resume")
    p.wait(p.shows("Tournament - rung 1 of 4"), 30, "the tournament's table")
    snap = play_until(p, on("GameOver"), 120, "the game won by the gin")
    assert p.shows("Rung 1 won - next: Walt")(snap), snap["texts"]
    p.screenshot("tournament-3-game-over")
    p.click_button("Ladder")
    snap = p.wait(on("Tournament"), 20, "the ladder after the win")
    p.screenshot("tournament-4-ladder-after-a-win")

    def won(s: dict) -> bool:  # "Won 186-0 (1 try)": the game's score, yours first
        return any(t.startswith("Won ") and t.endswith(" (1 try)") for t in s["texts"])

    assert won(snap) and p.has_button("Play Walt")(snap), snap["texts"]
    p.stop()
    p = player(home=home, args=ARGS)
    snap = open_ladder(p)
    assert won(snap) and p.has_button("Play Walt")(snap), snap["texts"]
    p.screenshot("tournament-5-ladder-after-a-restart")
    assert p.problems() == []


def test_a_tournament_game_left_by_a_crash_comes_back_as_the_tournaments(player):
    """Tournament, Play Rosie: the table says it is the tournament's; one move, then the
    game is killed. The next start's Welcome back names the rung, Resume brings the
    tournament's table back, and the ladder offers to resume the game."""
    p = player(args=ARGS)
    snap = open_ladder(p)
    p.screenshot("tournament-1-ladder")
    for name in ("Rosie (beginner)", "Walt (steady)", "Margo (sharp)", "Professor Vance (expert)"):
        assert p.shows(name)(snap), snap["texts"]
    assert p.shows("Next opponent")(snap) and p.has_button("Play Rosie")(snap)
    p.click_button("Play Rosie")
    p.wait(p.shows("Tournament - rung 1 of 4"), 30, "the first rung's table")
    p.screenshot("tournament-2-table")
    snap = play_until(p, my_move, 60, "a move to make")
    play_move(p, snap)
    p.stop()
    p = player(home=p.home, args=ARGS)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("Tournament - rung 1 of 4: Game against Rosie")(snap), snap["texts"]
    p.screenshot("tournament-6a-welcome-back")
    p.click_button("Resume")
    p.wait(p.shows("Tournament - rung 1 of 4"), 30, "the resumed tournament game")
    p.screenshot("tournament-6b-resumed-after-a-crash")
    p.key("Escape")
    p.click_button("Quit to menu")
    snap = open_ladder(p)
    assert p.shows("Your game against Rosie is in progress.")(snap), snap["texts"]
    assert p.has_button("Resume game")(snap)
    assert p.problems() == []


@pytest.mark.skipif(not SOAK, reason="a game to 100 with the mouse: GIN3D_SOAK=1")
def test_climb_the_first_rung_and_find_the_ladder_after_a_restart(player):
    p = player(args=ARGS)
    snap = open_ladder(p)
    p.screenshot("tournament-1-ladder")
    for name in ("Rosie (beginner)", "Walt (steady)", "Margo (sharp)", "Professor Vance (expert)"):
        assert p.shows(name)(snap), snap["texts"]
    assert p.shows("Next opponent")(snap) and p.has_button("Play Rosie")(snap)
    for attempt in range(1, 4):  # Rosie can win a game: then it is tried again
        p.click_button("Play Rosie")
        snap = p.wait(on("Table"), 30, "the tournament's table")
        title = "Tournament - rung 1 of 4" + (f", try {attempt}" if attempt > 1 else "")
        snap = p.wait(p.shows(title), 20, "the table's tournament title")
        if attempt == 1:
            p.screenshot("tournament-2-table")
        snap = play_game(p, 900)
        p.screenshot(f"tournament-3-game-over-{attempt}")
        if p.shows("Rung 1 won - next: Walt")(snap):
            break
        assert p.shows(f"Rung 1 lost to Rosie - try again (that was try {attempt})")(snap), snap[
            "texts"
        ]
        p.click_button("Ladder")
        snap = p.wait(on("Tournament"), 20, "the ladder after a loss")
        assert p.shows(f"Next opponent, {attempt} {'try' if attempt == 1 else 'tries'} so far")(
            snap
        ), snap["texts"]
    else:
        pytest.fail("Rosie won three games in a row")
    p.click_button("Ladder")
    snap = p.wait(on("Tournament"), 20, "the ladder after the win")
    p.screenshot("tournament-4-ladder-after-a-win")
    tries = "(1 try)" if attempt == 1 else f"({attempt} tries)"

    def won(s: dict) -> bool:  # "Won 262-48 (1 try)": the game's score, yours first
        return any(t.startswith("Won ") and t.endswith(f" {tries}") for t in s["texts"])

    assert won(snap) and p.has_button("Play Walt")(snap), snap["texts"]
    p.stop()

    # a restart: the ladder is as it was
    p = player(home=p.home, args=ARGS)
    snap = open_ladder(p)
    assert won(snap) and p.has_button("Play Walt")(snap), snap["texts"]
    p.screenshot("tournament-5-ladder-after-a-restart")
    # the second rung's game, left by a crash after a move, comes back as the tournament's
    p.click_button("Play Walt")
    snap = p.wait(p.shows("Tournament - rung 2 of 4"), 30, "the second rung's table")
    snap = play_until(p, my_move, 60, "a move to make")
    play_move(p, snap)
    p.stop()
    p = player(home=p.home, args=ARGS)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("Tournament - rung 2 of 4: Game against Walt")(snap), snap["texts"]
    p.screenshot("tournament-6a-welcome-back")
    p.click_button("Resume")
    snap = p.wait(p.shows("Tournament - rung 2 of 4"), 30, "the resumed tournament game")
    p.screenshot("tournament-6b-resumed-after-a-crash")
    p.key("Escape")
    p.click_button("Quit to menu")
    snap = open_ladder(p)
    assert p.shows("Your game against Walt is in progress.")(snap), snap["texts"]
    assert p.has_button("Resume game")(snap)
    assert p.problems() == []
