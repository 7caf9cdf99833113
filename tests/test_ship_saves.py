"""Save and resume: the save file is the action log, written atomically after every action."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ship_autoplay import SEATS, next_action, play, state

from gin3d.engine import Game, RuleSet, parse_action
from gin3d.saves import (
    GameRecord,
    SaveError,
    Seat,
    load_save,
    offer_resume,
    read_save,
    write_save,
)

ROOT = Path(__file__).resolve().parent.parent
HELPER = Path(__file__).resolve().parent / "ship_autoplay.py"


def reference(rules: RuleSet, seed, steps: int) -> Game:
    return play(Game(rules, seed), steps)


def test_round_trip_rebuilds_identical_game(tmp_path):
    game = reference(RuleSet.preset("pagat"), "rt", 57)
    path = write_save(game, SEATS, tmp_path / "save.json")
    resumed = load_save(path)
    assert state(resumed.game) == state(game)
    assert resumed.record.seats == SEATS
    assert resumed.record.human_seat == 0
    assert "Walt" in resumed.describe()
    # the text form is the action log
    data = json.loads(path.read_text())
    assert data["actions"] == [str(a) for a in game.actions]
    assert [parse_action(a) for a in data["actions"]] == game.actions


def test_explicit_first_dealer_and_decks_survive(tmp_path):
    decks = [list(range(52))[::-1], list(range(52))]
    game = Game(RuleSet(), "decks", first_dealer=1, decks=decks)
    play(game, 12)
    resumed = load_save(write_save(game, SEATS, tmp_path / "s.json"))
    assert state(resumed.game) == state(game)
    assert resumed.game.hands[0].dealer == 1


def test_finished_game_removes_the_save(tmp_path):
    path = tmp_path / "save.json"
    game = Game(RuleSet(), "done")
    write_save(game, SEATS, path)
    assert path.exists()
    play(game)
    write_save(game, SEATS, path)
    assert not path.exists()
    assert offer_resume(path) == (None, None)


def test_only_single_player_games_are_saved(tmp_path):
    both_human = (Seat("human", "A"), Seat("human", "B"))
    with pytest.raises(ValueError, match="single-player"):
        write_save(Game(), both_human, tmp_path / "s.json")
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize(
    "content, why",
    [
        ("{not json", "damaged"),
        ("[]", "JSON object"),
        ('{"format": "other"}', "not a gin3d save"),
        ('{"format": "gin3d-save", "version": 99}', "version"),
        ('{"format": "gin3d-save", "version": 1}', "lacks"),
        (b"\xff\xfe\x00garbage", "cannot be read"),
    ],
)
def test_corrupt_save_is_set_aside_with_a_clear_message(tmp_path, content, why):
    path = tmp_path / "save.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    resume, message = offer_resume(path)
    assert resume is None
    assert why in message
    assert not path.exists()
    kept = tmp_path / "save.json.bad"
    assert kept.exists() and kept.read_bytes() == (
        content if isinstance(content, bytes) else content.encode()
    )


def test_tampered_actions_are_refused(tmp_path):
    game = reference(RuleSet(), "tamper", 20)
    path = write_save(game, SEATS, tmp_path / "save.json")
    data = json.loads(path.read_text())
    data["actions"][5] = "knock AS"  # not legal there
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="saved action 6"):
        load_save(path)
    assert (tmp_path / "save.json.bad").exists()
    # a second bad file does not overwrite the first one kept aside
    path.write_text("{")
    with pytest.raises(SaveError, match="save.json.bad-2"):
        load_save(path)


def test_bad_field_values_are_refused():
    good = GameRecord.of(reference(RuleSet(), "f", 3), SEATS).to_dict()
    for key, value in [
        ("seed", 1.5),
        ("first_dealer", 2),
        ("dealer_cut", "yes"),
        ("seats", [{"kind": "human", "name": "x"}]),
        ("actions", "draw stock"),
        ("rules", {"knock_limit": -1}),
    ]:
        with pytest.raises(SaveError):
            GameRecord.from_dict({**good, key: value})


def _wait_for_actions(path: Path, n: int, proc: subprocess.Popen) -> dict:
    """Poll the save file's content until it holds at least ``n`` actions."""
    deadline = time.monotonic() + 60  # a guard against a hung helper, not a timing assertion
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        try:
            text = path.read_text()
        except FileNotFoundError:  # between two games the save is removed
            time.sleep(0.005)
            continue
        data = json.loads(text)  # always a whole file: a torn write would fail here
        if len(data["actions"]) >= n:
            return data
        time.sleep(0.005)
    raise AssertionError("the helper never reached the expected number of actions")


def _start(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(HELPER), "--save", str(tmp_path / "save.json"), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_kill_9_mid_hand_then_resume_to_identical_state(tmp_path):
    rules = RuleSet()
    seed = "kill-0"
    # choose a point in the middle of the second hand from an uninterrupted reference game
    ref = Game(rules, seed)
    while len(ref.hands) < 2:
        ref.apply(next_action(ref))
    n = len(ref.actions) + 9
    proc = _start(tmp_path, "--seed", "kill", "--hold-at", str(n))
    try:
        assert proc.stdout.readline().strip() == "held"
        _wait_for_actions(tmp_path / "save.json", n, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL

    resume, message = offer_resume(tmp_path / "save.json")
    assert message is None
    game = resume.game
    expected = reference(rules, seed, n)
    assert state(game) == state(expected)
    assert not game.hand.over and game.hand.hand_number == 1  # killed mid-hand
    # playing on from the resumed game ends exactly as the game never interrupted
    play(game)
    play(expected)
    assert state(game) == state(expected)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_kill_9_while_saving_leaves_a_whole_save(tmp_path):
    proc = _start(tmp_path, "--seed", "busy")
    try:
        _wait_for_actions(tmp_path / "save.json", 40, proc)
        proc.send_signal(signal.SIGKILL)  # while it is writing save after save
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    record = read_save(tmp_path / "save.json")
    resume = load_save(tmp_path / "save.json")
    assert len(record.actions) >= 40
    expected = reference(record.rules, record.seed, len(record.actions))
    assert state(resume.game) == state(expected)
    # no temporary files are left that a later start would mistake for a save
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "save.json"]
    assert all(name.startswith(".save.json.") for name in leftovers)
