"""The "expert" player: determinized search over the opponent hands the view allows.

It deals the opponent's hidden cards many times over, each deal drawn from the opponent model
and weighted by how well it explains the opponent's play (``deals``: the pile cards it passed
up, took and threw, and that it has not knocked). Over those deals it:

- prices a knock now (layoffs and undercuts included) against playing on for gin one more
  turn (the opponent may knock first, in which case a low hand can undercut it), each hand
  result priced by what it does to the chance of winning the game (``game_odds``);
- weighs deadwood more heavily when many of the deals are close to knocking, so it sheds
  points when the opponent is near and keeps a flexible hand when it is not.

While at least ``wait_stock`` cards are left it plays ``rollouts`` deals, drawn by their
weights, out to the hand's end (``rollout``: both sides greedy, the opponent knocking with
what the model says it knocks with, we playing on for gin or an undercut). It weighs the
knock against them by a rule fitted to what such decisions were really worth
(``knock_edge``; ``bench/bench_knock_values.py`` played both answers out from the game as it
stood, the hidden cards known to the bench alone): the knock's price, less half the
play-outs' value, plus a point for each point of the knock's deadwood and half a point for
each card left in the stock, must beat ``knock_margin`` (26). The play-outs are greedy and
noisy, so they count for half; a low hand that plays on still has its gin and undercut
chances ahead, a high one mostly the opponent's knock; and early in a hand the opponent is
far from a knock of its own, so a knock then catches it with more. A knock that wins the game in
most of the deals (its points, priced as the knock's price prices them, reach the target) is
taken at once, before the play-outs and their margin. It learns its opponent over the hands
of a game (``opponent.OpponentModel``): its layoffs and knock deadwood feed the knock's price
and the play-outs, and the deadwood the deals hold above its real hands (seen whenever a
knock shows them) scales the deals' deadwood in the knock's price. With ``rollouts`` = 0 it uses
the older undercut-hunting rule: it does not knock short of gin against an opponent that lays
off, and against one that knocks in most hands it hunts only with deadwood an undercut of its
usual knock can reach.

Draws and discards otherwise use the ``hard`` evaluation, with more weight on a hand's
shape and less on the danger of feeding the opponent a meld than hard gives them. Against
an opponent whose knocks carry plenty of deadwood, the extra weight its deadwood gets as
that knock nears (hard's ramp and the threat) counts a loose card less by the share of the
deals whose melds would take it as a layoff: when that opponent knocks, such a card costs
nothing, and the layoffs make undercuts. Sampling is numpy-vectorised (Gumbel top-k); a
time budget caps the number of deals.
"""

from __future__ import annotations

import dataclasses
import math
import time
import zlib
from dataclasses import dataclass

import numpy as np

from ..engine import (
    Action,
    Discard,
    PlayerView,
    best_layoff,
    best_melds,
    deadwood_of_mask,
)
from ..engine.cards import VALUES
from .deals import Deals, DealWeights
from .evaluate import best_after_adding, bits
from .game_odds import point_worth, win_chance
from .hard import DiscardScore, HardPlayer, Weights
from .knowledge import Knowledge, completers
from .opponent import OpponentModel
from .rollout import RolloutRules, play_out


@dataclass(frozen=True)
class ExpertWeights(Weights):
    # its own balance of hard's evaluation: a hand's shape counts more, the danger of feeding
    # the opponent a meld less (hard: 1.5 and 10; docs/ai.md, "A hand's shape over danger")
    potential: float = 2.0
    danger: float = 7.0
    samples: int = 96  # opponent deals per decision
    threat: float = 0.6  # extra weight on deadwood when the opponent is close to knocking
    threat_margin: int = 6  # a deal within knock limit + this counts as "close"
    deal: DealWeights = DealWeights()  # how the deals are weighed by the opponent's play
    stock_probe: int = 6  # stock cards tried per deal when asking "can the opponent knock next"
    budget_s: float = 0.25  # time cap for the sampling of one decision
    always_wait: int = 10  # with this much deadwood or less (not gin) always play on, as hard
    adapt: bool = True  # read the opponent model and the score (off: the fixed policy above)
    layoff_keep: float = 1.0  # against knocks of over fast_deadwood on average, in the
    # knock-threat part of a discard's score a loose card counts less by the share of deals
    # whose melds take it
    hunt_layoff: float = 0.5  # hunt undercuts against an opponent laying off this share or more
    fast_knocker: float = 0.8  # an opponent knocking in this share of hands or more knocks soon
    fast_deadwood: float = 4.9  # ... with more deadwood than this on average (not patient;
    # just under the model's prior of 5, so the layoffs count from a game's first hand)
    hunt_margin: float = 2.0  # against it, hunt only within this of its usual knock deadwood
    rollouts: int = 24  # deals played out to price playing on while the stock lasts (0: rule)
    correct_excess: bool = True  # price knocks with the deals' deadwood brought to the real
    # while the stock lasts it knocks when the knock's price, less the play-outs' value of
    # playing on at knock_hunt, plus knock_deadwood a point of its deadwood and knock_stock a
    # card left in the stock, beats knock_margin (fitted: bench/bench_knock_values.py)
    knock_margin: float = 26.0
    knock_hunt: float = 0.5
    knock_deadwood: float = 1.0
    knock_stock: float = 0.5
    game_knock: float = 0.5  # knock at once when it wins the game in this share of deals (0: off)


