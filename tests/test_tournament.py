"""The tournament ladder without a window: climbing, losing and trying again, the trophy,
a second climb, the file's round trip and a damaged file."""

from __future__ import annotations

import json

import pytest

from gin3d import tournament
from gin3d.engine import RuleSet
from gin3d.tournament import RUNGS, Ladder, load, settle, tournament_rules

NAMES = {"beginner": "Rosie", "simple": "Walt", "hard": "Margo", "expert": "Professor Vance"}


def play(ladder: Ladder, n: int, won: bool, date: str = "2026-12-07") -> str:
    gid = f"game-{n}"
    ladder.start(gid)
    assert ladder.record(gid, won, (120, 40) if won else (30, 105), date)
    return gid


def test_the_rungs_rise_in_strength_and_the_rules_are_the_guides():
    assert RUNGS == ("beginner", "simple", "hard", "expert")
    rules = tournament_rules()
    assert rules.name == "tournament"
    # the classic numbers, every option off, the game to 100
    assert rules.to_dict() == {**RuleSet.preset("classic").to_dict(), "name": "tournament"}
    assert not (rules.last_chance or rules.allow_throw_back or rules.no_upcard)
    assert rules.game_target == 100


def test_a_win_climbs_a_rung_and_says_who_is_next():
    ladder = Ladder()
    assert (ladder.rung, ladder.won) == (0, 0)
    gid = play(ladder, 1, True)
    assert (ladder.rung, ladder.won, ladder.tries, ladder.playing) == (1, 1, [1, 0, 0, 0], "")
    assert ladder.verdict(gid, NAMES) == "Rung 1 won - next: Walt"


def test_a_loss_keeps_the_rung_and_counts_the_tries():
    ladder = Ladder()
    play(ladder, 1, True)
    first = play(ladder, 2, False)
    second = play(ladder, 3, False)
    assert (ladder.rung, ladder.won, ladder.tries) == (1, 1, [1, 2, 0, 0])
    assert ladder.verdict(first, NAMES) == "Rung 2 lost to Walt - try again (that was try 1)"
    assert ladder.verdict(second, NAMES).endswith("(that was try 2)")
    ladder.start("abandoned")  # a try quit for good (resigned, or replaced by another game)
    play(ladder, 4, True)
    assert (ladder.rung, ladder.tries) == (2, [1, 4, 0, 0])
    assert [r.attempt for r in ladder.rounds] == [1, 1, 2, 4]


def test_only_the_game_in_progress_counts_and_only_once():
    ladder = Ladder()
    ladder.start("mine")
    assert not ladder.record("another", True, (100, 0), "d")  # a game outside the tournament
    assert ladder.record("mine", True, (100, 0), "d")
    assert not ladder.record("mine", True, (100, 0), "d")  # counted already
    assert ladder.won == 1 and len(ladder.rounds) == 1


def test_the_top_rung_earns_the_trophy_and_a_second_climb_is_counted():
    ladder = Ladder()
    for n in range(3):
        play(ladder, n, True)
    assert not ladder.finished and not ladder.trophies
    top = play(ladder, 3, True, "2026-12-07")
    assert ladder.finished and ladder.trophies == ["2026-12-07"]
    assert ladder.verdict(top, NAMES) == "Tournament won - the trophy is yours!"
    ladder.start("again")  # Climb again: from the bottom, the trophy kept
    assert (ladder.climb, ladder.won, ladder.rung, ladder.tries) == (2, 0, 0, [1, 0, 0, 0])
    assert ladder.rounds == [] and ladder.trophies == ["2026-12-07"]
    ladder.record("again", True, (100, 3), "2026-12-08")
    for n in range(4, 7):
        play(ladder, n, True, "2026-12-09")
    assert ladder.trophies == ["2026-12-07", "2026-12-09"]
    assert ladder.verdict("game-6", NAMES).endswith("(2 trophies)")


def test_a_very_long_climb_still_saves_a_file_that_loads(tmp_path):
    ladder = Ladder()
    for n in range(tournament.MAX_KEPT + 5):  # a thousand losses to Rosie
        play(ladder, n, False)
    assert len(ladder.rounds) == tournament.MAX_KEPT
    assert ladder.tries[0] == tournament.MAX_KEPT + 5
    ladder.save(tmp_path / "t.json")
    assert load(tmp_path / "t.json") == (ladder, None)


def test_the_ladder_survives_a_round_trip_through_its_file(tmp_path):
    path = tmp_path / "tournament.json"
    ladder = Ladder()
    play(ladder, 1, True)
    play(ladder, 2, False)
    ladder.start("in-progress")
    ladder.save(path)
    again, message = load(path)
    assert message is None and again == ladder
    # the finished game of a restarted run still counts (settle reads and writes the file)
    after, message = settle("in-progress", True, (110, 60), "2026-12-07", path)
    assert message is None and after.won == 2
    assert load(path)[0].won == 2


def test_no_file_is_a_fresh_ladder(tmp_path):
    assert load(tmp_path / "none.json") == (Ladder(), None)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps({"format": "gin3d-tournament", "version": 1}),
        json.dumps({**Ladder().to_dict(), "won": 9}),
        json.dumps({**Ladder().to_dict(), "tries": [1, 2]}),
        json.dumps({**Ladder().to_dict(), "rounds": [{"rung": 7}]}),
        json.dumps({**Ladder().to_dict(), "version": 99}),
    ],
)
def test_a_damaged_file_gives_a_fresh_ladder_and_a_message(tmp_path, text):
    path = tmp_path / "tournament.json"
    path.write_text(text)
    ladder, message = load(path)
    assert ladder == Ladder()
    assert message.startswith("Your tournament file ") and "starts afresh" in message
    assert (tmp_path / "tournament.json.bad").read_text() == text  # kept, never deleted
    assert not path.exists()


def test_a_look_at_the_ladder_from_elsewhere_leaves_a_damaged_file_for_the_ladder_screen(
    tmp_path,
):
    path = tmp_path / "tournament.json"
    assert tournament.peek(path) is None  # no file
    ladder = Ladder()
    ladder.start("in-progress")
    ladder.save(path)
    assert tournament.peek(path) == ladder
    path.write_text("{damaged")
    assert tournament.peek(path) is None and path.exists()  # still there, to be told of
    assert load(path)[1] is not None
