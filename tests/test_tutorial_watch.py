"""Watch mode: every chapter under every preset, every step's claims true of the live state."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from gin3d.engine import RuleSet
from gin3d.tutorial import WATCH, TutorialRunner, load_chapters

PRESETS = ("classic", "pagat", "oklahoma")
CHAPTERS = load_chapters()


def test_the_topics_the_practice_hand_and_the_group_games_are_there_in_order():
    ids = [c.id for c in CHAPTERS]
    assert ids == [
        "deck",
        "deal",
        "melds",
        "deadwood",
        "turn",
        "upcard",
        "knock",
        "layoff",
        "undercut",
        "gin",
        "stock_end",
        "scoring",
        "variants",
        "tips",
        "practice",
        "three_players",
        "partnership",
    ]
    assert [c.number for c in CHAPTERS] == list(range(1, 18))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.id)
def test_every_claim_holds_at_every_step(chapter, preset):
    runner = TutorialRunner(chapter, RuleSet.preset(preset), WATCH)
    visited = []
    while not runner.finished:
        frame = runner.frame()
        visited.append(frame.index)
        failed = [(r.claim, r.error) for r in runner.check() if not r.ok]
        assert not failed, f"{chapter.id} step {frame.index + 1} ({preset}): {failed}"
        assert frame.text and "{" not in frame.text and "}" not in frame.text
        assert not frame.waiting  # Watch mode never waits for the learner
        runner.next()
    assert sorted(set(visited)) == list(range(len(runner.steps)))
    assert visited == sorted(visited)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.id)
def test_every_step_makes_at_least_one_claim(chapter):
    assert all(step.check for step in chapter.steps)


def test_narration_follows_the_preset_numbers():
    gin = next(c for c in CHAPTERS if c.id == "gin")
    texts = {}
    for preset in PRESETS:
        rules = RuleSet.preset(preset)
        runner = TutorialRunner(gin, rules)
        runner.goto(3)
        texts[preset] = runner.frame().text
        assert f"gin bonus of {rules.gin_bonus}:" in texts[preset]
        assert f"{rules.gin_bonus + 44} points" in texts[preset]
    assert texts["classic"] != texts["pagat"]
    # Big Gin: shown in classic (bonus 31), explained as absent in pagat and Oklahoma
    assert len(TutorialRunner(gin, RuleSet.preset("classic")).steps) == 5
    last = TutorialRunner(gin, RuleSet.preset("pagat"))
    last.goto(len(last.steps) - 1)
    assert "no Big Gin" in last.frame().text
    first = TutorialRunner(gin, RuleSet.preset("classic"))
    first.goto(len(first.steps) - 1)
    assert "bonus of 31" in first.frame().text


def test_oklahoma_narration_explains_the_upcard_limit():
    deal = next(c for c in CHAPTERS if c.id == "deal")
    ok = TutorialRunner(deal, RuleSet.preset("oklahoma"))
    ok.goto(1)
    assert "Oklahoma" in ok.frame().text and "10 this hand" in ok.frame().text
    classic = TutorialRunner(deal, RuleSet.preset("classic"))
    classic.goto(1)
    assert "Oklahoma" not in classic.frame().text


RULE_WORDS = (
    "gin bonus",
    "undercut bonus",
    "box bonus",
    "game bonus",
    "big gin bonus",
    "knock limit",
    "limit of",
)


def _texts(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from _texts(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _texts(value)


def test_no_rule_number_is_written_into_a_lesson():
    folder = resources.files("gin3d.tutorial") / "chapters"
    for f in folder.iterdir():
        if not f.name.endswith(".json"):
            continue
        for text in _texts(json.loads(f.read_text(encoding="utf-8"))):
            for word in RULE_WORDS:
                for m in re.finditer(re.escape(word), text, re.IGNORECASE):
                    after = text[m.end() : m.end() + 8]
                    assert not re.match(r"\D{0,4}\d", after), f"{f.name}: {text!r}"


def test_the_practice_hand_is_played_to_the_end_by_the_hints():
    practice = next(c for c in CHAPTERS if c.id == "practice")
    runner = TutorialRunner(practice, RuleSet.preset("classic"))
    runner.next()
    assert runner.step.practice
    moves = 0
    while runner.step.practice:
        runner.next()
        moves += 1
        assert moves < 200
    assert runner.table.hand.over and moves > 5
    assert runner.table.game.score.hands  # the hand went on the practice game's score sheet
