"""The lesson format: loading refuses broken files with a clear message; the claim language is
safe; the fixed deal turns into the right 52-card dealing order; the practice helpers."""

from __future__ import annotations

import json

import pytest

from gin3d.engine import CARDS, Hand, RuleSet, card
from gin3d.tutorial import (
    ExpressionError,
    LessonError,
    evaluate,
    fill,
    greedy_player,
    hint,
    lesson_rules,
    load_chapter,
    load_chapters,
)
from gin3d.tutorial.__main__ import main as read_tutorial

GOOD = {
    "id": "x",
    "number": 1,
    "title": "T",
    "summary": "S",
    "deal": {
        "dealer": 1,
        "you": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "them": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH",
        "upcard": "KD",
        "stock": "QC JC",
    },
    "steps": [{"say": "Hi {opp}, {gin_bonus}", "check": ["stock == 31"]}],
}


def broken(**changes) -> str:
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("step_"):
            data["steps"][0][key[5:]] = value
        elif value is None:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


def test_a_good_chapter_loads_and_its_deal_is_the_fixed_deck():
    chapter = load_chapter(json.dumps(GOOD))
    deck = chapter.deal.deck()
    assert sorted(deck) == list(CARDS)
    hand = Hand(RuleSet.preset("classic"), chapter.deal.dealer, deck)
    assert sorted(hand.hands[0]) == sorted(chapter.deal.you)
    assert sorted(hand.hands[1]) == sorted(chapter.deal.them)
    assert hand.upcard == card("KD") and hand.stock[-1] == card("QC")
    assert hand.stock[-2] == card("JC")


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"deal": {**GOOD["deal"], "them": "AS 2H 3H 4H 5H 6H 7H 8H 9H TH"}}, "AS is dealt twice"),
        ({"deal": {**GOOD["deal"], "you": "AS 2S"}}, "has 10 cards"),
        ({"title": None}, "missing 'title'"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"step_check": []}, "at least one claim"),
        ({"step_check": ["hand.__class__"]}, "Attribute is not allowed"),
        ({"step_check": ["stock =="]}, "cannot parse"),
        ({"step_camera": "sky"}, "camera 'sky'"),
        ({"step_do": ["jump"]}, "not an action"),
        ({"step_focus": ["ZZ"]}, "not a card"),
        ({"step_expect": {"move": "pass", "prompt": "p", "wrong": []}}, "at least one 'wrong'"),
        (
            {
                "step_expect": {
                    "move": "pass",
                    "prompt": "p",
                    "wrong": [{"match": "fly", "why": "w"}],
                }
            },
            "wrong-move class 'fly'",
        ),
        ({"step_record": 1, "step_sheet": "nope"}, "unknown sheet"),
    ],
)
def test_broken_chapters_are_refused_with_the_reason(changes, message):
    with pytest.raises(LessonError, match=message):
        load_chapter(broken(**changes), "lesson.json")


def test_not_json_is_refused():
    with pytest.raises(LessonError, match="lesson.json: not valid JSON"):
        load_chapter("{", "lesson.json")


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "(lambda: 1)()",
        "x.y",
        "[c for c in 'ab']",
        "a[0]",
        "f(x=1)",
    ],
)
def test_the_claim_language_refuses_code(text):
    with pytest.raises(ExpressionError):
        evaluate(text, {"x": 1, "a": [1], "f": abs})


def test_the_claim_language_evaluates_what_lessons_need():
    names = {"points": 45, "gin_bonus": 25, "top": card("QH"), "f": lambda a, b: a + b}
    assert evaluate("points == gin_bonus + 20", names)
    assert evaluate("top == 'QH' and not top == 'QS'", names)
    assert evaluate("f(1, 2) == 3 and [1, 2] == [1, 2]", names)
    assert evaluate("1 < 2 < 3", {})
    with pytest.raises(ExpressionError, match="unknown name 'nope'"):
        evaluate("nope == 1", names)


def test_narration_fills_cards_and_refuses_unknown_placeholders():
    text = fill("Take the {7H} and the {10C}, {n}.", {"n": 3})
    assert text == "Take the 7\u2665 and the 10\u2663, 3."
    with pytest.raises(KeyError, match="gin_bonuss"):
        fill("{gin_bonuss}", {"gin_bonus": 25})


def test_lesson_rules_drop_only_what_a_scripted_deal_cannot_follow():
    rules = RuleSet.preset("pagat", straight_gin=True, last_chance=True, match_target=300)
    played = lesson_rules(rules)
    assert not played.straight_gin and not played.last_chance
    assert played.gin_bonus == 20 and played.match_target == 300
    assert lesson_rules(RuleSet.preset("oklahoma")) == RuleSet.preset("oklahoma")


def test_the_greedy_practice_player_is_always_legal_and_hints_explain():
    from gin3d.engine import Game

    for seed in range(6):
        game = Game(RuleSet.preset(("classic", "pagat", "oklahoma")[seed % 3]), seed=seed)
        for _ in range(400):
            if game.hand.over:
                break
            view = game.view(game.hand.turn)
            action = greedy_player(view)
            assert action in view.legal
            assert hint(view).reason
            game.apply(action)
        assert game.hand.over


def test_every_shipped_chapter_loads_and_the_reader_finds_no_false_claim(capsys):
    assert len(load_chapters()) == 17
    assert read_tutorial(["--preset", "pagat", "--quiet"]) == 0
    assert "every claim holds" in capsys.readouterr().out
