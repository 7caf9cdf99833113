"""The player's-eye game against Professor Vance (the expert): its knocks while the stock lasts,
made at the table and told on the result panel. A game of several hands at normal speed,
so it runs with the long soak (GIN3D_SOAK=1), not in every run of the suite."""

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

HANDS = 6  # hands played at most before the expert has knocked with cards in the stock


def test_professor_vance_knocks_while_the_stock_lasts_and_the_result_says_so(player):
    """Against a player who plays for gin (the harness's play, never knocking short of it),
    the expert knocks short of gin while the stock lasts when its knock rule says the knock
    beats playing on; that hand ends on the result panel with its story ("Professor Vance
    knocked with N; you had M ..."): with seed 42 in the sixth hand, which wins it the game."""
    p = player(args=("--seed", "42"))
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    choose_level(p, "expert")
    p.click_button("Deal")
    p.wait(on("Table"), 20, "the table")
    seen = []
    for hand in range(1, HANDS + 1):
        last: dict = {}

        def ended(s: dict, last=last) -> bool:
            if s.get("screen") == "Table" and "stock_left" in s:
                last["stock_left"] = s["stock_left"]
            return s.get("screen") in ("HandResult", "GameOver")

        snap = play_until(p, ended, 400, f"hand {hand}'s end", knock=False)
        text = p.texts()
        p.screenshot(f"vance-hand-{hand}")
        seen.append((hand, last.get("stock_left"), text))
        if "Vance knocked with" in text and last.get("stock_left", 0) >= 5:
            break
        assert snap["screen"] == "HandResult", text
        p.click_button("Next hand")
        p.wait(
            lambda s, n=hand: s.get("screen") == "Table" and s.get("hands") == n + 1,
            30,
            "the next hand dealt",
        )
    else:
        raise AssertionError(f"no knock of the expert's with cards in the stock: {seen}")
    assert p.problems() == []
