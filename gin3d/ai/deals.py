"""Sampled opponent hands for the expert, weighted by how well each explains the opponent's play.

Cards are drawn one by one from the opponent model's probabilities (``Knowledge.p_opp``),
which treat the cards as independent. What the opponent did says more about whole hands
than about single cards, so each drawn hand is then weighted by how likely its play was
with it:

- a pile card it passed up that would have made a meld with two cards it still holds
  (and did not take from the pile later) is unlikely: it would have taken it;
- a pile card it took and still holds that melds with nothing in the hand is unlikely:
  pile cards are taken into melds;
- a card it threw that made a meld with two cards it still holds is unlikely;
- a hand within the knock limit is unlikely when it has played and not knocked, and a last
  discard that did not leave the least deadwood is unlikely;
- a hand holding loose cards worth more than a card it threw earlier is unlikely, beyond the
  cards it drew from the stock since (it throws its worst card, so a higher loose card it
  held then would have gone instead).

The weights are soft (an opponent may play oddly), and the checks are numpy-vectorised over
the hands (each card's meld partner pairs are index arrays).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import (
    CardDrawn,
    Discarded,
    Knocked,
    Passed,
    PlayerView,
    UpcardTurned,
    best_melds,
    deadwood_of_mask,
)
from ..engine.cards import VALUES
from ..engine.layoffs import MeldShape
from .evaluate import best_after_adding, bits
from .knowledge import PARTNER_PAIRS, Knowledge

PAIR_A = tuple(np.array([a for a, _ in PARTNER_PAIRS[c]], dtype=np.int64) for c in range(52))
PAIR_B = tuple(np.array([b for _, b in PARTNER_PAIRS[c]], dtype=np.int64) for c in range(52))


@dataclass(frozen=True)
class DealWeights:
    """How much less likely a hand is for each thing its owner's play contradicts."""

    knocked: float = 0.2  # it could have knocked with this hand and did not
    odd_discard: float = 0.05  # its last discard did not leave the least deadwood
    passed_meld: float = 0.05  # it passed up a pile card that melded with two of its cards
    loose_pickup: float = 0.1  # a pile card it took and holds melds with none of its cards
    partner_boost: float = 3.0  # draw the cards that meld with such a pile card this much more
    thrown_meld: float = 0.2  # it threw a card that melded with two of its cards
    older_discard: float = 0.3  # per loose card it holds above an earlier throw, unexplained


@dataclass(frozen=True)
class Moves:
    """The opponent's pile decisions this hand, each with the pile cards it took afterwards
    (those were not in its hand when it decided)."""

    passed: tuple[tuple[int, int], ...]  # (pile card it did not take, mask taken later)
    thrown: tuple[tuple[int, int], ...]  # (card it threw, mask taken later)


def opponent_moves(view: PlayerView) -> Moves:
    """Replay the view's history: what the opponent passed up and threw, in order."""
    opp = 1 - view.seat
    pile: list[int] = []
    passed: list[tuple[int, int]] = []
    thrown: list[tuple[int, int]] = []
    takes: list[tuple[int, int]] = []  # (position in the lists above, card taken)
    for e in view.history:
        t = type(e)
        if t is UpcardTurned or (t is Knocked and e.card is not None):
            pile.append(int(e.card))
        elif t is Passed and e.seat == opp and pile:
            passed.append((pile[-1], len(passed) + len(thrown)))
        elif t is CardDrawn and e.source == "discard" and pile:
            card = pile.pop()
            if e.seat == opp:
                takes.append((len(passed) + len(thrown), card))
        elif t is CardDrawn and e.seat == opp and pile:
            passed.append((pile[-1], len(passed) + len(thrown)))
        elif t is Discarded:
            pile.append(int(e.card))
            if e.seat == opp:
                thrown.append((int(e.card), len(passed) + len(thrown)))

    def later(at: int) -> int:
        return sum(1 << c for pos, c in takes if pos > at)

    return Moves(
        tuple((c, later(at)) for c, at in passed), tuple((c, later(at)) for c, at in thrown)
    )


def partners(cards) -> np.ndarray:
    """Per card: whether it could make a three-card meld with one of ``cards``."""
    out = np.zeros(52, dtype=bool)
    for c in cards:
        out[PAIR_A[c]] = True
        out[PAIR_B[c]] = True
    return out


def melds_with_two(held: np.ndarray, card: int, exclude: int = 0) -> np.ndarray:
    """Per hand (rows of the boolean ``held``): whether two of its cards, none in the mask
    ``exclude``, make a three-card meld with ``card``."""
    a, b = PAIR_A[card], PAIR_B[card]
    if exclude:
        keep = np.array(
            [not (exclude >> int(x) & 1 or exclude >> int(y) & 1) for x, y in zip(a, b)],
            dtype=bool,
        )
        a, b = a[keep], b[keep]
    if len(a) == 0:
        return np.zeros(len(held), dtype=bool)
    return (held[:, a] & held[:, b]).any(axis=1)


def play_likelihood(
    held: np.ndarray, moves: Moves, pickups: tuple[int, ...], dw: DealWeights
) -> np.ndarray:
    """Per hand: the product of the weights of the opponent's moves it contradicts."""
    out = np.ones(len(held))
    for card, later in moves.passed:
        out[melds_with_two(held, card, later)] *= dw.passed_meld
    for card, later in moves.thrown:
        out[melds_with_two(held, card, later)] *= dw.thrown_meld
    for card in pickups:
        out[~melds_with_two(held, card)] *= dw.loose_pickup
    return out


