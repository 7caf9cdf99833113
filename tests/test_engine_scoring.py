"""Scoring: the worked checks of RULES.md, layoffs, bonuses, games, matches and Hollywood."""

import pytest

from gin3d.engine import (
    GameScore,
    HollywoodScore,
    MatchScore,
    RuleSet,
    all_best_arrangements,
    best_layoff,
    parse_cards,
    score_knock,
)

PAGAT = RuleSet.preset("pagat")
CLASSIC = RuleSet.preset("classic")
SAM_MELDS = "KD KH KC QS JS TS"  # a set of kings and a ten-to-queen run, nothing to lay off


def test_seed_001_knock_example_scores_2():
    result = score_knock("4H 5H 6H 9S 9D 9C TC JC QC 2D", "KS KH KD 5S 6S 7S 7H 9H 3C AD", PAGAT)
    assert (result.kind, result.winner, result.points) == ("knock", "knocker", 2)
    assert result.knocker_deadwood == 2 and result.other_deadwood == 4
    assert sorted(str(c) for c, _ in result.layoffs) == ["7H", "9H"]


def five_hand_game():
    """Seed 001's five-hand game: you are seat 0, Sam seat 1."""
    you_melds = "AS 2S 3S 4H 5H 6H 7C 8C 9C"
    return [
        (score_knock(you_melds + " 2D", SAM_MELDS + " 9D 8H 4C 3D", PAGAT), 0),  # 22
        (score_knock(you_melds + " TC", SAM_MELDS + " 9D 2D AD 2H", PAGAT), 1),  # Sam gin 20+14
        (score_knock(you_melds + " 9D", "KD KH KC KS QS JS TS 2D 2H 3D", PAGAT), 0),  # undercut
        (score_knock(you_melds + " TC", SAM_MELDS + " 9D 8H QD 4D", PAGAT), 0),  # gin 20+31
        (score_knock(you_melds + " AD", SAM_MELDS + " 9D 8H QD 4D", PAGAT), 0),  # knock 30
    ]


def test_five_hand_game_ends_263_to_86():
    hands = five_hand_game()
    assert [r.points for r, _ in hands] == [22, 34, 12, 51, 30]
    assert [r.breakdown() for r, _ in hands] == [
        "Knock: 22",
        "Gin: 14 + 20",
        "Undercut: 2 + 10",
        "Gin: 31 + 20",
        "Knock: 30",
    ]
    game = GameScore(PAGAT)
    for result, knocker in hands[:-1]:
        game.add(result, knocker)
        assert not game.over and game.winner is None
    game.add(*hands[-1])
    assert game.over and game.winner == 0
    assert game.running() == [103, 46]
    assert game.totals() == [263, 86] and game.margin == 177
    assert game.breakdown()[0] == {
        "points": 103,
        "shutout": 0,
        "game_bonus": 100,
        "boxes": 60,
        "total": 263,
    }
    with pytest.raises(ValueError, match="already over"):
        game.add(hands[0][0], 0)


def test_seed_000_knock_and_undercut():
    knocker = "AS 2S 3S 4H 5H 6H 7C 8C 9C 8D"  # 8 deadwood
    knock = score_knock(knocker, "KD KH KC QS QH 4C 3D 5D 7H 6C", CLASSIC)
    assert (knock.knocker_deadwood, knock.other_deadwood, knock.points) == (8, 32, 24)
    assert sorted(str(c) for c, _ in knock.layoffs) == ["6C", "7H"]
    under = score_knock(knocker, SAM_MELDS + " 2D 4D 7H 6C", CLASSIC)
    assert (under.kind, under.winner, under.points) == ("undercut", "other", 2 + 25)
    assert under.breakdown() == "Undercut: 2 + 25"


def test_undercut_on_equal_counts():
    result = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C 5D", "KD KH KC KS QS JS TS 2D 3C 7H")
    assert result.knocker_deadwood == result.other_deadwood == 5
    assert (result.kind, result.winner, result.points) == ("undercut", "other", 25)


def test_gin_gets_bonus_and_no_layoffs():
    result = score_knock("4H 5H 6H 9S 9D 9C TC JC QC KC", "7H 3H 9H 2C 3C 4D 5D 6S 7S 8S")
    assert result.kind == "gin" and result.layoffs == []
    assert result.other_deadwood == best_total("7H 3H 9H 2C 3C 4D 5D")
    assert result.points == result.other_deadwood + CLASSIC.gin_bonus


def best_total(text):
    return sum(c.value for c in parse_cards(text))


def test_big_gin_lays_out_eleven():
    eleven = "4H 5H 6H 7H 9S 9D 9C TC JC QC KC"
    result = score_knock(eleven, "8H 3H 9H 2C 3C 4D 5D 6S 7S 8S")
    assert result.kind == "big_gin" and result.points == 34 + 31 and result.layoffs == []
    with pytest.raises(ValueError, match="Big Gin"):
        score_knock(eleven, "8H 3H 9H 2C 3C 4D 5D 6S 7S 8S", PAGAT)


def test_knock_over_the_limit_is_refused():
    with pytest.raises(ValueError, match="cannot knock with 27"):
        score_knock("AS 2S 3S 4H 5H 6H 7C 8C QD 2D", SAM_MELDS + " 3D 4D 4C 5C")


