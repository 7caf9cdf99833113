"""The hand result told as a sentence, every number from the engine's scoring."""

from __future__ import annotations

from gin3d.engine import RuleSet, parse_cards, score_knock
from gin3d.scene.ui.result_story import counted, hand_story

CLASSIC = RuleSet.preset("classic")
SAM_MELDS = "KD KH KC QS JS TS"  # a set of kings and a ten-to-queen run, nothing to lay off
KNOCKER = "AS 2S 3S 4H 5H 6H 7C 8C 9C 8D"  # 8 deadwood


def test_a_knock_with_layoffs_spells_out_the_difference():
    r = score_knock(KNOCKER, "KD KH KC QS QH 4C 3D 5D 7H 6C", CLASSIC)
    assert (r.knocker_deadwood, r.other_deadwood, r.points, len(r.layoffs)) == (8, 32, 24, 2)
    assert hand_story(r, 1, ("You", "Walt")) == (
        "Walt knocked with 8; you had 32 after laying off 2 cards,",
        "so Walt scores 32 - 8 = 24",
    )
    assert hand_story(r, 0, ("You", "Walt"))[1] == "so you score 32 - 8 = 24"


def test_an_undercut_names_its_bonus():
    r = score_knock(KNOCKER, SAM_MELDS + " 2D 4D 7H 6C", CLASSIC)
    assert r.kind == "undercut"
    assert hand_story(r, 0, ("You", "Walt")) == (
        f"You knocked with 8; Walt had {r.other_deadwood} after laying off 2 cards: an undercut,",
        f"so Walt scores 8 - {r.other_deadwood} + 25 undercut bonus = {r.points}",
    )


def test_gin_big_gin_and_the_spade_doubling():
    okla = RuleSet.preset("oklahoma")
    gin_hand = "AS 2S 3S 4H 5H 6H 7C 8C 9C TC"
    doubled = score_knock(gin_hand, SAM_MELDS + " 9D 2D AD 2H", okla, parse_cards("KS")[0])
    assert doubled.points == 68
    assert hand_story(doubled, 1, ("You", "Walt")) == (
        "Walt went gin; you had 14,",
        "so Walt scores (14 + 20 gin bonus) x 2 for the spade upcard = 68",
    )
    big = score_knock(gin_hand + " JC", SAM_MELDS + " 9D 2D AD 2H", CLASSIC)
    assert big.kind == "big_gin"
    assert hand_story(big, 0, ("You", "Walt")) == (
        "You went Big Gin; Walt had 14,",
        f"so you score 14 + {CLASSIC.big_gin_bonus} Big Gin bonus = {big.points}",
    )


def test_a_count_has_its_noun_in_the_right_number():
    """The game-over sheet said "1 rounds played" after a one-round team game."""
    assert counted(1, "round") == "1 round"
    assert [counted(n, "hand") for n in (0, 2, 6)] == ["0 hands", "2 hands", "6 hands"]


def test_the_group_sheets_say_when_boxes_and_the_game_bonus_pay_nothing():
    """A team game's sheet showed "Boxes (3/1 won)" over two zeros and a 0 game bonus for
    the winners, with both bonuses off (the default): it reads as a mistake unless it says so."""
    from gin3d.app.screens.team_results import box_label, team_sheet
    from gin3d.engine import PartnershipGame

    assert box_label([3, 1], True) == "Boxes (3 / 1 won)"
    assert box_label([2, 0, 1], False) == "Boxes (2 / 0 / 1 won, no bonus)"
    rules = RuleSet.preset("classic")
    game = PartnershipGame(rules, "sheet-seed", 0)
    labels = [label for label, _ in team_sheet(game)]
    assert labels[1] == "Game bonus (off)" and labels[2].endswith("won, no bonus)")
    paid = PartnershipGame(
        rules.but(partnership_game_bonus=True, partnership_box_bonus=True), "sheet-seed", 0
    )
    assert [label for label, _ in team_sheet(paid)][1:3] == ["Game bonus", "Boxes (0 / 0 won)"]