class Deals:
    """Opponent hands consistent with the view, as 52-bit masks with a weight each."""

    def __init__(
        self, know: Knowledge, n: int, rng: np.random.Generator, dw: DealWeights | None = None
    ) -> None:
        dw = dw or DealWeights()
        view = know.view
        unseen = np.fromiter(know.unseen, dtype=np.int64, count=len(know.unseen))
        h = know.opp_hidden
        if h > 0 and len(unseen) >= h:
            p = np.clip(know.p_opp[unseen], 1e-6, None)
            p *= np.where(partners(view.opponent_known)[unseen], dw.partner_boost, 1.0)
            keys = np.log(p)[None, :] + rng.gumbel(size=(n, len(unseen)))
            chosen = unseen[np.argpartition(-keys, h - 1, axis=1)[:, :h]]
        else:
            chosen = np.zeros((n, 0), dtype=np.int64)
        known = [c for c in range(52) if know.opp_known >> c & 1]
        held = np.zeros((len(chosen), 52), dtype=bool)
        held[np.arange(len(chosen))[:, None], chosen] = True
        held[:, known] = True
        self.masks: list[int] = []
        for row in chosen.tolist():
            m = know.opp_known
            for c in row:
                m |= 1 << c
            self.masks.append(m)
        self.deadwood = [deadwood_of_mask(m) for m in self.masks]
        weights = np.ones(len(self.masks))
        if h > 0:  # a hand laid out on the table is known: nothing to weigh
            pickups = tuple(c for c in view.opponent_known)
            moves = opponent_moves(view)
            weights *= play_likelihood(held, moves, pickups, dw)
            weights *= self._stance(view, dw)
            if dw.older_discard < 1.0:
                weights *= self._older(moves, dw)
        self.weights = weights
        total = self.weights.sum()
        self.norm = self.weights / total if total > 0 else self.weights
        self._layoff: np.ndarray | None = None

    @classmethod
    def given(cls, masks: list[int]) -> Deals:
        """Deals given outright, equally weighted (a measurement that tells the real hand)."""
        deals = cls.__new__(cls)
        deals.masks = list(masks)
        deals.deadwood = [deadwood_of_mask(m) for m in deals.masks]
        deals.weights = np.ones(len(deals.masks))
        deals.norm = deals.weights / max(1, len(deals.masks))
        deals._layoff = None
        return deals

    def layoff_share(self) -> np.ndarray:
        """Per card, the weighted share of the deals whose melds it could be laid off on
        (a run's next card at either end, a set's missing suit): the cards that cost us
        nothing when this opponent knocks. Made once per decision, on first use."""
        if self._layoff is None:
            share = np.zeros(52)
            for m, w in zip(self.masks, self.norm):
                if w > 0:
                    share[list(_layoff_targets(m))] += w
            self._layoff = share
        return self._layoff

    def drawn(self, n: int, rng: np.random.Generator) -> list[int]:
        """``n`` deals' indices drawn by weight (systematic resampling: each deal about
        n × its weight times), so a few play-outs follow the likely hands instead of whichever
        deals came first, most of them nearly weightless."""
        if not self.masks or n <= 0:
            return []
        edges = np.cumsum(self.norm)
        edges[-1] = 1.0
        points = (rng.random() + np.arange(n)) / n
        return np.searchsorted(edges, points, side="right").tolist()

    def _older(self, moves: Moves, dw: DealWeights) -> np.ndarray:
        """Weights for every throw of its: a card it holds loose now, worth more than a card
        it threw, was drawn after that throw (else it would have thrown it instead), so
        more such cards than its stock draws since is unlikely, once per card too many.
        (A hand's loose cards come from its best arrangement: one per hand, not vectorised.)"""
        thrown = moves.thrown
        out = np.ones(len(self.masks))
        n = len(thrown)
        for i, m in enumerate(self.masks if thrown else ()):
            loose = [(VALUES[c], c) for c in best_melds(bits(m)).deadwood]
            extra = 0
            for j, (card, later) in enumerate(thrown):
                draws = max(0, n - 1 - j - later.bit_count())  # stock draws since the throw
                high = sum(1 for v, c in loose if v > VALUES[card] and not later >> c & 1)
                extra += max(0, high - draws)
            if extra:
                out[i] = dw.older_discard**extra
        return out

    def _stance(self, view: PlayerView, dw: DealWeights) -> np.ndarray:
        """Weights for not having knocked and for the last discard."""
        played = any(s == 1 - view.seat for s, _ in view.discards)
        last = view.discards[-1][1] if view.discards and view.discards[-1][0] != view.seat else None
        out = np.ones(len(self.masks))
        for i, (m, d) in enumerate(zip(self.masks, self.deadwood)):
            if played and d <= view.knock_limit:
                out[i] *= dw.knocked
            # a sensible opponent threw a card that left it the least deadwood
            if last is not None and dw.odd_discard < 1.0 and d > 0:
                if best_after_adding(m, last) < d:
                    out[i] *= dw.odd_discard
        return out


def _layoff_targets(mask: int) -> set[int]:
    """The cards that fit the melds of the hand ``mask`` as it would lay them down (the
    engine's ``MeldShape.fits``, tried on the few cards each meld could take)."""
    out: set[int] = set()
    for meld in best_melds(bits(mask)).melds:
        shape = MeldShape.of(meld)
        if shape.is_set:
            near = [s * 13 + shape.rank for s in range(4)]
        else:
            near = [shape.suit * 13 + r for r in (shape.rank - 1, shape.high + 1) if 0 <= r < 13]
        out.update(c for c in near if shape.fits(c))
    return out
