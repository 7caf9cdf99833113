"""The computer players make the same moves as before their shared parts (the greedy player,
the layoff planner) were merged: a digest of every decision, and of the practice hint's words,
over seeded games in every rules variant. The digests were taken from the code before the
merge; a change of any move or any hint text changes them."""

from __future__ import annotations

import hashlib

import pytest
from ai_positions import VARIANTS, drive

from gin3d.ai import make_player
from gin3d.players import GreedyPlayer
from gin3d.tutorial import greedy_player, hint


class Calls:
    def __init__(self, choose) -> None:
        self.choose = choose


def digest(new_player, words=None, decisions: int = 120) -> str:
    h = hashlib.sha256()
    for rules in VARIANTS.values():
        for seed in (1, 2):

            def record(view, action):
                h.update(f"{action}|".encode())
                if words is not None:
                    h.update(words(view).encode())

            drive(new_player(), rules, seed, decisions, on_decision=record)
    return h.hexdigest()[:16]


def hint_words(view) -> str:
    h = hint(view)
    return f"{h.action}:{h.reason}"


@pytest.mark.parametrize(
    "level, expected",
    [
        ("simple", "7944fd925d1ee377"),
        ("beginner", "470664970bbcf33f"),
        ("hard", "3a1162f6d494ec0a"),
    ],
)
def test_the_levels_that_lay_off_by_the_plan_play_as_before(level, expected):
    assert digest(lambda: make_player(level, seed=7)) == expected


def test_the_greedy_player_plays_as_before():
    assert digest(GreedyPlayer) == "b66ffbc1665af212"


def test_the_practice_opponent_and_its_hints_play_and_read_as_before():
    assert digest(lambda: Calls(greedy_player)) == "1b2f2d85674f0165"
    assert digest(lambda: Calls(greedy_player), words=hint_words) == "9fa6fb0fe7ec4b57"
