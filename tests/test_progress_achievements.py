"""Achievements decided from recorded results; the progress file kept across restarts."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from ship_hands import BIG_GIN, GIN, KNOCK, UNDERCUT, play_script
from test_ship_stats import scripted_game

from gin3d import progress as progress_mod
from gin3d.achievements import ACHIEVEMENTS, BY_ID, earned, shutout_in_hands
from gin3d.engine import PartnershipGame, RuleSet, ThreePlayerGame
from gin3d.history import HandRecord
from gin3d.progress import Progress, ProgressBook
from gin3d.recorder import count_results
from gin3d.stats import GameEntry, Stats

CHAPTERS = range(1, 18)


def won_hand(script, level: str = "simple") -> Stats:
    st = Stats()
    st.record_hand(level, play_script(script, dealer=1), seat=0, game_id="g")
    return st


def lost_hand(script) -> Stats:
    st = Stats()
    st.record_hand("simple", play_script(script, dealer=1), seat=1, game_id="g")
    return st


def test_the_set_is_modest_and_each_has_words():
    assert 10 <= len(ACHIEVEMENTS) <= 16
    assert len(BY_ID) == len(ACHIEVEMENTS)
    for a in ACHIEVEMENTS:
        assert a.title and a.description.endswith(".") and len(a.description) < 70
    assert {"beat_beginner", "beat_simple", "beat_hard", "beat_expert"} <= set(BY_ID)
    assert BY_ID["beat_expert"].title == "Beat Professor Vance"


def test_nothing_is_earned_from_nothing():
    assert earned(Stats()) == set()
    assert earned(Stats(), chapters_done=[1, 2], chapters=CHAPTERS) == set()


@pytest.mark.parametrize(
    "script, key",
    [(GIN, "first_gin"), (BIG_GIN, "first_big_gin"), (UNDERCUT, "first_undercut"),
     (KNOCK, "first_knock")],
)  # fmt: skip
def test_a_hand_won_earns_its_kind_and_the_same_hand_lost_earns_nothing(script, key):
    assert earned(won_hand(script)) == {key}
    lost = earned(lost_hand(script))
    assert key not in lost
    if script is UNDERCUT:  # seat 1 knocked and was undercut: nothing for them
        assert lost == set()


def test_a_game_won_beats_that_opponent_and_a_game_lost_does_not():
    for level in ("beginner", "simple", "hard", "expert"):
        st = Stats()
        game = scripted_game(True)
        count_results(st, game, level, 0, "g", ("You", "X"), _nowhere())
        got = earned(st)
        assert f"beat_{level}" in got and "shutout" in got and "first_gin" in got
        assert {f"beat_{lv}" for lv in ("beginner", "simple", "hard", "expert")} & got == {
            f"beat_{level}"
        }
    st = Stats()
    count_results(st, scripted_game(False), "expert", 0, "g", ("You", "X"), _nowhere())
    assert earned(st) == set()
    assert st.games[-1].won is False and st.games[-1].points == 0


def _nowhere():
    import tempfile
    from pathlib import Path

    return Path(tempfile.mkdtemp()) / "hands.jsonl"


def test_shutout_needs_the_opponent_at_nothing():
    st = Stats()
    st.games.append(GameEntry("2026-01-01T00:00:00+00:00", "simple", "classic", True, 120, 9))
    assert "shutout" not in earned(st)
    st.games.append(GameEntry("2026-01-02T00:00:00+00:00", "simple", "classic", False, 0, 100))
    assert "shutout" not in earned(st)
    st.games.append(GameEntry("2026-01-03T00:00:00+00:00", "simple", "classic", True, 100, 0))
    assert "shutout" in earned(st)


def test_three_player_and_partnership_wins_and_ten_wins():
    st = Stats()
    st.level("three").games_played = 1
    assert "three_players" not in earned(st)
    st.level("three").games_won = 1
    st.level("teams").games_won = 1
    st.level("teams").games_played = 1
    assert {"three_players", "partnership"} <= earned(st)
    assert "ten_wins" not in earned(st)
    st.level("simple").games_won = 8
    assert "ten_wins" in earned(st)  # 1 + 1 + 8 across every kind of game


def test_tutorial_needs_every_chapter():
    assert "tutorial" not in earned(Stats(), chapters_done=range(1, 17), chapters=CHAPTERS)
    assert "tutorial" in earned(Stats(), chapters_done=CHAPTERS, chapters=CHAPTERS)


def test_a_group_game_keeps_its_rules_and_points():
    rules = RuleSet.preset("pagat", game_target=10)
    three = ThreePlayerGame(rules, seed="t")
    three.results = [(2, 12)]
    st = Stats()
    assert st.record_game("three", three, 2, "g3")
    entry = st.games[-1]
    assert (entry.rules, entry.won, entry.points, entry.against) == ("pagat", True, 12, 0)
    teams = PartnershipGame(RuleSet.preset("classic", partnership_target=10), seed="p")
    teams.results = [(1, 5), (0, 11)]
    assert st.record_game("teams", teams, 1, "g4")
    assert (st.games[-1].won, st.games[-1].points, st.games[-1].against) == (False, 5, 11)
    assert st.rules_chart() == [("classic", 0, 1), ("pagat", 1, 0)] or st.rules_chart() == [
        ("pagat", 1, 0),
        ("classic", 0, 1),
    ]


def test_win_rate_line_over_recent_games():
    st = Stats()
    for i, won in enumerate([True, False, True, True]):
        st.games.append(GameEntry(f"2026-01-0{i + 1}", "simple", "classic", won, 0, 0))
    assert st.win_rate_line(window=2) == [1.0, 0.5, 0.5, 1.0]
    assert st.win_rate_line(last=2, window=10) == [2 / 3, 3 / 4]


def test_the_game_list_survives_the_file_and_a_bad_entry_is_refused(tmp_path):
    st = Stats()
    game = scripted_game(True)
    count_results(st, game, "simple", 0, "g", ("You", "Walt"), tmp_path / "h.jsonl")
    path = st.save(tmp_path / "stats.json")
    from gin3d import stats as stats_mod

    loaded, message = stats_mod.load(path)
    assert message is None and loaded.games == st.games and loaded.games[0].shutout
    data = json.loads(path.read_text())
    data["games"][0]["won"] = "yes"
    path.write_text(json.dumps(data))
    fresh, message = stats_mod.load(path)
    assert fresh == Stats() and "won" in message
    # a file from before the list: loads, with no games
    data["games"] = None
    del data["games"]
    path.write_text(json.dumps(data))
    assert stats_mod.load(path)[0].games == []


def test_a_shutout_found_in_an_old_history(tmp_path):
    game = scripted_game(True)
    when = datetime(2026, 1, 1, tzinfo=timezone.utc)
    records = [HandRecord.of(h, ("You", "Walt"), "old", "simple", when, you=0) for h in game.hands]
    assert shutout_in_hands(records)
    assert not shutout_in_hands(records[:1])  # one hand of 93: short of the game's 100
    lost = scripted_game(False)
    assert not shutout_in_hands(
        [HandRecord.of(h, ("You", "Walt"), "old", "simple", when, you=0) for h in lost.hands]
    )
    assert "shutout" in earned(Stats(), hands=records)


def test_progress_round_trip_and_corrupt_file(tmp_path):
    path = tmp_path / "progress.json"
    book = ProgressBook(path)
    assert book.message is None and not path.exists()
    assert book.chapter_done(1) and not book.chapter_done(1)
    again = ProgressBook(path)
    assert again.is_done(1) and not again.is_done(2)
    st = won_hand(GIN)
    assert [a.id for a in again.check(st, CHAPTERS, today="2026-12-07")] == ["first_gin"]
    assert again.check(st, CHAPTERS) == []  # earned once
    third = ProgressBook(path)
    assert third.earned_on("first_gin") == "2026-12-07" and third.earned_on("shutout") is None

    path.write_text('{"format": "gin3d-progress", "version": 1, "chapters_done": ["one"]}')
    broken = ProgressBook(path)
    assert broken.progress == Progress() and "chapters done" in broken.message
    assert (tmp_path / "progress.json.bad").exists()
    path.write_text("not json")
    assert "not valid JSON" in progress_mod.load(path)[1]


def test_catch_up_is_once_and_counts_what_the_records_hold(tmp_path):
    book = ProgressBook(tmp_path / "progress.json")
    st = Stats()
    count_results(st, scripted_game(True), "hard", 0, "g", ("You", "M"), tmp_path / "h.jsonl")
    quiet = book.catch_up(st, CHAPTERS, [], today="2026-01-01")
    assert {a.id for a in quiet} == {"first_gin", "shutout", "beat_hard"}
    assert book.catch_up(st, CHAPTERS, []) == []  # once only
    assert ProgressBook(tmp_path / "progress.json").progress.caught_up
    assert book.check(st, CHAPTERS) == []  # nothing new to announce


def test_a_failed_write_keeps_the_progress_and_says_so(tmp_path, monkeypatch):
    import errno

    book = ProgressBook(tmp_path / "progress.json")

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(progress_mod, "write_atomic", full)
    assert book.chapter_done(3)
    assert book.is_done(3) and "could not be saved" in book.error
    monkeypatch.undo()
    assert book.chapter_done(4) and book.error == ""
    assert ProgressBook(tmp_path / "progress.json").progress.chapters_done == {3, 4}
