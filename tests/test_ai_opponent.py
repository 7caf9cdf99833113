"""The expert's opponent model learns the opponent's style from its own views only."""

from test_ai_expert_knock import high_knock_position, hunting
from test_ai_hidden import DEALER, blind_move, twin_decks

from gin3d.ai.expert import ExpertPlayer
from gin3d.ai.knowledge import Knowledge
from gin3d.ai.opponent import OpponentModel
from gin3d.ai.yardsticks import make_arena_player
from gin3d.engine import (
    CardDrawn,
    Discard,
    Game,
    Hand,
    Knock,
    Knocked,
    NextHand,
    RuleSet,
    card,
    deadwood_of_mask,
    mask_of,
)

PRIOR = OpponentModel()


def watch(
    opponent: str, hands: int = 24, seed: str = "model", predicted: float | None = None
) -> OpponentModel:
    """Seat 0 (knocking at once, so the opponent's cards are shown) plays ``opponent``;
    the model reads seat 0's views at its decisions and at the end of each hand (after
    each, as if seat 0 had sampled hands of ``predicted`` mean deadwood, when given)."""
    model = OpponentModel()
    players = [make_arena_player("simple", seed=1), make_arena_player(opponent, seed=2)]
    seen, game_no = 0, 0
    while seen < hands:
        game = Game(RuleSet.preset("classic"), seed=f"{seed}:{game_no}")
        game_no += 1
        while not game.over and seen < hands:
            if game.hand.over:
                model.update(game.view(0))
                seen += 1
                game.apply(NextHand())
                continue
            view = game.view(game.turn)
            if game.turn == 0:
                model.update(view)
                if predicted is not None:
                    model.predicted = predicted
            game.apply(players[game.turn].choose(view))
    return model


def test_an_eager_opponent_reads_as_knocking_early_and_never_laying_off():
    model = watch("eager")
    assert model.hands == 24 and model.knocks >= 5
    assert model.knock_rate > PRIOR.knock_rate  # it never turned a knock down
    assert model.layoff_rate < PRIOR.layoff_rate - 0.3  # it laid off nothing it could
    assert model.laid == 0 and model.layoff_chances >= 3


def test_a_patient_opponent_reads_as_turning_knocks_down():
    model = watch("patient")
    assert model.declines >= 2
    assert model.knock_rate < PRIOR.knock_rate
    assert model.knock_deadwood < PRIOR.knock_deadwood  # it knocks low when it knocks


def test_an_opponent_that_lays_off_keeps_a_high_layoff_rate():
    model = watch("simple")
    assert model.laid >= 3 and model.laid == model.layoff_chances
    assert model.layoff_rate >= PRIOR.layoff_rate


def test_reading_a_view_twice_counts_it_once():
    model = watch("eager", hands=3)
    game = Game(RuleSet.preset("classic"), seed="twice")
    view = game.view(game.turn)
    model.update(view)
    before = (model.draws, model.knocks, model.hands)
    model.update(view)
    assert (model.draws, model.knocks, model.hands) == before


def test_the_model_reads_only_what_the_view_shows():
    """Twin deals that differ only in the opponent's hidden cards leave the same tallies."""
    rules = RuleSet.preset("classic")
    for seed in range(4):
        hands = [Hand(rules, DEALER, deck) for deck in twin_decks(seed)]
        models = [OpponentModel(), OpponentModel()]
        for _ in range(30):
            views = [h.view(h.turn) for h in hands]
            if views[0].seat == 0:
                if views[0] != views[1]:
                    break  # a differing card has become visible to seat 0
                for model, view in zip(models, views):
                    model.update(view)
            acts = [blind_move(v) if v.seat == 1 else v.legal[-1] for v in views]
            for h, a in zip(hands, acts):
                h.apply(a)
        assert models[0] == models[1]
        assert models[0].draws > 0  # the opponent's draws were read


def test_the_expert_knocks_against_an_opponent_that_never_lays_off():
    view = high_knock_position()  # 10 deadwood, 28 cards in the stock
    waiting = hunting()
    assert type(waiting.choose(view)) is Discard  # the prior: it lays off, so hunt undercuts
    adapted = hunting()
    adapted.model.layoff_chances = 10  # it could have laid off ten cards and laid off none
    assert not adapted.hunts_undercuts(10)
    assert type(adapted.choose(view)) is Knock
    # playing the deals out: a knock it cannot lay off on is worth more
    know = Knowledge.of(view)
    hand = mask_of(view.hand) & ~(1 << int(card("8C")))
    prior, learnt = ExpertPlayer(seed=3), ExpertPlayer(seed=3)
    learnt.model.layoff_chances = 10
    assert learnt.knock_value(view, know, hand, 10) > prior.knock_value(view, know, hand, 10)


def test_the_samples_excess_deadwood_is_learnt_from_the_hands_our_knocks_show():
    # sampled hands far above the real ones: the excess rises from the prior
    high = watch("simple", hands=12, predicted=60.0)
    assert high.excess_count >= 3
    assert high.deal_excess > PRIOR.deal_excess + 5
    # sampled hands of no deadwood: every real hand holds more, the excess falls below 0
    low = watch("simple", hands=12, predicted=0.0)
    assert low.excess_count == high.excess_count
    assert low.deal_excess < 0 < PRIOR.deal_excess
    # every hand a knock or gin ended counts, ours and its own (a drawn hand shows nothing,
    # and is not among the hands scored)
    assert high.excess_count == high.hands


def test_its_own_knock_counts_the_hand_it_held_before_that_turn():
    """The deals of my last decision guessed its ten cards before its last draw: a knock
    after a pile draw gives that hand exactly (its cards and its discard, less the card
    taken); after a stock draw, the mean over the cards it may have drawn."""
    melds = [[card(c) for c in ("2H", "3H", "4H")], [card(c) for c in ("7S", "7D", "7C")]]
    rest = [card(c) for c in ("KD", "QC", "5S", "AD")]  # 26 deadwood, knock card 9D
    knock = Knocked(1, card("9D"), "knock", melds, [card("AD")])
    model = OpponentModel(predicted=40.0)
    model._held_known = set()
    model._last_draw = CardDrawn(1, "discard", card("KD"))
    full = mask_of([c for m in melds for c in m] + rest + [card("9D")])
    before = model._before_knock(knock)
    assert before is None  # its shown cards are not ten: the event is not a whole hand
    knock = Knocked(1, card("9D"), "knock", melds, rest)
    assert model._before_knock(knock) == deadwood_of_mask(full & ~(1 << card("KD")))
    model._last_draw = CardDrawn(1, "stock", None)
    cards = [c for c in range(52) if full >> c & 1]
    mean = sum(deadwood_of_mask(full & ~(1 << c)) for c in cards) / len(cards)
    assert model._before_knock(knock) == mean
    model._knocked(knock, 5)
    assert model.excess_count == 1 and model.excess_sum == 40.0 - mean
