"""The player's-eye soak: whole games at normal speed in a real window, watched for growth
in the renderer's vertex buffers and the resident memory from hand to hand (its own file so
that the suite's two workers run it beside the other scenarios)."""

from __future__ import annotations

import os

import pytest
from player_harness import (
    LEVEL_LABELS,
    choose_level,
    on,
    play_game,
    play_until,
)

pytestmark = pytest.mark.slow


# The whole soak (every level, a game to 100 and Play again twice: about an hour at normal
# speed) runs with GIN3D_SOAK=1; CI plays a game to 100 against Walt and the next game's
# first hand (about six minutes).
SOAK = os.environ.get("GIN3D_SOAK", "") not in ("", "0")
SOAK_LEVELS = list(LEVEL_LABELS) if SOAK else ["simple"]


@pytest.mark.parametrize("level", SOAK_LEVELS)
def test_whole_games_at_normal_speed_stay_flat(player, level):
    """A whole game to 100 at normal speed, then Play again: no traceback, and the
    renderer's vertex buffers and the resident memory flat from hand to hand (the stack
    meshes of every hand were kept: 36 -> 176 vertex buffers over 6 hands)."""
    p = player(args=("--seed", str(sorted(LEVEL_LABELS).index(level) + 21)))
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    choose_level(p, level)
    p.click_button("Deal")
    p.wait(on("Table"), 20, "the table")
    games = 3 if SOAK else 1
    for game in range(games):
        snap = play_game(p, 1200)
        p.screenshot(f"soak-{level}-game-over-{game + 1}")
        assert max(snap["scores"]) >= 100, snap["scores"]
        p.click_button("Play again")
        p.wait(lambda s: s.get("screen") == "Table" and s.get("hands") == 1, 30, "a new game")
    play_until(p, on("HandResult"), 600, "the new game's first hand")
    p.screenshot(f"soak-{level}-next-game-first-hand")
    p.status()
    ends = [m for m in p.metrics if m.get("hands")]
    floors: list[int] = []  # the fewest vertex buffers seen during each hand, in play order
    last = None
    for m in ends:
        if m["hands"] != last:
            floors.append(m["vertex_buffers"])
            last = m["hands"]
        floors[-1] = min(floors[-1], m["vertex_buffers"])
    rss = [m["rss_kib"] for m in ends]
    p99 = max(m["frame_ms_p99"] for m in ends)
    print(
        f"{level}: {len(floors)} hands; vertex buffers per hand (floor) {floors}; "
        f"RSS {rss[0] // 1024}..{max(rss) // 1024} MiB; worst frame p99 {p99} ms"
    )
    assert len(floors) >= 4
    # The buffers climb over the first hands while each kind of card, meld and label is met
    # for the first time, then level off: the later half of the game may not rise above the
    # earlier half's peak (the first hand aside) by more than a little; a leak of a few
    # buffers a hand rises through it.
    half = len(floors) // 2
    assert max(floors[half:]) <= max(floors[1:half]) + 24, (
        f"vertex buffers grow from hand to hand: {floors}"
    )
    assert max(rss[len(rss) // 2 :]) <= max(rss[: len(rss) // 2]) + 24 * 1024, (
        f"memory grows: {rss}"
    )
    assert p.problems() == []
