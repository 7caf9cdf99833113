"""The arena plays full games and prints the summary the issue asks for."""

import re

import pytest

from gin3d import arena


def test_arena_prints_the_headline_last(capsys):
    assert arena.main(["simple", "beginner", "--games", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"simple vs beginner: game win rate \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] over 4 games",
        out[-1],
    )
    body = "\n".join(out)
    for word in ("hands won", "points/hand", "gin", "undercut", "knock", "median", "p99"):
        assert word in body


def test_arena_is_reproducible_and_alternates_seats():
    a = arena.run_games(("simple", "beginner"), "classic", 5, range(4))
    b = arena.run_games(("simple", "beginner"), "classic", 5, range(4))
    assert a.games == 4 and a.sides[0].games_won + a.sides[1].games_won == 4
    assert (a.sides[0].games_won, a.hands, a.sides[0].points) == (
        b.sides[0].games_won,
        b.hands,
        b.sides[0].points,
    )


def test_wilson_interval():
    lo, hi = arena.wilson(60, 100)
    assert 0.50 < lo < 0.6 < hi < 0.70
    assert arena.wilson(0, 10)[0] == 0.0


def test_arena_refuses_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        arena.main(["simple", "grandmaster"])
    with pytest.raises(SystemExit):
        arena.main(["simple", "hard", "--games", "0"])