def knock_edge(w: ExpertWeights, knock: float, hunt: float, deadwood: int, stock: int) -> float:
    """What the knock rule weighs against ``knock_margin`` while the stock lasts: the
    knock's price ``knock``, less the play-outs' value of playing on ``hunt`` at its share,
    plus its weights for the knock's deadwood and for the cards left in the stock."""
    return knock - w.knock_hunt * hunt + w.knock_deadwood * deadwood + w.knock_stock * stock


class ExpertPlayer(HardPlayer):
    """Hard's evaluation plus sampled opponent hands for knock timing and threat."""

    level = "expert"
    weights = ExpertWeights()

    def __init__(self, seed: int | str | None = None, name: str | None = None) -> None:
        super().__init__(seed=seed, name=name)
        self.np_rng = np.random.default_rng(
            zlib.crc32(f"expert:{seed}".encode()) if seed is not None else None
        )
        self.model = OpponentModel()
        self._deals: Deals | None = None  # this decision's deals, made when first needed

    def choose(self, view: PlayerView) -> Action:
        self.model.update(view)
        return super().choose(view)

    def observe(self, view: PlayerView) -> None:
        """Learn from a view the game driver shows between decisions (the end of a hand)."""
        self.model.update(view)

    def decide(self, view: PlayerView) -> Action:
        self._deals = None
        return super().decide(view)

    # -- what the opponent and the score say ----------------------------------------------
    def knock_rate(self) -> float:
        """Chance the opponent knocks when it may (a fixed 1 when not adapting)."""
        return self.model.knock_rate if self.weights.adapt else 1.0

    def layoff_rate(self) -> float:
        return self.model.layoff_rate if self.weights.adapt else 1.0

    def knocks_fast(self) -> bool:
        """Whether the opponent knocks at its first chance: in most hands (``fast_knocker``),
        with plenty of deadwood (``fast_deadwood``: not a patient player's low knocks)."""
        m, w = self.model, self.weights
        return m.knock_share >= w.fast_knocker and m.knock_deadwood > w.fast_deadwood

    def hunts_undercuts(self, deadwood: int) -> bool:
        """Whether to play on short of gin with ``deadwood`` while the stock lasts.

        It pays against an opponent that lays off (a small knock of ours gains little and is
        often undercut) while its knock is likely to be undercut: against one that knocks at
        its first chance (in most hands, with more deadwood than ``fast_deadwood`` on
        average), only when our deadwood is within ``hunt_margin`` of what it usually knocks
        with (above that, its knock beats us and waiting only loses). Against one that does
        not lay off, the knock is priced. Against a patient opponent (knocking low, or in few
        hands) it keeps waiting: that opponent holds low deadwood, so a knock of ours is the
        one undercut."""
        w = self.weights
        if not w.adapt:
            return True
        m = self.model
        if m.layoff_rate < w.hunt_layoff:
            return False
        return not self.knocks_fast() or deadwood <= m.knock_deadwood + w.hunt_margin

    def hand_value(self, view: PlayerView, mine: float) -> float:
        """What a hand result of ``mine`` points (negative: the opponent's) is worth to me,
        in points at this score: the change in my chance to win the game, over what a point
        is worth here. Points past the target count for nothing, a hand that ends the game
        for all it decides, and box bonuses (never counted toward the target) not at all."""
        if not self.weights.adapt or mine == 0:
            return mine
        need = view.target - view.scores[view.seat]
        their = view.target - view.scores[1 - view.seat]
        now = win_chance(need, their, view.target)
        if mine > 0:
            after = win_chance(need - int(mine), their, view.target)
        else:
            after = win_chance(need, their + int(mine), view.target)
        return (after - now) / point_worth(need, their, view.target)

    def deals(self, know: Knowledge) -> Deals:
        if self._deals is None:
            w = self.weights
            knocked = max(w.deal.knocked, 1.0 - self.knock_rate())
            dw = dataclasses.replace(w.deal, knocked=knocked)
            self._deals = Deals(know, w.samples, self.np_rng, dw)
            if self._deals.masks:
                mean = float(np.dot(self._deals.norm, self._deals.deadwood))
                self.model.predicted = mean
        return self._deals

    # -- discards weigh deadwood by the opponent's threat -------------------------------
    def threat(self, know: Knowledge) -> float:
        """Weighted share of deals within reach of a knock."""
        deals = self.deals(know)
        if not deals.masks:
            return 0.0
        reach = know.view.knock_limit + self.weights.threat_margin
        close = np.array([d <= reach for d in deals.deadwood], dtype=np.float64)
        return float((close * deals.norm).sum())

    def score_discards(
        self, mask: int, know: Knowledge, cards: list[int], with_danger: bool = True
    ) -> list[DiscardScore]:
        scores = super().score_discards(mask, know, cards, with_danger)
        if not with_danger:
            return scores
        w = self.weights
        extra = w.threat * self.threat(know) * self.knock_rate()
        # the deadwood its knock catches is what is left after our layoffs on its melds:
        # against a knock with plenty of deadwood they make undercuts (against a patient
        # one, knocking low, they rarely do, and keeping such cards costs gin chances)
        keep = 0.0
        if w.adapt and self.model.knock_deadwood > w.fast_deadwood:
            keep = w.layoff_keep * (self.deadwood_weight(know) - 1.0 + extra)
        if extra <= 0 and keep <= 0:
            return scores
        lay = self.deals(know).layoff_share() if keep > 0 else None
        out = []
        for s in scores:
            score = s.score + extra * s.deadwood
            if lay is not None:
                loose = best_melds(bits(mask & ~(1 << s.card))).deadwood
                score -= keep * sum(VALUES[c] * lay[c] for c in loose)
            out.append(DiscardScore(s.card, s.deadwood, s.potential, s.danger, score))
        out.sort(key=lambda s: (s.score, s.deadwood, -VALUES[s.card], s.card))
        return out

    # -- knock now or play on -------------------------------------------------------------
    def choose_knock(self, view: PlayerView, know: Knowledge, knocks: list[int]) -> int | None:
        mask = know.mine
        left = {c: deadwood_of_mask(mask & ~(1 << c)) for c in knocks}
        least = min(left.values())
        if least == 0:
            return min((c for c in knocks if left[c] == 0), key=lambda c: (-VALUES[c], c))
        # among knock cards leaving the least (or nearly), the one the deals pay most for
        options = sorted(
            (c for c in knocks if left[c] <= least + 2), key=lambda c: (left[c], -VALUES[c], c)
        )[:3]
        values = [(self.knock_value(view, know, mask & ~(1 << c), left[c]), c) for c in options]
        knock_ev, card = max(values, key=lambda v: (v[0], -left[v[1]]))
        if not any(type(a) is Discard for a in view.legal):
            return card
        w = self.weights
        if left[card] <= w.always_wait and view.stock_count >= w.wait_stock:
            if w.adapt and w.rollouts:
                hand = mask & ~(1 << card)
                if w.game_knock and self.game_share(view, know, hand, left[card]) >= w.game_knock:
                    return card
                hunt_ev = self.hunt_value(view, know)
                edge = knock_edge(w, knock_ev, hunt_ev, left[card], view.stock_count)
                return card if edge > w.knock_margin else None
            if self.hunts_undercuts(left[card]):
                return None
        wait_ev, _ = self.wait_value(view, know, knock_ev)
        return card if knock_ev >= wait_ev else None

    def their_knock(self, view: PlayerView) -> int:
        """The deadwood the opponent knocks with or less, as the model reads it: any legal
        knock for one that knocks in most hands with plenty, else about twice its average."""
        limit = view.knock_limit
        if self.knocks_fast():
            return limit
        return min(limit, max(1, round(2 * self.model.knock_deadwood)))

    def hunt_value(self, view: PlayerView, know: Knowledge) -> float:
        """Expected worth of discarding and playing on for gin while the stock lasts:
        ``rollouts`` deals drawn by weight, each played out to the hand's end (``rollout``)."""
        discards = [a.card for a in view.legal if type(a) is Discard]
        best = self.score_discards(know.mine, know, discards)[0]
        hand = know.mine & ~(1 << best.card)
        w = self.weights
        r = view.rules
        rules = RolloutRules(
            view.knock_limit, r.gin_bonus, r.undercut_bonus, self.their_knock(view), w.wait_stock
        )
        deals = self.deals(know)
        n = w.rollouts
        start = time.perf_counter()
        total = 0.0
        played = 0
        for i in deals.drawn(n, self.np_rng):
            m = deals.masks[i]
            stock = bits(know.unseen_mask & ~m)
            self.rng.shuffle(stock)
            total += self.hand_value(view, play_out(hand, m, best.card, stock, rules))
            played += 1
            if time.perf_counter() - start > w.budget_s / 2:
                break
        return total / played if played else -math.inf

    def deal_scale(self, deals: Deals) -> float:
        """Factor bringing the deals' deadwood down to what this opponent really holds
        (the model's learnt excess); 1 when not adapting."""
        w = self.weights
        if not (w.adapt and w.correct_excess) or not deals.masks:
            return 1.0
        mean = float(np.dot(deals.norm, deals.deadwood))
        return max(0.0, 1.0 - self.model.deal_excess / mean) if mean > 0 else 1.0

    def knock_value(self, view: PlayerView, know: Knowledge, hand: int, d: int) -> float:
        """Expected points of knocking with the 10 cards ``hand`` (deadwood ``d``)."""
        deals = self.deals(know)
        if not deals.masks:
            return 0.0
        melds = best_melds(bits(hand)).melds
        rules = view.rules
        lay = self.layoff_rate()
        scale = self.deal_scale(deals)
        start = time.perf_counter()
        total = 0.0
        weight = 0.0
        for m, w, raw in zip(deals.masks, deals.norm, deals.deadwood):
            od, _ = best_layoff(melds, bits(m))
            gain = 0.0
            for share, left in ((lay, od * scale), (1.0 - lay, raw * scale)):
                if share > 0:
                    mine = left - d if d < left else -(d - left + rules.undercut_bonus)
                    gain += share * self.hand_value(view, mine)
            total += w * gain
            weight += w
            if time.perf_counter() - start > self.weights.budget_s / 2:
                break
        return total / weight if weight else 0.0

    def game_share(self, view: PlayerView, know: Knowledge, hand: int, d: int) -> float:
        """Weighted share of the deals in which knocking with the 10 cards ``hand``
        (deadwood ``d``) wins the game: its points, priced as the knock's price prices them
        (layoffs mixed by the model's rate, the deals' deadwood brought to the real), reach
        the points still needed."""
        deals = self.deals(know)
        need = view.target - view.scores[view.seat]
        if not deals.masks:
            return 0.0
        scale = self.deal_scale(deals)
        if max(deals.deadwood) * scale - d < need:  # no deal holds enough, layoffs or not
            return 0.0
        melds = best_melds(bits(hand)).melds
        lay = self.layoff_rate()
        total = weight = 0.0
        for m, w, raw in zip(deals.masks, deals.norm, deals.deadwood):
            od, _ = best_layoff(melds, bits(m))
            wins = lay * (od * scale - d >= need) + (1.0 - lay) * (raw * scale - d >= need)
            total += w * wins
            weight += w
        return total / weight if weight else 0.0

    def wait_value(
        self, view: PlayerView, know: Knowledge, knock_ev: float
    ) -> tuple[float, int | None]:
        """Expected points of discarding instead and knocking (or going gin) next turn."""
        discards = [a.card for a in view.legal if type(a) is Discard]
        best = self.score_discards(know.mine, know, discards)[0]
        hand = know.mine & ~(1 << best.card)
        d = best.deadwood
        rules = view.rules
        limit = view.knock_limit
        # my next draw: chance of gin, and expected deadwood when not gin
        comp = completers(hand)
        p_gin = 0.0
        saved = 0.0
        for c in know.unseen:
            p = know.p_draw[c]
            if not p:
                continue
            after = best_after_adding(hand, c) if comp >> c & 1 else d
            if after == 0:
                p_gin += p
            else:
                saved += p * (d - after)
        saved = saved / max(1e-9, 1.0 - p_gin)
        deals = self.deals(know)
        rng = self.rng
        unseen = list(know.unseen)
        total = 0.0
        start = time.perf_counter()
        weight = 0.0
        rate = self.knock_rate()
        value = self.hand_value
        for m, w, od in zip(deals.masks, deals.norm, deals.deadwood):
            # can the opponent knock on its next turn? it takes my discard or draws
            reach = best_after_adding(m, best.card)
            if reach > limit:
                pool = [c for c in unseen if not m >> c & 1]
                probe = rng.sample(pool, min(len(pool), self.weights.stock_probe))
                hits = [best_after_adding(m, c) for c in probe]
                ok = [x for x in hits if x <= limit]
                q = len(ok) / len(hits) if hits else 0.0
                their = min(ok) if ok else limit
            else:
                q, their = 1.0, reach
            if their == 0:
                lose = value(view, -(d + rules.gin_bonus))  # gin is never turned down
            elif d <= their:
                lose = value(view, their - d + rules.undercut_bonus)
                q *= rate
            else:
                lose = value(view, -(d - their))
                q *= rate
            win = p_gin * value(view, od + rules.gin_bonus) + (1 - p_gin) * (knock_ev + saved)
            total += w * (q * lose + (1 - q) * win)
            weight += w
            if time.perf_counter() - start > self.weights.budget_s / 2:
                break
        return (total / weight if weight else -math.inf), best.card
