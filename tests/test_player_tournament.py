"""The tournament as a player meets it: Tournament on the main menu, the ladder, the first
rung's game at the table (which says it is the tournament's), played to its end with the
mouse, the game-over sheet saying what it meant for the ladder, the ladder a rung higher,
still so after a restart; then the next rung's game left by a crash and resumed on the next
start, still the tournament's. Played at three times the normal animation speed (the
game's own ``--speed`` option), so that a whole game to 100 takes minutes, not many.
Screenshots go to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import pytest
from player_harness import my_move, on, play_game, play_move, play_until

pytestmark = pytest.mark.slow

ARGS = ("--seed", "7", "--speed", "3")


def open_ladder(p) -> dict:
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Tournament")
    return p.wait(on("Tournament"), 20, "the tournament's ladder")


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
