"""RuleSet: the presets of RULES.md, overrides, and refused combinations."""

import pytest

from gin3d.engine import RuleSet, card

TABLE = {  # RULES.md "Scoring a hand — presets"
    "classic": dict(
        knock_limit=10,
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        box_bonus=25,
        game_target=100,
        game_bonus=100,
        shutout="double_hands",
    ),
    "pagat": dict(
        knock_limit=10,
        gin_bonus=20,
        big_gin_bonus=0,
        undercut_bonus=10,
        box_bonus=20,
        game_target=100,
        game_bonus=100,
        shutout="double_game_bonus",
    ),
    "oklahoma": dict(
        knock_limit_from_upcard=True,
        ace_upcard_gin_only=True,
        spade_upcard_doubles=True,
        gin_bonus=20,
        big_gin_bonus=0,
        undercut_bonus=10,
        box_bonus=20,
        game_target=150,
        game_bonus=100,
        shutout="double_game_bonus",
    ),
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_presets_match_the_rules_table(name):
    rules = RuleSet.preset(name)
    for field, value in TABLE[name].items():
        assert getattr(rules, field) == value, field
    assert rules.next_dealer == "winner" and rules.match_target == 500
    assert RuleSet.from_dict(rules.to_dict()) == rules


def test_default_is_classic():
    assert RuleSet() == RuleSet.preset("classic")


def test_overrides():
    rules = RuleSet.preset("pagat", big_gin_bonus=31)
    assert rules.big_gin_bonus == 31 and rules.gin_bonus == 20 and rules.big_gin_allowed
    assert rules.but(knock_limit=7).knock_limit == 7


def test_oklahoma_limits_from_the_upcard():
    okla = RuleSet.preset("oklahoma")
    assert okla.knock_limit_for(card("AH")) == 0
    assert okla.knock_limit_for(card("7D")) == 7
    assert okla.knock_limit_for(card("KC")) == 10
    assert okla.hand_multiplier(card("5S")) == 2 and okla.hand_multiplier(card("5H")) == 1
    assert RuleSet.preset("classic", straight_gin=True).knock_limit_for(card("KC")) == 0


@pytest.mark.parametrize(
    "preset, changes, message",
    [
        ("classic", {"colour": "red"}, "unknown rule option 'colour'"),
        ("classic", {"knock_limit": -1}, "knock_limit"),
        ("classic", {"gin_bonus": -5}, "gin_bonus"),
        ("classic", {"game_target": 0}, "game_target"),
        ("classic", {"match_target": 50}, "match_target"),
        ("classic", {"shutout": "triple"}, "shutout"),
        ("classic", {"next_dealer": "random"}, "next_dealer"),
        ("classic", {"last_chance": "yes"}, "last_chance"),
        ("classic", {"knock_limit": 7.5}, "knock_limit"),
        ("oklahoma", {"no_upcard": True}, "no_upcard"),
        ("oklahoma", {"straight_gin": True}, "straight_gin"),
        ("classic", {"ace_upcard_gin_only": True}, "ace_upcard_gin_only"),
    ],
)
def test_invalid_rules_are_refused(preset, changes, message):
    with pytest.raises(ValueError, match=message):
        RuleSet.preset(preset, **changes)


def test_unknown_preset():
    with pytest.raises(ValueError, match="unknown preset 'gin'"):
        RuleSet.preset("gin")


def test_describe_uses_the_numbers():
    lines = RuleSet.preset("pagat").describe()
    assert "Gin bonus: 20" in lines and "No Big Gin" in lines
