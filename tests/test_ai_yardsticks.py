"""The arena's yardsticks are true to their styles (their legality: test_ai_legal.py)."""

import pytest
from ai_positions import VARIANTS, drive

from gin3d import arena
from gin3d.ai.evaluate import melded_in_some_best
from gin3d.ai.yardsticks import (
    HUNTER_KNOCK_TURNS,
    PATIENT_KNOCK,
    arena_names,
    make_arena_player,
    own_turns,
)
from gin3d.engine import (
    BigGin,
    Discard,
    DrawDiscard,
    FinishLayoff,
    Knock,
    LayOff,
    RuleSet,
    deadwood_of_mask,
    mask_of,
)


@pytest.mark.parametrize("name", ["eager", "mirror:hard", "mirror:expert"])
def test_knocks_at_the_first_chance(name):
    knocks = 0

    def check(view, action):
        nonlocal knocks
        if view.phase == "discard" and any(type(a) in (Knock, BigGin) for a in view.legal):
            assert type(action) in (Knock, BigGin), (name, action, view.legal)
            knocks += 1

    for i, rules in enumerate(VARIANTS.values()):
        drive(make_arena_player(name, seed=i), rules, 300 + i, 120, on_decision=check)
    assert knocks >= 10


def test_eager_never_lays_off_and_patient_does():
    moves = {"eager": [], "patient": []}
    for name, out in moves.items():

        def record(view, action, out=out):
            if view.phase == "layoff" and any(type(a) is LayOff for a in view.legal):
                out.append(type(action))

        for i, rules in enumerate(VARIANTS.values()):
            drive(make_arena_player(name, seed=i), rules, 500 + i, 200, on_decision=record)
    assert moves["eager"] and set(moves["eager"]) == {FinishLayoff}
    assert LayOff in moves["patient"]


def test_patient_never_knocks_above_three():
    seen = []

    def check(view, action):
        if type(action) is Knock and any(type(a) is Discard for a in view.legal):
            left = deadwood_of_mask(mask_of(view.hand) & ~(1 << action.card))
            assert left <= PATIENT_KNOCK, (view.hand, action)
            seen.append(left)

    waited = 0

    def count_waits(view, action):
        nonlocal waited
        check(view, action)
        if type(action) is Discard and any(type(a) is Knock for a in view.legal):
            waited += 1

    for i, rules in enumerate(VARIANTS.values()):
        drive(make_arena_player("patient", seed=i), rules, 700 + i, 200, on_decision=count_waits)
    assert seen and waited  # it knocked low and it turned down knocks


def test_the_gin_hunter_knocks_early_or_for_gin_and_takes_only_into_melds():
    """Past its first few turns the hunter turns down every knock short of gin (unless only
    a knock is legal); it takes the pile's card only when it melds."""
    early = late_knocks = waited = takes = 0

    def check(view, action):
        nonlocal early, late_knocks, waited, takes
        throws = any(type(a) is Discard for a in view.legal)
        if type(action) is Knock and throws:
            left = deadwood_of_mask(mask_of(view.hand) & ~(1 << action.card))
            if own_turns(view) < HUNTER_KNOCK_TURNS:
                early += 1
            else:
                assert left == 0, (view.hand, action)  # gin only, this late
                late_knocks += 1
        if type(action) is Discard and any(type(a) is Knock for a in view.legal):
            assert own_turns(view) >= HUNTER_KNOCK_TURNS
            waited += 1
        if type(action) is DrawDiscard:
            assert melded_in_some_best([*view.hand, view.top], view.top)
            takes += 1

    rules = RuleSet.preset("eaai")
    drive(make_arena_player("hunter", seed=3), rules, 900, 1500, on_decision=check)
    assert waited and takes and (early or late_knocks)


def test_the_monte_carlo_player_goes_gin_and_prices_the_pile():
    """With gin in hand the playouts price gin above every throw; it takes a pile card only
    where it melds with two of the hand (priced against the stock), never one that melds with
    nothing."""
    from ship_hands import GIN

    from gin3d.ai.knowledge import completers
    from gin3d.ai.monte_carlo import MonteCarloPlayer
    from gin3d.engine import Game, card

    player = MonteCarloPlayer(8, seed=1)
    takes = passes = 0

    def check(view, action):
        nonlocal takes, passes
        mask = mask_of(view.hand)
        gin = [
            a
            for a in view.legal
            if type(a) is Knock and not deadwood_of_mask(mask & ~(1 << a.card))
        ]
        if gin:
            assert type(action) in (Knock, BigGin), (view.hand, action)
        if view.phase == "draw" and DrawDiscard in map(type, view.legal):
            if not completers(mask) >> view.top & 1:  # it melds with no two of the hand
                assert type(action) is not DrawDiscard, (view.hand, view.top)
                passes += 1
            elif type(action) is DrawDiscard:
                takes += 1

    drive(player, RuleSet.preset("eaai"), 1100, 400, on_decision=check)
    assert takes and passes
    # a hand one draw from gin (tests/ship_hands.py): drawn, gin is the choice
    hand = Game(RuleSet.preset("eaai"), "mc-gin", first_dealer=1, decks=[GIN[0]])
    for action in GIN[1][:3]:  # both pass the upcard, the non-dealer draws the 4S
        hand.apply(action)
    view = hand.view(hand.turn)
    assert player.choose(view) == Knock(card("KD"))
    with pytest.raises(ValueError, match="named mc or mc:N"):
        make_arena_player("mc:many")
    assert make_arena_player("mc:12").rollouts == 12


def test_the_eaai_rules_are_the_challenges(capsys):
    rules = RuleSet.preset("eaai")
    assert (rules.knock_limit, rules.gin_bonus, rules.undercut_bonus) == (10, 25, 25)
    assert (rules.big_gin_bonus, rules.box_bonus, rules.game_bonus) == (0, 0, 0)
    assert (rules.shutout, rules.next_dealer) == ("none", "alternate")
    assert arena.main(["hunter", "simple", "--games", "2", "--seed", "1", "--preset", "eaai"]) == 0
    assert "hunter vs simple: game win rate" in capsys.readouterr().out


def test_the_arena_accepts_yardsticks_by_name(capsys):
    assert {"eager", "patient", "random", "hunter", "mc", "mirror:hard", "mirror:expert"} <= set(
        arena_names()
    )
    assert arena.main(["mirror:simple", "random", "--games", "2", "--seed", "1"]) == 0
    assert "mirror:simple vs random: game win rate" in capsys.readouterr().out
    with pytest.raises(ValueError, match="unknown yardstick 'mirror:grandmaster'"):
        make_arena_player("mirror:grandmaster")
