"""The benches run to their figures (a short run of each scene bench: not a timing, which
the benches print and nobody asserts, but the scripts themselves working end to end)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_bench(script: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``bench/<script>`` with ``args`` from the checkout, its output captured."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_bench_scene_runs_a_short_deal_and_knock(tmp_path):
    """``--frames 30`` cuts the deal short: the bench finishes it before playing on (it
    failed there: the table takes no input while it is still dealing)."""
    env = {**os.environ, "HOME": str(tmp_path), "GIN3D_HOME": str(tmp_path)}
    done = run_bench("bench_scene.py", "--frames", "30", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    for name in ("empty scene", "deal", "knock spread"):
        assert any(line.startswith(name) and "fps" in line for line in lines), done.stdout
    assert "launch to first menu frame" in done.stdout


def test_bench_oracle_plays_the_told_expert_and_the_deal_fit_prints_its_three_rows():
    """The measurements behind docs/ai.md's "What knowing the opponent's hand is worth" and
    the deals' fit run to their printed lines."""
    done = run_bench("bench_oracle.py", "eager", "--games", "2")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "expert told the hand vs eager: game win rate" in done.stdout, done.stdout
    done = run_bench("bench_ai.py", "--deals", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    for label in ("card weights only", "play, last throw only", "play, every throw"):
        assert sum(label in line for line in done.stdout.splitlines()) == 2, done.stdout


def test_bench_weights_plays_the_arena_with_the_expert_weights_changed():
    """The arena run behind docs/ai.md's tables of expert variants: the weights it was told
    to change are changed (and said), the arena's figures follow; a misspelt weight or a
    value of the wrong kind is refused before any game is played."""
    from gin3d.ai.expert import ExpertWeights

    kept = ExpertWeights()
    done = run_bench(
        "bench_weights.py",
        *("--set", "potential=9", "--set", "deal.older_discard=0.1"),
        *("expert", "eager", "--games", "2", "--seed", "3"),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == (
        f"expert weights: potential {kept.potential} -> 9.0, "
        f"deal.older_discard {kept.deal.older_discard} -> 0.1"
    )
    assert "expert vs eager: game win rate" in lines[-1], done.stdout
    for setting, error in (
        ("potenshal=2", "unknown weight 'potenshal'"),
        ("samples=2.5", "samples is a whole number, not '2.5'"),
        ("deal=1", "'deal' is a group of weights"),
    ):
        refused = run_bench("bench_weights.py", "--set", setting, "expert", "eager", "--games", "2")
        assert refused.returncode == 2, (setting, refused.stdout)
        assert error in refused.stderr and "game win rate" not in refused.stdout


def test_bench_knock_values_prices_the_expert_spots_without_changing_its_play(tmp_path):
    """The measurement behind the expert's knock rule (docs/ai.md, "The knock rule fitted to
    what the knocks were really worth"): each record holds what the expert estimated at the
    spot, and the kept rule on those estimates gives the answer it played; pricing the spots
    (which copies the game and plays it on from there) never changes the games themselves;
    ``--fit`` reads the records back."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_knock_values as bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    import numpy as np

    from gin3d.ai.expert import ExpertWeights

    records, totals = bench.measure("eager", 4, 601, 1.0, 2)
    assert len(records) >= 4
    w = ExpertWeights()
    kept = (w.knock_hunt, w.knock_deadwood, w.knock_stock, w.knock_margin)
    played = [r["knocked"] for r in records]
    assert bench.rule_knocks(records, kept).tolist() == played
    for r in records:
        assert 0 < r["deadwood"] <= w.always_wait and r["stock"] >= w.wait_stock
        assert np.isfinite([r["knock"], r["hunt"], r["true_knock"], r["true_on"]]).all()
    _, unpriced = bench.measure("eager", 4, 601, 0.0, 2)  # the same games, nothing priced
    assert unpriced == totals

    out = tmp_path / "spots.json"
    done = run_bench("bench_knock_values.py", "eager", "--games", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "decisions priced" in done.stdout and "regret a decision: the rule played" in done.stdout
    done = run_bench("bench_knock_values.py", "--fit", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "kept rule" in done.stdout and "best 1" in done.stdout, done.stdout
