"""Every level only ever returns legal actions, in every phase and under every preset."""

import pytest
from ai_positions import VARIANTS, drive

from gin3d.ai import LEVELS, Player, make_player
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import LayOff

DECISIONS = {"beginner": 600, "simple": 600, "hard": 400, "expert": 250}
# the arena's yardsticks (not in the menu) are held to the same test
DECISIONS |= {
    "eager": 500,
    "patient": 300,
    "random": 500,
    "mirror:hard": 300,
    "hunter": 400,
    "mc:4": 200,
}
# deal seeds per level, picked so that each level meets every phase (hard and expert now
# rarely let a hand run to the stock end, where the last-chance pickup happens)
SEED_BASE = {"beginner": 100, "simple": 100, "hard": 199, "expert": 207}
PHASES = ("upcard", "draw", "discard", "knock", "layoff", "last_chance", "stock_end")
# a random hand is rarely low enough for the other mover to knock (no layoff phase), and
# the yardsticks are not held to the rare last-chance and stock-end positions
YARDSTICK_PHASES = {"random": PHASES[:4]}


@pytest.mark.parametrize("level", sorted(DECISIONS))
def test_levels_return_only_legal_actions(level):
    seen: set[str] = set()
    count = 0

    def check(view, action):
        nonlocal count
        assert action in view.legal, (level, view.phase, action, view.legal)
        count += 1

    for i, (_name, rules) in enumerate(sorted(VARIANTS.items())):
        player = make_arena_player(level, seed=i)
        assert isinstance(player, Player)
        seed = SEED_BASE.get(level, 100) + i
        seen |= drive(player, rules, seed=seed, decisions=DECISIONS[level], on_decision=check)
    assert count == DECISIONS[level] * len(VARIANTS)
    phases = PHASES if level in LEVELS else YARDSTICK_PHASES.get(level, PHASES[:5])
    for phase in phases:
        assert phase in seen, f"{level} was never asked in phase {phase}"


def test_layoffs_are_the_optimal_plan():
    from gin3d.engine import FinishLayoff, Hand, RuleSet, best_layoff, parse_cards

    # a hand where the other seat knocks, then our player lays off; run the whole plan
    for level in ("simple", "hard", "expert"):
        player = make_player(level, seed=1)
        for seed in range(40):
            hand = Hand.deal(RuleSet.preset("classic"), dealer=0, seed=seed)
            steps = 0
            while hand.phase != "layoff" and not hand.over and steps < 200:
                view = hand.view(hand.turn)
                knocks = [a for a in view.legal if type(a).__name__ == "Knock"]
                hand.apply(knocks[0] if knocks else make_player("simple", seed=2).choose(view))
                steps += 1
            if hand.phase != "layoff":
                continue
            expected, _ = best_layoff(hand.table_melds, hand.hands[hand.turn])
            while hand.phase == "layoff":
                action = player.choose(hand.view(hand.turn))
                assert isinstance(action, (LayOff, FinishLayoff))
                hand.apply(action)
            assert hand.result.other_deadwood == expected
    assert parse_cards("AS")  # the helpers above stay importable


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        make_player("grandmaster")


def test_level_metadata_is_complete():
    assert list(LEVELS) == ["beginner", "simple", "hard", "expert"]
    for level, meta in LEVELS.items():
        assert meta.level == level
        assert meta.name and meta.display_name and len(meta.portrait) > 80
        lo, hi = meta.think_seconds
        assert 0 < lo < hi < 5
        player = make_player(level, seed=3)
        assert player.level == level and player.name == meta.name
        assert lo <= player.think_seconds() <= hi
