"""PlayerView: exactly what one seat may know. The AI, network and HUD read only this.

A view is a frozen snapshot of copied values. It holds no reference to the Hand it came
from, so nothing reachable from a view leads to the opponent's hidden cards or the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .events import Event, redact
from .rules import RuleSet


@dataclass(frozen=True)
class PlayerView:
    seat: int
    rules: RuleSet
    phase: str  # upcard | draw | discard | layoff | last_chance | over
    turn: int  # seat to act, -1 when the hand is over
    dealer: int
    hand: tuple[Card, ...]
    pile: tuple[Card, ...]  # discard pile, top last
    stock_count: int
    opponent_count: int
    opponent_known: tuple[Card, ...]  # pile cards the opponent took and still holds
    discards: tuple[tuple[int, Card], ...]  # every face-up discard so far: (seat, card)
    upcard: Card | None
    knock_limit: int
    taken: Card | None  # the card this seat took from the pile this turn
    legal: tuple[Action, ...]  # this seat's legal actions (empty when not its turn)
    table_melds: tuple[tuple[Card, ...], ...]  # knocker's melds (with layoffs) after a knock
    knocker: int | None
    opponent_revealed: tuple[Card, ...] | None  # the opponent's cards once laid out
    scores: tuple[int, int]
    target: int
    history: tuple[Event, ...]  # every event so far as this seat saw it
    hand_number: int

    @classmethod
    def of(
        cls, hand, seat: int, scores: tuple[int, int] = (0, 0), target: int | None = None
    ) -> PlayerView:
        """Snapshot what ``seat`` may know of ``hand`` (a ``Hand``)."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        other = 1 - seat
        revealed = None
        if hand.knocker is not None and (hand.knocker == other or hand.over):
            revealed = (
                tuple(hand.hands[other])
                if hand.knocker != other
                else tuple(c for m in hand.knocker_melds for c in m) + tuple(hand.knocker_deadwood)
            )
        return cls(
            seat=seat,
            rules=hand.rules,
            phase=hand.phase,
            turn=hand.turn,
            dealer=hand.dealer,
            hand=tuple(hand.hands[seat]),
            pile=tuple(hand.pile),
            stock_count=len(hand.stock),
            opponent_count=len(hand.hands[other]),
            opponent_known=tuple(hand.seen_taken[other]),
            discards=tuple(hand.discards),
            upcard=hand.upcard,
            knock_limit=hand.knock_limit,
            taken=hand.taken if hand.turn == seat else None,
            legal=tuple(hand.legal_actions()) if hand.turn == seat else (),
            table_melds=tuple(tuple(m) for m in hand.table_melds),
            knocker=hand.knocker,
            opponent_revealed=revealed,
            scores=tuple(scores),
            target=hand.rules.game_target if target is None else target,
            history=tuple(redact(e, seat) for e in hand.events),
            hand_number=hand.hand_number,
        )

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def top(self) -> Card | None:
        """Top card of the discard pile."""
        return self.pile[-1] if self.pile else None

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: in the stock or the opponent's hidden cards."""
        from .cards import CARDS

        seen = set(self.hand) | set(self.pile) | set(self.opponent_known)
        seen |= {c for m in self.table_melds for c in m}
        seen |= {c for _, c in self.discards}
        if self.opponent_revealed:
            seen |= set(self.opponent_revealed)
        return [c for c in CARDS if c not in seen]