def test_layoff_chain_onto_a_run():
    dead, plan = best_layoff([parse_cards("6H 7H 8H")], parse_cards("9H TH 2C 2D 5C"))
    assert dead == 9 and [str(c) for c, _ in plan] == ["9H", "TH"]


def test_layoff_at_both_ends_and_onto_sets():
    melds = [parse_cards("5S 6S 7S"), parse_cards("QH QD QC")]
    dead, plan = best_layoff(melds, parse_cards("4S 8S QS 2D"))
    assert dead == 2 and sorted(str(c) for c, _ in plan) == ["4S", "8S", "QS"]


def test_layoff_can_beat_the_arrangement_that_was_best_before_the_knock():
    knocker = "TC QS TD 2D 4D KS TH 3D 6S JS"
    other = "8H 9C 4S TS 6H 4C 5H 9S JD 5S"
    result = score_knock(knocker, other, CLASSIC)
    # melding first and laying off only leftover deadwood would leave 60
    assert result.other_deadwood == 51


def test_knocker_lays_out_the_arrangement_that_leaves_least_to_lay_off():
    knocker = parse_cards("4H 5H 6H 7H 7S 7D 7C 2C AD 3S")
    # 7H fits 4-5-6-7H or 7-7-7-7: both leave 6; only the run would take the other's 8H
    assert len(all_best_arrangements(knocker)) == 2
    result = score_knock(knocker, parse_cards("8H 9S 9D KC QC JD 2H 5C 6C TS"))
    assert result.knocker_deadwood == 6 and result.layoffs == []
    assert [len(m) for m in result.knocker_melds] == [3, 4]


def test_spade_upcard_doubles_in_oklahoma():
    okla = RuleSet.preset("oklahoma")
    plain = score_knock(
        "AS 2S 3S 4H 5H 6H 7C 8C 9C TC",
        SAM_MELDS + " 9D 2D AD 2H",
        okla,
        upcard=parse_cards("KH")[0],
    )
    doubled = score_knock(
        "AS 2S 3S 4H 5H 6H 7C 8C 9C TC",
        SAM_MELDS + " 9D 2D AD 2H",
        okla,
        upcard=parse_cards("KS")[0],
    )
    assert plain.points == 14 + 20 and doubled.points == 2 * (14 + 20)
    assert doubled.breakdown() == "Gin: 14 + 20, doubled by the spade upcard = 68"


def test_classic_shutout_doubles_each_hand():
    game = GameScore(CLASSIC)
    gin = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", SAM_MELDS + " 9D 8H QD 4D")  # 56
    game.add(gin, 1)
    game.add(gin, 1)
    assert game.over and game.winner == 1 and game.shutout
    assert game.totals() == [0, 112 + 112 + 100 + 2 * 25]


def test_classic_shutout_needs_no_drawn_hand():
    game = GameScore(CLASSIC)
    gin = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", SAM_MELDS + " 9D 8H QD 4D")
    game.add(None)
    game.add(gin, 0)
    game.add(gin, 0)
    assert game.over and not game.shutout and game.totals() == [112 + 100 + 50, 0]


def test_pagat_shutout_doubles_the_game_bonus():
    game = GameScore(PAGAT)
    gin = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", SAM_MELDS + " 9D 8H QD 4D", PAGAT)  # 51
    game.add(gin, 0)
    game.add(gin, 0)
    assert game.shutout and game.totals() == [102 + 200 + 40, 0]


def test_hollywood_writes_wins_into_open_games():
    rules = RuleSet.preset("classic", hollywood=True)
    score = HollywoodScore(rules)
    hand = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C AD", SAM_MELDS + " 9D 8H QD 4D")  # 30
    score.add(hand, 0)  # first win: game 1 only
    assert [g.running() for g in score.games] == [[30, 0], [0, 0], [0, 0]]
    score.add(hand, 1)  # Sam's first win: game 1
    score.add(hand, 0)  # second win: games 1 and 2
    score.add(hand, 0)  # third: all three
    assert [g.running() for g in score.games] == [[90, 30], [60, 0], [30, 0]]
    score.add(hand, 0)
    score.add(hand, 0)
    assert score.games[0].over and score.games[1].over and not score.games[2].over
    assert not score.over


def test_match_to_500():
    rules = RuleSet.preset("classic")
    match = MatchScore(rules)
    gin = score_knock("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", SAM_MELDS + " 9D 8H QD 4D")  # 56
    while not match.over:
        match.add(gin, 0)
    assert match.winner == 0 and match.totals()[0] >= 500 and len(match.finished) >= 2


@pytest.mark.parametrize(
    "knocker, other, message",
    [
        ("AS 2S", SAM_MELDS + " 9D 8H QD 4D", "10 cards"),
        ("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", "AS KH", "10 cards"),
        ("AS 2S 3S 4H 5H 6H 7C 8C 9C TC", SAM_MELDS + " 9D 8H QD AS", "both hands"),
        ("AS 2S 3S 4H 5H 6H 7C 8C 9C XX", SAM_MELDS + " 9D 8H QD 4D", "'XX'"),
    ],
)
def test_bad_score_input_is_refused(knocker, other, message):
    with pytest.raises(ValueError, match=message):
        score_knock(knocker, other)
