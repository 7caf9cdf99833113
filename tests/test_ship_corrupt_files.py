"""Corrupted local files: generated damage to a real save and a real settings file (every
value swapped for a huge number, deep nesting, a wrong type; cuts), and the local writer's
promises (0600, no symlink followed, a full or read-only disk keeps the last good save)."""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

import pytest
from ship_autoplay import SEATS, play

from gin3d import paths, settings, tournament
from gin3d import stats as stats_mod
from gin3d.engine import Game, PartnershipGame, RuleSet, ThreePlayerGame
from gin3d.paths import append_line, write_atomic
from gin3d.recorder import GameKeeper
from gin3d.saves import Seat, offer_resume, write_save
from gin3d.settings import Settings

HUGE = "9" * 5000  # over Python's 4,300-digit limit: int() raises a bare ValueError
DEEP = "[" * 50_000 + "]" * 50_000  # deeper than the JSON decoder's recursion limit
REPLACEMENTS = [
    HUGE,
    "-" + HUGE,
    DEEP,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "9" * 39,
    "null",
    "[]",
    "{}",
    '""',
    "true",
    "-1",
    "1.5",
]


def _nodes(value, path=()):
    """Every JSON path in ``value`` (the root excluded)."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value[:3])  # a few list items stand for all of them
    else:
        return
    for key, child in items:
        yield (*path, key)
        yield from _nodes(child, (*path, key))


def _with(data, where, raw: str) -> str:
    """``data`` as JSON text with the value at ``where`` replaced by the raw text ``raw``."""
    marker = "__gin3d_corrupt__"
    copy = json.loads(json.dumps(data))
    node = copy
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = marker
    return json.dumps(copy).replace(f'"{marker}"', raw)


def corruptions(data) -> list[str]:
    """Damaged versions of ``data``'s JSON: each value replaced by each bad value, a huge or
    deep document in place of the whole, and the text cut at many points."""
    text = json.dumps(data)
    cases = [_with(data, where, raw) for where in _nodes(data) for raw in REPLACEMENTS]
    cases += [HUGE, DEEP, "[" * 10_000_000]
    cases += [text[:n] for n in range(0, len(text), max(1, len(text) // 40))]
    return cases


THREE_SEATS = (*SEATS, Seat("computer", "Margo", "hard"))
FOUR_SEATS = (*THREE_SEATS, Seat("computer", "Ann", "beginner"))


def _good_save(tmp_path: Path, players: int = 2) -> dict:
    if players == 4:  # moves at both tables
        game = PartnershipGame(RuleSet(), "corrupt")
        for n in range(10):
            game.apply(n % 2, game.legal_actions(n % 2)[0])
        seats = FOUR_SEATS
    elif players == 3:
        game = ThreePlayerGame(RuleSet(), "corrupt")
        for _ in range(9):
            game.apply(game.legal_actions()[0])
        seats = THREE_SEATS
    else:
        game, seats = play(Game(RuleSet(), "corrupt"), 9), SEATS
    path = write_save(game, seats, tmp_path / "good.json")
    assert offer_resume(path)[1] is None  # the good file resumes
    return json.loads(path.read_text())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_generated_corrupt_saves_are_set_aside_with_a_message(tmp_path, players):
    cases = corruptions(_good_save(tmp_path, players))
    assert len(cases) > 400
    path = tmp_path / "savegame.json"
    refused = 0
    for text in cases:
        path.write_text(text)
        resume, message = offer_resume(path)  # never raises, whatever the file holds
        if resume is None:
            refused += 1
            assert message and "could not be restored" in message
            assert not path.exists()  # set aside, not deleted:
            assert any(p.name.startswith("savegame.json.bad") for p in tmp_path.iterdir())
        for p in tmp_path.glob("savegame.json.bad*"):
            p.unlink()
    assert refused > len(cases) // 2


def test_generated_corrupt_settings_fall_back_to_defaults_with_a_message(tmp_path):
    good = json.loads(settings.dumps(Settings(player_name="Grace")))
    cases = corruptions(good)
    assert len(cases) > 200
    path = tmp_path / "settings.json"
    for text in cases:
        path.write_text(text)
        loaded = settings.load(path)  # never raises, whatever the file holds
        assert isinstance(loaded.settings, Settings)
        if loaded.message and "defaults are used" in loaded.message:
            assert not path.exists() and (tmp_path / "settings.json.bad").exists()
        for p in tmp_path.glob("settings.json.bad*"):
            p.unlink()


def test_generated_corrupt_tournament_files_give_a_fresh_ladder_with_a_message(tmp_path):
    ladder = tournament.Ladder()
    for n, won in enumerate((True, False, True)):
        ladder.start(f"game-{n}")
        ladder.record(f"game-{n}", won, (120, 40), "2026-12-07")
    ladder.start("in-progress")
    cases = corruptions(ladder.to_dict())
    assert len(cases) > 400
    path = tmp_path / "tournament.json"
    refused = 0
    for text in cases:
        path.write_text(text)
        got, message = tournament.load(path)  # never raises, whatever the file holds
        assert isinstance(got, tournament.Ladder)
        if message is not None:
            refused += 1
            assert got == tournament.Ladder() and "the ladder starts afresh" in message
            assert not path.exists() and (tmp_path / "tournament.json.bad").exists()
        for p in tmp_path.glob("tournament.json.bad*"):
            p.unlink()
    assert refused > len(cases) // 2


@pytest.mark.parametrize(
    "content, words",
    [
        ('{"format": "gin3d-settings", "version": ' + HUGE + "}", "digits"),
        (DEEP, "JSON"),
    ],
)
def test_huge_numbers_and_deep_nesting_are_set_aside(tmp_path, content, words):
    for name, load in (("settings.json", settings.load), ("stats.json", stats_mod.load)):
        path = tmp_path / name
        path.write_text(content)
        result = load(path)
        message = result.message if hasattr(result, "message") else result[1]
        assert words in message and f"{name}.bad" in message
        assert (tmp_path / f"{name}.bad").read_text() == content
    path = tmp_path / "savegame.json"
    path.write_text(content)
    resume, message = offer_resume(path)
    assert resume is None and words in message and "savegame.json.bad" in message


def test_files_are_written_private_and_a_planted_symlink_is_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for name in ("savegame.json", "hands.jsonl"):
        (tmp_path / name).symlink_to(victim)
    write_atomic(tmp_path / "savegame.json", "{}")
    assert victim.read_text() == "precious"  # the link itself was replaced
    assert not (tmp_path / "savegame.json").is_symlink()
    assert stat.S_IMODE((tmp_path / "savegame.json").stat().st_mode) == 0o600
    with pytest.raises(OSError):
        append_line(tmp_path / "hands.jsonl", "{}")
    assert victim.read_text() == "precious"
    append_line(tmp_path / "new.jsonl", "{}")
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o600


def test_a_full_disk_mid_game_keeps_the_last_good_save_and_play_goes_on(tmp_path, monkeypatch):
    game = play(Game(RuleSet(), "full"), 4)
    keeper = GameKeeper(
        game,
        SEATS,
        save_file=tmp_path / "savegame.json",
        stats_file=tmp_path / "stats.json",
        history_file=tmp_path / "hands.jsonl",
    )
    good = (tmp_path / "savegame.json").read_text()
    real_fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(paths.os, "fsync", full)
    play(game, 3)
    assert keeper.update() is False  # no exception: the game goes on
    assert "No space left" in keeper.error and "last good save" in keeper.error
    assert (tmp_path / "savegame.json").read_text() == good
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    monkeypatch.setattr(paths.os, "fsync", real_fsync)
    play(game, 1)
    assert keeper.update() is True and keeper.error == ""
    assert json.loads((tmp_path / "savegame.json").read_text())["actions"] == [
        str(a) for a in game.actions
    ]


def test_a_read_only_disk_keeps_the_last_good_save(tmp_path, monkeypatch):
    game = play(Game(RuleSet(), "ro"), 4)
    keeper = GameKeeper(
        game,
        SEATS,
        save_file=tmp_path / "savegame.json",
        stats_file=tmp_path / "stats.json",
        history_file=tmp_path / "hands.jsonl",
    )
    good = (tmp_path / "savegame.json").read_text()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(paths.tempfile, "mkstemp", read_only)
    play(game, 2)
    assert keeper.update() is False and "Read-only" in keeper.error
    assert (tmp_path / "savegame.json").read_text() == good


def test_load_or_set_aside_is_the_one_reader_that_moves_a_bad_file(tmp_path):
    path = tmp_path / "thing.json"
    assert paths.load_or_set_aside(path, dict) is None  # no file: nothing to move
    write_atomic(path, '{"a": 1}')
    assert paths.load_or_set_aside(path, lambda d: d["a"]) == 1 and path.exists()
    for text, why in (("{ torn", "is not valid JSON"), ("[1]", "not an object")):
        path.write_text(text)

        def parse(data):
            if not isinstance(data, dict):
                raise ValueError("is not an object")
            return data

        with pytest.raises(paths.SetAside) as caught:
            paths.load_or_set_aside(path, parse)
        assert why in caught.value.why and not path.exists()
        assert caught.value.kept.read_text() == text
        assert caught.value.where == f" The old file was kept as {caught.value.kept.name}."
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thing.json.bad", "thing.json.bad-2"]
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(paths.SetAside) as caught:
        paths.load_or_set_aside(path, dict)
    assert caught.value.why.startswith("could not be read (")
    path.write_text("{}")
    with pytest.raises(KeyError):  # not one of the errors it was told to refuse: no move
        paths.load_or_set_aside(path, lambda d: d["missing"])
    assert path.exists()
