"""A partnership game as the two-player table reads it, from your chair (player 0).

In ``engine.PartnershipGame`` player 0 always plays at table 0 in hand seat 0, so your hand
is an ordinary two-player hand in table seats as it is: ``TeamTable`` is that table with
the face the table's controller reads (``rules``, ``events``, ``table_view`` with the team
scores, the players at table seats 0 and 1), and ``partner`` is table 1, where your partner
(player 2) plays the other opponent at the same time on a driver of its own.
"""

from __future__ import annotations

from ..engine import Action, Event, NextHand, PartnershipGame, PlayerView
from .groups import PartnershipTable


class TeamTable(PartnershipTable):
    """Table 0 of ``game`` (your hand) for the table; ``partner`` is table 1."""

    def __init__(self, game: PartnershipGame) -> None:
        super().__init__(game, 0)
        self.partner = PartnershipTable(game, 1)

    rules = property(lambda self: self.game.rules)
    seed = property(lambda self: self.game.seed)
    winner = property(lambda self: self.game.winner)  # the winning team
    round_over = property(lambda self: self.game.round_over)

    @property
    def events(self) -> list[Event]:
        """Your hand's events so far (the table is rebuilt from them)."""
        return list(self.hand.events)

    @property
    def local(self) -> tuple[int, int]:
        """The players at table seats 0 (you) and 1 (the opponent you face this round)."""
        return self.playing

    def totals(self) -> list[int]:
        return self.game.totals()

    def apply(self, action: Action) -> list[Event]:
        """A move at your table; after ``NextHand`` only your new hand's events (the
        partner's deal is not shown on your table)."""
        events = super().apply(action)
        return self.events if isinstance(action, NextHand) else events

    def table_view(self, partner: bool = False) -> PlayerView:
        """Your view of your hand (``partner``: your partner's of theirs, hand seat 0 at
        table 1 too), scored by team (yours first) to the partnership target."""
        run = self.game.running()
        hand = self.partner.hand if partner else self.hand
        return hand.view(0, (run[0], run[1]), self.rules.partnership_target)
