"""The round robin's rating fit recovers known strengths, with honest intervals."""

import numpy as np
import pytest

from gin3d import arena
from gin3d.ai.ratings import ELO, fit_strengths, ratings

TRUE = np.array([0.0, 1.0, -1.0, 0.5, -0.5])


def p_win(r):
    return 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))


def test_expected_results_give_back_the_true_strengths():
    games = 200 * (1 - np.eye(len(TRUE)))
    r, cov = fit_strengths(games * p_win(TRUE), ridge=0.0)
    assert np.allclose(r, TRUE - TRUE.mean(), atol=1e-8)
    sd = np.sqrt(np.diag(cov))
    # 800 games each at p near 1/2: a strength's standard error is about 2 / sqrt(800)
    assert np.all((0.05 < sd) & (sd < 0.12))


def test_intervals_cover_the_truth_on_sampled_results():
    rng = np.random.default_rng(4)
    names = list("abcde")
    covered = 0
    trials = 40
    for _ in range(trials):
        wins = np.zeros((5, 5))
        p = p_win(TRUE)
        for i in range(5):
            for j in range(i + 1, 5):
                k = rng.binomial(60, p[i, j])
                wins[i, j], wins[j, i] = k, 60 - k
        rows = {r.name: r for r in ratings(names, wins)}
        truth = ELO * (TRUE - TRUE.mean())
        covered += sum(rows[n].low <= t <= rows[n].high for n, t in zip(names, truth))
    assert 0.88 <= covered / (5 * trials) <= 0.99  # 95% intervals, within sampling noise


def test_order_and_a_clean_sweep():
    wins = np.array([[0, 10, 10], [0, 0, 6], [0, 4, 0]])
    rows = ratings(["top", "mid", "low"], wins)
    assert [r.name for r in rows] == ["top", "mid", "low"]
    assert np.isfinite(rows[0].elo) and rows[0].elo > rows[1].elo + 200  # won every game
    assert rows[0].games == 20 and rows[0].wins == 20
    anchored = {r.name: r for r in ratings(["top", "mid", "low"], wins, anchor="mid")}
    assert anchored["mid"].elo == 0.0 and anchored["mid"].low == anchored["mid"].high == 0.0
    assert abs(anchored["top"].elo - (rows[0].elo - rows[1].elo)) < 1e-6
    with pytest.raises(ValueError, match="square"):
        fit_strengths(np.array([[0, -1], [1, 0]]))


def test_round_robin_prints_a_rated_table(capsys):
    args = ["--round-robin", "--games", "2", "--players", "simple", "random", "eager"]
    assert arena.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "Bradley-Terry ratings (Elo scale, simple = 0) over 2 games a pairing"
    body = [line.split()[0] for line in out[2:-1]]
    assert sorted(body) == ["eager", "random", "simple"] and body[-1] == "random"
    with pytest.raises(SystemExit):
        arena.main(["--round-robin", "simple", "hard"])
    with pytest.raises(SystemExit):
        arena.main(["--round-robin", "--players", "simple"])


def test_an_anchor_keeps_a_hopeless_player_from_widening_every_interval():
    names = ["a", "b", "c", "hopeless"]
    wins = np.array([[0, 30, 35, 20], [30, 0, 30, 20], [25, 30, 0, 20], [0, 0, 0, 0]])
    width = {r.name: r.high - r.low for r in ratings(names, wins)}
    anchored = {r.name: r.high - r.low for r in ratings(names, wins, anchor="b")}
    assert anchored["a"] < width["a"] and anchored["c"] < width["c"]
