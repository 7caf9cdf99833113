"""Statistics from a scripted set of hands and games, per opponent level, saved atomically."""

from __future__ import annotations

import json

import pytest
from ship_hands import BIG_GIN, GIN, KNOCK, UNDERCUT, drawn_hand, play_script

from gin3d import stats as stats_mod
from gin3d.engine import Game, RuleSet
from gin3d.stats import Stats


def scripted_hands():
    """Seat 0's hands, in order: win gin 93, win undercut 30, win knock 31, drawn,
    win Big Gin 99, lose to gin 93, lose to an undercut of seat 0's knock 30."""
    return [
        play_script(GIN, dealer=1, number=0),
        play_script(UNDERCUT, dealer=1, number=1),
        play_script(KNOCK, dealer=1, number=2),
        drawn_hand(number=3),
        play_script(BIG_GIN, dealer=1, number=4),
        play_script(GIN, dealer=0, number=5),
        play_script(UNDERCUT, dealer=0, number=6),
    ]


def test_statistics_from_scripted_hands():
    st = Stats()
    for hand in scripted_hands():
        assert st.record_hand("simple", hand, seat=0, game_id="g1")
    s = st.levels["simple"]
    assert (s.hands_played, s.hands_won, s.hands_drawn) == (7, 4, 1)
    assert (s.gins, s.big_gins, s.knocks, s.undercuts, s.undercut_against) == (1, 1, 1, 1, 1)
    assert s.points == 93 + 30 + 31 + 99
    assert s.points_against == 93 + 30
    assert s.average_points == pytest.approx(253 / 7)
    assert s.best_hand_streak == 4  # the drawn hand does not break a streak
    assert s.hand_streak == 0
    assert s.hand_win_rate == pytest.approx(4 / 7)


def test_the_other_seat_sees_the_mirror_image():
    st = Stats()
    for hand in scripted_hands():
        st.record_hand("hard", hand, seat=1, game_id="g1")
    s = st.levels["hard"]
    assert (s.hands_won, s.gins, s.undercuts, s.undercut_against) == (2, 1, 1, 1)
    assert s.points == 123 and s.points_against == 253
    assert s.hand_streak == 2 and s.best_hand_streak == 2


def test_a_hand_is_counted_once_and_levels_are_separate():
    st = Stats()
    hands = scripted_hands()
    assert st.record_hand("simple", hands[0], 0, game_id="g1")
    assert not st.record_hand("simple", hands[0], 0, game_id="g1")  # e.g. again after resume
    assert st.record_hand("expert", hands[5], 0, game_id="g2")
    assert st.levels["simple"].hands_played == 1 and st.levels["simple"].hands_won == 1
    assert st.levels["expert"].hands_played == 1 and st.levels["expert"].hands_won == 0
    total = st.total()
    assert total.hands_played == 2 and total.points == 93 and total.points_against == 93
    with pytest.raises(ValueError, match="finished"):
        st.record_hand("simple", Game().hand, 0)


def scripted_game(seat_zero_wins: bool) -> Game:
    """The gin deck every hand; the loser deals, so the same seat gins until it has 186."""
    rules = RuleSet.preset("classic", next_dealer="loser")
    game = Game(rules, "scripted", first_dealer=1 if seat_zero_wins else 0, decks=[GIN[0]] * 3)
    while not game.over:
        for a in GIN[1]:
            game.apply(a)
        if not game.over:
            game.apply(game.legal_actions()[0])  # next hand
    return game


def test_games_and_streaks():
    st = Stats()
    results = [True, True, False, True]
    for i, win in enumerate(results):
        game = scripted_game(win)
        assert game.winner == (0 if win else 1)
        for hand in game.hands:
            st.record_hand("simple", hand, 0, game_id=f"game{i}")
        assert st.record_game("simple", game, 0, game_id=f"game{i}")
        assert not st.record_game("simple", game, 0, game_id=f"game{i}")
    s = st.levels["simple"]
    assert (s.games_played, s.games_won, s.best_streak, s.streak) == (4, 3, 2, 1)
    assert s.hands_played == 8 and s.gins == 6 and s.points == 6 * 93
    assert s.game_win_rate == pytest.approx(0.75)
    assert st.chart(("beginner", "simple")) == [("simple", 3, 1)]


def test_round_trip_and_corrupt_fallback(tmp_path):
    st = Stats()
    for hand in scripted_hands():
        st.record_hand("simple", hand, 0, game_id="g")
    path = st.save(tmp_path / "stats.json")
    loaded, message = stats_mod.load(path)
    assert message is None and loaded == st
    # the ids survive too, so a hand is still not counted twice after a restart
    assert not loaded.record_hand("simple", scripted_hands()[0], 0, game_id="g")

    data = json.loads(path.read_text())
    data["levels"]["simple"]["gins"] = -3
    path.write_text(json.dumps(data))
    fresh, message = stats_mod.load(path)
    assert fresh == Stats() and "gins" in message and "stats.json.bad" in message
    path.write_text("{")
    assert "not valid JSON" in stats_mod.load(path)[1]
    assert stats_mod.load(tmp_path / "missing.json") == (Stats(), None)
