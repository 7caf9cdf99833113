"""One version for the whole program: ``gin3d --version``, the package metadata (pyproject
reads ``gin3d.__version__``; tests/test_ship_wheel.py checks the built wheel's) and the save
file, which records the version that wrote it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from ship_autoplay import SEATS, play, state

import gin3d
from gin3d.engine import Game, RuleSet
from gin3d.saves import GameRecord, SaveError, load_save, write_save

ROOT = Path(__file__).resolve().parent.parent


def test_version_option_prints_the_version_and_exits():
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIN3D_")}
    run = subprocess.run(
        [sys.executable, "-m", "gin3d", "--version"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"gin3d {gin3d.version()}\n"
    assert gin3d.__version__ == "0.1.0"


def test_version_comes_from_the_metadata_and_falls_back_to_the_module(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    gin3d.version.cache_clear()
    monkeypatch.setattr(metadata, "version", lambda name: "9.8.7" if name == "gin3d" else "")
    try:
        assert gin3d.version() == "9.8.7"
        gin3d.version.cache_clear()
        monkeypatch.setattr(metadata, "version", missing)
        assert gin3d.version() == gin3d.__version__
    finally:
        gin3d.version.cache_clear()


def test_the_save_records_the_version_that_wrote_it(tmp_path):
    game = play(Game(RuleSet(), "ver"), 9)
    path = write_save(game, SEATS, tmp_path / "save.json")
    data = json.loads(path.read_text())
    assert data["gin3d_version"] == gin3d.version()
    assert load_save(path).record.written_by == gin3d.version()


def test_a_save_without_the_version_still_loads(tmp_path):
    game = play(Game(RuleSet(), "old"), 9)
    old = GameRecord.of(game, SEATS).to_dict()
    del old["gin3d_version"]  # as every save before the version was recorded
    path = tmp_path / "save.json"
    path.write_text(json.dumps(old))
    resumed = load_save(path)
    assert state(resumed.game) == state(game)
    assert resumed.record.written_by == ""


@pytest.mark.parametrize("bad", [3, None, ["0.1.0"], "9" * 41])
def test_a_bad_version_field_is_refused(bad):
    good = GameRecord.of(play(Game(RuleSet(), "bad"), 3), SEATS).to_dict()
    with pytest.raises(SaveError, match="gin3d version"):
        GameRecord.from_dict({**good, "gin3d_version": bad})
