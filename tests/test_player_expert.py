"""The player's-eye game against Professor Vance (the expert): hands played out at the table
and told on the result panel, whichever way they end. Several hands at normal speed, so it
runs with the long soak (GIN3D_SOAK=1), not in every run of the suite."""

from __future__ import annotations

import os

import pytest
from player_harness import choose_level, on, play_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        os.environ.get("GIN3D_SOAK", "") in ("", "0"), reason="a long game: GIN3D_SOAK=1"
    ),
]

HANDS = 4  # hands played (fewer when the game ends first)
ENDS = ("knocked with", "went gin", "went Big Gin", "The stock ran down")


def test_hands_against_professor_vance_end_on_the_result_panel_with_their_story(player):
    """Against a player who plays for gin (the harness's play, never knocking short of it),
    the expert decides each turn whether to knock or play on (its fitted knock rule); every
    hand ends on the result panel with its story ("Professor Vance knocked with N; you had
    M ...", a gin, or a drawn hand), and Next hand deals the next. Which way the hands end
    varies from run to run (the computer's moves are timed), so the story is checked, not
    the ending."""
    p = player(args=("--seed", "42"))
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    choose_level(p, "expert")
    p.click_button("Deal")
    p.wait(on("Table"), 20, "the table")
    for hand in range(1, HANDS + 1):
        snap = play_until(
            p,
            lambda s: s.get("screen") in ("HandResult", "GameOver"),
            400,
            f"hand {hand}'s end",
            knock=False,
        )
        text = p.texts()
        p.screenshot(f"vance-hand-{hand}")
        assert any(end in text for end in ENDS), text
        if snap["screen"] == "GameOver":
            assert "Professor Vance" in text and "Margin" in text, text
            break
        p.click_button("Next hand")
        p.wait(
            lambda s, n=hand: s.get("screen") == "Table" and s.get("hands") == n + 1,
            30,
            "the next hand dealt",
        )
    assert p.problems() == []
