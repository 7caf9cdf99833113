"""The expert prices a hand's points by what they do for the game: reaching the target."""

import dataclasses

from test_ai_expert_knock import knockable_position

from gin3d.ai.expert import ExpertPlayer
from gin3d.ai.game_odds import win_chance


def at_score(mine: int, theirs: int):
    view = knockable_position()
    scores = (mine, theirs) if view.seat == 0 else (theirs, mine)
    return dataclasses.replace(view, scores=scores)


def test_win_chance_is_even_at_equal_scores_and_grows_with_a_lead():
    assert abs(win_chance(100, 100, 100) - 0.5) < 1e-9
    assert abs(win_chance(40, 70, 100) + win_chance(70, 40, 100) - 1.0) < 1e-9
    chances = [win_chance(need, 50, 100) for need in (90, 60, 30, 5)]
    assert chances == sorted(chances) and chances[-1] > 0.8
    assert win_chance(0, 10, 100) == 1.0 and win_chance(10, 0, 100) == 0.0


def test_points_past_the_target_are_worth_nothing():
    expert = ExpertPlayer(seed=1)
    view = at_score(95, 0)
    assert expert.hand_value(view, 10) == expert.hand_value(view, 40)


def test_box_bonuses_do_not_count_toward_winning():
    """At 0-0 a hand is worth about its points (the box bonus never reaches the target)."""
    expert = ExpertPlayer(seed=1)
    view = at_score(0, 0)
    for points in (3, 10, -10):
        assert abs(expert.hand_value(view, points) - points) < 0.25 * abs(points) + 0.5


def test_a_loss_that_ends_the_game_costs_more_than_its_points():
    expert = ExpertPlayer(seed=1)
    view = at_score(60, 92)  # the opponent needs 8
    assert -4 < expert.hand_value(view, -3) < 0  # it leaves the opponent short: about 3
    assert expert.hand_value(view, -8) < -12  # it ends the game
