"""The menu's words for each level's strength come from the measured round robin."""

from __future__ import annotations

import re
from pathlib import Path

from gin3d.ai.levels import LEVELS, RATED, strength, win_chance

DOC = Path(__file__).resolve().parent.parent / "docs" / "ai.md"


def test_the_ratings_behind_the_words_are_the_ones_docs_ai_prints():
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("$ python -m gin3d.arena --round-robin") :]
    printed = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\s+([\w:]+)\s+(-?\d+)\s+\[", table, re.M)
    }
    assert {level: printed[level] for level in RATED} == RATED
    assert set(RATED) == set(LEVELS)  # every level on the menu has words


def test_stronger_levels_get_stronger_words_and_chances():
    order = sorted(RATED, key=RATED.get)
    chances = [win_chance(RATED[lv]) for lv in order]
    assert chances == sorted(chances) and chances[order.index("simple")] == 0.5
    said = {lv: strength(lv) for lv in LEVELS}
    assert said["beginner"].startswith("Strength: gentle, wins about 1 game in 10")
    assert said["expert"].startswith("Strength: very strong, wins about 8 games in 10")
    assert "measured against" in said["simple"]
    assert strength("nobody") == ""
