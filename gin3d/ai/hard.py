"""The "hard" player: hand evaluation over the cards still unseen.

A 10-card hand is worth its deadwood minus what the coming draws should save: each unseen
card counts with the chance that it is still in the stock (the opponent model in
``knowledge``), and a card that completes a meld counts for the deadwood it would really save.
Discards that would give the opponent a meld cost extra, and deadwood weighs more each turn
the opponent has played, since its knock (which costs every point still held) comes closer.
It takes the pile's top card when the hand it leaves beats the expected hand after a stock
draw, knocks with the card that leaves the least (playing on for gin or an undercut with 6 or
less while the stock lasts), and lays off optimally.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import (
    Action,
    BigGin,
    Discard,
    Knock,
    PlayerView,
    deadwood_of_mask,
)
from ..engine.cards import VALUES
from .evaluate import potential
from .greedy import next_layoff
from .knowledge import Knowledge
from .player import DRAW_DISCARD, DRAW_STOCK, PASS, ComputerPlayer


@dataclass(frozen=True)
class Weights:
    """The evaluation's knobs, in deadwood points."""

    potential: float = 1.5  # how many draws' worth of improvement a hand's shape is worth
    danger: float = 10.0  # cost of a discard the opponent surely melds
    take_margin: float = 1.0  # a pile card must beat the stock by this (it shows our hand)
    candidate_margin: int = 10  # discards leaving more than the least + this are not studied
    max_candidates: int = 6
    wait_deadwood: int = 6  # play on for gin with this much deadwood or less (0: never)
    wait_stock: int = 4  # ... while at least this many cards are left in the stock
    ramp: float = 0.4  # extra weight on deadwood per opponent turn past ramp_start
    ramp_start: int = 3  # opponent turns before its knock becomes a threat


@dataclass(frozen=True)
class DiscardScore:
    card: int
    deadwood: int  # deadwood left after the discard
    potential: float  # expected saving of the next draw
    danger: float  # chance the opponent can meld the card
    score: float  # lower is better


class HardPlayer(ComputerPlayer):
    """Counts live cards, reads the opponent's pickups and discards, and discards safely."""

    level = "hard"
    weights = Weights()

    def decide(self, view: PlayerView) -> Action:
        phase = view.phase
        if phase == "layoff":
            return next_layoff(view)
        if phase == "last_chance":
            return DRAW_DISCARD if DRAW_DISCARD in view.legal else PASS
        know = Knowledge.of(view)
        if phase in ("upcard", "draw"):
            return self.draw(view, know)
        return self.discard(view, know)

    # -- scoring ------------------------------------------------------------------------
    def score_discards(
        self, mask: int, know: Knowledge, cards: list[int], with_danger: bool = True
    ) -> list[DiscardScore]:
        """Score throwing each of ``cards`` from the 11-card hand ``mask`` (best first)."""
        w = self.weights
        left = sorted((deadwood_of_mask(mask & ~(1 << c)), c) for c in cards)
        least = left[0][0]
        dw_w = self.deadwood_weight(know)
        out = []
        for dw, c in left[: w.max_candidates]:
            if dw > least + w.candidate_margin:
                break
            pot = potential(mask & ~(1 << c), know.p_draw, know.unseen, dw)
            danger = know.danger(c) if with_danger else 0.0
            out.append(
                DiscardScore(c, dw, pot, danger, dw_w * dw - w.potential * pot + w.danger * danger)
            )
        out.sort(key=lambda s: (s.score, s.deadwood, -VALUES[s.card], s.card))
        return out

    def deadwood_weight(self, know: Knowledge) -> float:
        """Weight of deadwood in a discard's score: it grows as the opponent nears a knock."""
        w = self.weights
        if not w.ramp:
            return 1.0
        turns = sum(1 for s, _ in know.view.discards if s != know.view.seat)
        return 1.0 + w.ramp * max(0, turns - w.ramp_start)

    def stock_value(self, mask: int, know: Knowledge) -> float:
        """Expected score of the hand after drawing from the stock (same scale as a discard)."""
        dw = deadwood_of_mask(mask)
        pot = potential(mask, know.p_draw, know.unseen, dw)
        return self.deadwood_weight(know) * dw - (1.0 + self.weights.potential) * pot

    # -- decisions ----------------------------------------------------------------------
    def draw(self, view: PlayerView, know: Knowledge) -> Action:
        fallback = PASS if PASS in view.legal else DRAW_STOCK
        top = view.top
        if DRAW_DISCARD not in view.legal or top is None:
            return fallback
        mask = know.mine
        full = mask | (1 << top)
        take = self.score_discards(full, know, list(view.hand), with_danger=False)[0].score
        if take + self.weights.take_margin < self.stock_value(mask, know):
            return DRAW_DISCARD
        return fallback

    def discard(self, view: PlayerView, know: Knowledge) -> Action:
        if BigGin() in view.legal:
            return BigGin()
        mask = know.mine
        knocks = [a.card for a in view.legal if type(a) is Knock]
        if knocks:
            card = self.choose_knock(view, know, knocks)
            if card is not None:
                return Knock(card)
        discards = [a.card for a in view.legal if type(a) is Discard]
        if not discards:  # must knock (a throw-back or last-chance pickup)
            return Knock(min(knocks, key=lambda c: deadwood_of_mask(mask & ~(1 << c))))
        return Discard(self.score_discards(mask, know, discards)[0].card)

    def choose_knock(self, view: PlayerView, know: Knowledge, knocks: list[int]) -> int | None:
        """The card to knock with (least deadwood left), or None to play on for gin.

        With very little deadwood and plenty of stock left it waits: a knock-happy opponent
        who knocks first is then likely to be undercut, and gin pays a bonus.
        """
        mask = know.mine
        card = min(knocks, key=lambda c: (deadwood_of_mask(mask & ~(1 << c)), -VALUES[c], c))
        d = deadwood_of_mask(mask & ~(1 << card))
        w = self.weights
        if (
            0 < d <= w.wait_deadwood
            and view.stock_count >= w.wait_stock
            and any(type(a) is Discard for a in view.legal)
        ):
            return None
        return card
