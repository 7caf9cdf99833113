"""Player's-eye: a whole partnership game, from the setup screen to game over, in a real
window at normal speed with real clicks: every round's hand of yours (your partner's in the
inset), each round's result and Next hand, and the game-over sheet. A file of its own: a
test worker plays it while another plays the three-player game (test_player_groups)."""

from __future__ import annotations

import os

import pytest
from player_harness import play_game
from test_player_groups import _game_over_texts, _set_up

pytestmark = pytest.mark.slow
# a partnership game to 100 takes 6-9 minutes at normal speed (8 rounds): it runs with the
# long soak (GIN3D_SOAK=1); CI plays the short team game (to 50: 4 rounds at seed 35, about
# 5 minutes) and, offscreen, whole partnership games to 125 (tests/test_scene_partnership.py)
LONG = os.environ.get("GIN3D_SOAK", "") not in ("", "0")


TEAM = ("125 (teams)", "150 (teams)", "200 (teams)", "250 (teams)", "100 (teams)", "50 (teams)")


def test_a_whole_partnership_game_to_50(player):
    """Four players in two teams, the short team game (to 50): rounds of two hands at once
    (your partner's in the inset), each round's result, to game over with the teams' names."""
    p = player(args=("--seed", "35"))
    _set_up(p, 4, TEAM)
    play_game(p, 900)
    text = _game_over_texts(p)
    p.screenshot("group-4-game-over-50")
    assert "You & Rosie" in text and "Walt & Margo" in text, text
    assert "rounds played" in text, text  # more than one round (this seed: several)
    assert p.problems() == []


@pytest.mark.skipif(not LONG, reason="a 6-9 minute game: set GIN3D_SOAK=1 (the long soak)")
def test_a_whole_partnership_game_to_100(player):
    """Four players in two teams, the teams' game to 100: rounds of two hands at once (your
    partner's in the inset), each round's result, to game over."""
    p = player(args=("--seed", "32"))
    _set_up(p, 4, TEAM[:5])
    play_game(p, 900)
    text = _game_over_texts(p)
    p.screenshot("group-4-game-over")
    assert "&" in text, text  # the teams' names: "You & Rosie", "Walt & Margo"
    assert p.problems() == []
