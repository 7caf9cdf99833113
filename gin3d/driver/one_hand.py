"""``OneHand``: a single ``Hand`` with the face of a ``Game``, so the driver plays it.

A replay from the history holds one hand (its rules, dealer, deck and actions), not a whole
game: wrapped here it runs through the same ``GameDriver`` as a game, without a score sheet
that could add a game-over the hand never had.
"""

from __future__ import annotations

from ..engine import Action, Event, Hand, PlayerView


class OneHand:
    """One hand, played alone: over when the hand is, no next hand."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.hands = [hand]
        self.seed = f"hand:{hand.hand_number}"

    # what the driver reads of a game, read straight from the hand
    actions = property(lambda self: self.hand.actions)
    events = property(lambda self: self.hand.events)
    over = property(lambda self: self.hand.over)
    turn = property(lambda self: self.hand.turn)

    def legal_actions(self) -> list[Action]:
        return [] if self.hand.over else self.hand.legal_actions()

    def view(self, seat: int) -> PlayerView:
        return self.hand.view(seat)

    def apply(self, action: Action) -> list[Event]:
        return self.hand.apply(action)
