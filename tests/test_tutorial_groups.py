"""The chapters on three-player Gin and the partnership game: the numbers and names their
captions show are the engine's (``round_score``, ``three_player_next_dealer``), under every
preset; a broken ``group`` is refused by name."""

from __future__ import annotations

import json
import re

import pytest

from gin3d.engine import RuleSet, score_knock
from gin3d.engine.groups import round_score, team_of, three_player_next_dealer, three_player_seats
from gin3d.tutorial import WATCH, LessonError, TutorialRunner, load_chapter, load_chapters

PRESETS = ("classic", "pagat", "oklahoma")
CHAPTERS = {c.id: c for c in load_chapters()}


def texts_to_the_end(runner: TutorialRunner) -> list[str]:
    """Every step's narration, Watch mode, from the first step to the last."""
    out = []
    while not runner.finished:
        out.append(runner.frame().text)
        runner.next()
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_partnership_difference_caption_is_round_score_of_the_staged_round(preset):
    chapter = CHAPTERS["partnership"]
    runner = TutorialRunner(chapter, RuleSet.preset(preset), WATCH)
    texts = texts_to_the_end(runner)
    hand = runner.table.hand
    staged = chapter.group.partner_hand
    other = score_knock(list(staged.knocker_cards), list(staged.other_cards), runner.rules)
    partner_seat = staged.knocker if other.winner == "knocker" else 1 - staged.knocker
    results = [
        (team_of(hand.winner), hand.result.points),
        (team_of((2, 3)[partner_seat]), other.points),
    ]
    team, points = round_score(results)
    caption = next(t for t in texts if "−" in t)
    high, low, scored = (int(n) for n in re.search(r"(\d+) − (\d+) = (\d+)", caption).groups())
    assert (scored, high - low) == (points, points)
    assert {high, low} == {p for _, p in results}
    assert f"you won by {hand.result.points}" in caption
    assert f"your partner lost by {other.points}" in caption
    assert ("the other team scores" if team == 1 else "your team scores") in caption
    both = round_score([(0, results[0][1]), (0, results[1][1])])[1]
    assert f"both results added, {both}." in caption


@pytest.mark.parametrize("preset", PRESETS)
def test_the_three_player_captions_name_the_dealer_the_engine_gives(preset):
    chapter = CHAPTERS["three_players"]
    runner = TutorialRunner(chapter, RuleSet.preset(preset), WATCH, opponent="Robin")
    texts = texts_to_the_end(runner)
    sitter = 2  # the group's sitter dealt the hand on the table
    players = ("you", "Robin", chapter.group.sitter)
    seats = three_player_seats(sitter)
    assert seats == (0, 1)  # you and the computer, at hand seats 0 and 1
    assert f"{players[sitter]} dealt, and sits this hand out" in texts[0]
    winner = seats[runner.table.hand.winner]
    after_win = players[three_player_next_dealer(sitter, seats, winner)]
    dealt_next = [m for t in texts for m in re.findall(r"so (\w+) deals the next hand", t)]
    assert dealt_next == [after_win]
    after_draw = players[three_player_next_dealer(sitter, seats, None)]
    assert re.search(rf"deals again: here that would be {after_draw}\.", texts[-1])


def group_chapter(group: dict, dealer: int = 1) -> str:
    return json.dumps(
        {
            "id": "x",
            "number": 1,
            "title": "T",
            "summary": "S",
            "group": group,
            "deal": {
                "dealer": dealer,
                "you": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
                "them": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
                "upcard": "KD",
            },
            "steps": [{"say": "Hi", "check": ["stock == 31"]}],
        }
    )


@pytest.mark.parametrize(
    ("group", "dealer", "words"),
    [
        ({"players": 5}, 1, "players must be 3 or 4"),
        ({"players": 3, "sitter": "Margo"}, 0, "the deal's dealer must be 1"),
        ({"players": 3}, 1, "missing 'sitter'"),
        ({"players": 3, "sitter": "M", "partner": "S"}, 1, "unknown key 'partner'"),
        ({"players": 4, "partner": "S", "partner_opponent": "K"}, 1, "missing 'partner_hand'"),
    ],
)
def test_a_broken_group_is_refused_with_the_reason(group, dealer, words):
    with pytest.raises(LessonError, match=re.escape(words)):
        load_chapter(group_chapter(group, dealer), "x.json")


def test_a_group_needs_a_deal():
    text = json.loads(group_chapter({"players": 3, "sitter": "Margo"}))
    del text["deal"]
    with pytest.raises(LessonError, match="needs a deal"):
        load_chapter(json.dumps(text), "x.json")
