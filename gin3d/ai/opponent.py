"""What this opponent is like, learnt from what one seat sees over the hands of a game.

The expert reads the opponent's style from its views only: when and with how much it knocks,
whether it turned down a knock it had (its last ten cards, shown when our knock ends the
hand, had deadwood within the knock limit), how many of the cards it could lay off it did,
and how often it takes the pile's card. Each estimate starts from a prior worth a few hands
of a knock-happy player that lays off, and moves as hands are seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import (
    CardDrawn,
    Discarded,
    HandScored,
    Knocked,
    PlayerView,
    best_layoff,
    deadwood_of_mask,
    mask_of,
)
from ..engine.cards import VALUES
from .evaluate import bits
from .player import hand_key

# priors, as pseudo-counts
PRIOR_KNOCKS, PRIOR_DECLINES = 3.0, 1.0  # knocks when it can about 3 times in 4
PRIOR_KNOCK_DEADWOOD, PRIOR_KNOCK_WEIGHT = 5.0, 2.0
PRIOR_LAID, PRIOR_LAYOFF_CHANCES = 2.7, 3.0  # lays off about 9 cards in 10
PRIOR_PICKUPS, PRIOR_DRAWS = 1.0, 4.0
PRIOR_KNOCKED_HANDS, PRIOR_HANDS = 1.0, 2.0  # knocks in about half of the hands
PRIOR_EXCESS, PRIOR_EXCESS_WEIGHT = 2.0, 2.0  # sampled hands hold about 2 deadwood too many


@dataclass
class OpponentModel:
    """Running tallies of one opponent's habits, and the estimates read from them."""

    knocks: float = 0.0  # its knocks and gins
    declines: float = 0.0  # hands where it held a knock it did not make
    knock_deadwood_sum: float = 0.0  # deadwood of its plain knocks
    plain_knocks: float = 0.0
    knock_turn_sum: float = 0.0  # its turns played at each knock
    laid: float = 0.0  # cards it laid off on my knocks
    layoff_chances: float = 0.0  # cards it could have laid off
    pickups: float = 0.0  # its draws from the pile
    draws: float = 0.0  # all its draws
    hands: int = 0  # hands seen to the end
    excess_sum: float = 0.0  # sampled deadwood above its real one, at the hands' knocks
    excess_count: float = 0.0
    predicted: float | None = None  # the sampled hands' mean deadwood at my last decision
    _key: tuple | None = None  # the hand being read (seat, number, my dealt cards)
    _last_draw: CardDrawn | None = None  # its last draw this hand
    _held_known: set[int] = field(default_factory=set)  # pile cards it took and still holds
    _read: int = 0  # events of that hand already read

    # -- estimates ------------------------------------------------------------------------
    @property
    def knock_rate(self) -> float:
        """Chance it knocks when it may (1: at the first chance)."""
        k = self.knocks + PRIOR_KNOCKS
        return k / (k + self.declines + PRIOR_DECLINES)

    @property
    def knock_deadwood(self) -> float:
        """Average deadwood it knocks with."""
        total = self.knock_deadwood_sum + PRIOR_KNOCK_DEADWOOD * PRIOR_KNOCK_WEIGHT
        return total / (self.plain_knocks + PRIOR_KNOCK_WEIGHT)

    @property
    def knock_turn(self) -> float:
        """Average number of its turns before it knocks (0 before any knock was seen)."""
        return self.knock_turn_sum / self.knocks if self.knocks else 0.0

    @property
    def knock_share(self) -> float:
        """Share of the hands it ends by knocking (or gin): how soon it knocks in practice."""
        return (self.knocks + PRIOR_KNOCKED_HANDS) / (self.hands + PRIOR_HANDS)

    @property
    def deal_excess(self) -> float:
        """How much more deadwood the sampled hands hold on average than its real hand,
        seen whenever a knock or gin shows its cards: my knock shows the ten cards the deals
        of my last decision guessed, its own knock the hand it held before that turn."""
        total = self.excess_sum + PRIOR_EXCESS * PRIOR_EXCESS_WEIGHT
        return total / (self.excess_count + PRIOR_EXCESS_WEIGHT)

    @property
    def layoff_rate(self) -> float:
        """Share of the cards it could lay off that it does lay off."""
        return (self.laid + PRIOR_LAID) / (self.layoff_chances + PRIOR_LAYOFF_CHANCES)

    @property
    def pickup_rate(self) -> float:
        """Share of its draws taken from the pile."""
        return (self.pickups + PRIOR_PICKUPS) / (self.draws + PRIOR_DRAWS)

    # -- learning -------------------------------------------------------------------------
    def update(self, view: PlayerView) -> None:
        """Read the events of ``view``'s hand not read yet (a new hand starts afresh)."""
        history = view.history
        key = hand_key(view)
        if key != self._key:
            self._key, self._read, self.predicted = key, 0, None
            self._last_draw, self._held_known = None, set()
        opp = 1 - view.seat
        turns = sum(1 for e in history[: self._read] if type(e) is Discarded and e.seat == opp)
        for e in history[self._read :]:
            t = type(e)
            if t is Discarded and e.seat == opp:
                turns += 1
                self._held_known.discard(int(e.card))
            elif t is CardDrawn and e.seat == opp:
                self.draws += 1
                self.pickups += e.source == "discard"
                self._last_draw = e
                if e.source == "discard" and e.card is not None:
                    self._held_known.add(int(e.card))
            elif t is Knocked and e.seat == opp:
                self._knocked(e, turns + 1)
            elif t is HandScored:
                self._scored(e, opp, view.knock_limit)
        self._read = len(history)

    def _knocked(self, e: Knocked, turn: int) -> None:
        self.knocks += 1
        self.knock_turn_sum += turn
        if e.kind == "knock":
            self.plain_knocks += 1
            self.knock_deadwood_sum += sum(VALUES[int(c)] for c in e.deadwood)
        before = self._before_knock(e)
        if before is not None and self.predicted is not None:
            self.excess_sum += self.predicted - before
            self.excess_count += 1

    def _before_knock(self, e: Knocked) -> float | None:
        """The deadwood of its ten cards before the turn it knocked on (the hand the deals of
        my last decision guessed): its shown cards and its discard, less the card it drew;
        a stock card is any of the cards it had not taken from the pile (their mean)."""
        full = mask_of([c for m in e.melds for c in m] + list(e.deadwood))
        if e.card is not None:
            full |= 1 << int(e.card)
        if full.bit_count() != 11:
            return None
        draw = self._last_draw
        if draw is not None and draw.source == "discard" and draw.card is not None:
            return float(deadwood_of_mask(full & ~(1 << int(draw.card))))
        drawn = [c for c in bits(full) if c not in self._held_known]
        if not drawn:
            return None
        return sum(deadwood_of_mask(full & ~(1 << c)) for c in drawn) / len(drawn)

    def _scored(self, e: HandScored, opp: int, limit: int) -> None:
        """The end of a hand I knocked: its ten cards and its layoffs are shown."""
        self.hands += 1
        r = e.result
        if e.knocker == opp:
            return
        cards = [c for m in r.other_melds for c in m] + list(r.other_deadwood_cards)
        cards += [c for c, _ in r.layoffs]
        mask = 0
        for c in cards:
            mask |= 1 << int(c)
        real = deadwood_of_mask(mask)
        if len(cards) == 10 and real <= limit:
            self.declines += 1  # it could have knocked instead of its last discard
        if len(cards) == 10 and self.predicted is not None:
            self.excess_sum += self.predicted - real
            self.excess_count += 1
        if r.kind in ("gin", "big_gin"):
            return  # no layoffs on gin
        _, plan = best_layoff(r.knocker_melds, cards)
        possible = max(len(plan), len(r.layoffs))
        self.layoff_chances += possible
        self.laid += len(r.layoffs)
