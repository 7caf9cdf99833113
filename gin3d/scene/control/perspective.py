"""A network seat seen from the table's point of view: the local player is always seat 0.

The table draws seat 0 at the bottom. In a network match the guest plays seat 1, so its
events and views are turned round (``flip_event``, ``local_view``): every seat number is
swapped, scores and cut cards change places. That is exact because the engine has no seat
bias: the same deck dealt by the other dealer gives each seat the other's cards, and actions
name no seat.

``MatchRecord`` keeps an engine ``Game`` of the finished, verified hands in the same local
numbering, so the result and game-over screens read a real ``Game`` as in single-player.
No Panda3D here.
"""

from __future__ import annotations

from dataclasses import fields, replace

from ...engine import DealerChosen, Game, GameOver, Hand, NextHand, PlayerView, RuleSet
from ...engine.events import Event

SEAT_FIELDS = ("seat", "dealer", "knocker", "winner", "turn")


def flip_seat(seat: int | None) -> int | None:
    """The other seat; -1 (nobody's turn) and None stay."""
    return 1 - seat if seat in (0, 1) else seat


def flip_event(event: Event) -> Event:
    """``event`` with seats 0 and 1 swapped."""
    changes = {}
    for f in fields(event):
        if f.name in SEAT_FIELDS:
            changes[f.name] = flip_seat(getattr(event, f.name))
    if isinstance(event, DealerChosen):
        changes["cut"] = (event.cut[1], event.cut[0])
    if isinstance(event, GameOver):
        changes["totals"] = (event.totals[1], event.totals[0])
        changes["breakdown"] = (event.breakdown[1], event.breakdown[0])
    return replace(event, **changes)


def local_event(event: Event, my_seat: int) -> Event:
    return event if my_seat == 0 else flip_event(event)


def local_view(view: PlayerView) -> PlayerView:
    """``view`` renumbered so that its own seat is 0 (unchanged for seat 0)."""
    if view.seat == 0:
        return view
    return replace(
        view,
        seat=0,
        turn=flip_seat(view.turn),
        dealer=flip_seat(view.dealer),
        discards=tuple((flip_seat(s), c) for s, c in view.discards),
        knocker=flip_seat(view.knocker),
        scores=(view.scores[1], view.scores[0]),
        history=tuple(flip_event(e) for e in view.history),
    )


def waiting_view(rules: RuleSet | None = None) -> PlayerView:
    """What the table shows before the first deal arrives: no cards, nobody to act."""
    rules = rules or RuleSet()
    return PlayerView(
        seat=0,
        rules=rules,
        phase="deal",
        turn=-1,
        dealer=0,
        hand=(),
        pile=(),
        stock_count=0,
        opponent_count=0,
        opponent_known=(),
        discards=(),
        upcard=None,
        knock_limit=rules.knock_limit,
        taken=None,
        legal=(),
        table_melds=(),
        knocker=None,
        opponent_revealed=None,
        scores=(0, 0),
        target=rules.game_target,
        history=(),
        hand_number=0,
    )


class MatchRecord:
    """The verified hands of the current game as an engine ``Game`` in local seat numbers."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def add(self, hand: Hand, my_seat: int) -> Game:
        """Add one finished, verified hand (all cards open); returns the updated game."""
        dealer = flip_seat(hand.dealer) if my_seat == 1 else hand.dealer
        deck = [int(c) for c in hand.deck]
        if self.game is None or self.game.over:
            self.game = Game(hand.rules, seed="net", first_dealer=dealer, decks=[deck])
        else:
            self.game.add_deck(deck)
            self.game.apply(NextHand())
        if self.game.hand.dealer != dealer:
            raise ValueError("the verified hand's dealer is out of step with the game")
        for action in hand.actions:
            self.game.apply(action)
        if not self.game.hand.over:
            raise ValueError("the verified hand is not finished")
        return self.game

    def reset(self) -> None:
        """A rematch: the next hand starts a new game."""
        self.game = None


__all__ = ["MatchRecord", "flip_event", "flip_seat", "local_event", "local_view", "waiting_view"]
