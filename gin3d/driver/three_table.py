"""A three-player game as the two-player table reads it, from one player's chair.

Each hand of ``engine.ThreePlayerGame`` is an ordinary two-player hand, so the table shows it
as it shows any hand, with its seat 0 at the bottom. That seat is the local player's when
they play the hand, and hand seat 0 (the player after them) when they dealt and sit out.
When the local player holds hand seat 1 the table reads a mirror of the hand: the same deck
dealt by the other dealer gives each seat the other's cards (the engine has no seat bias
and actions name no seat), so the mirror takes the same actions and its events, views and
result are the hand's own with seats 0 and 1 swapped. The driver still sees the game itself:
``turn`` and ``view`` are by player, and the moves go to the real game first.
"""

from __future__ import annotations

from ..engine import Action, Event, Hand, NextHand, PlayerView, ThreePlayerGame


class ThreePlayerTable:
    """``game`` seen from player ``me``'s chair: ``hand``, ``events``, ``local`` and
    ``table_view`` in table seats (0 at the bottom), the rest as the game has it."""

    players = 3

    def __init__(self, game: ThreePlayerGame, me: int = 0) -> None:
        if me not in range(3):
            raise ValueError(f"a three-player game has players 0, 1 and 2, not {me!r}")
        self.game = game
        self.me = me
        self._follow()

    def _follow(self) -> None:
        """The table's hand for the hand in progress: the hand itself, or its mirror."""
        hand = self.game.hand
        playing = self.game.playing
        self.near = playing.index(self.me) if self.me in playing else 0
        if self.near == 0:
            self.hand = hand
        else:
            mirror = Hand(hand.rules, 1 - hand.dealer, hand.deck, hand.hand_number, _checked=True)
            for action in hand.actions:
                mirror.apply(action)
            self.hand = mirror
        self.events: list[Event] = list(self.hand.events)

    # -- the driver's face: the game, by player -------------------------------------------
    rules = property(lambda self: self.game.rules)
    seed = property(lambda self: self.game.seed)
    hands = property(lambda self: self.game.hands)
    actions = property(lambda self: self.game.actions)
    over = property(lambda self: self.game.over)
    playing = property(lambda self: self.game.playing)
    sitting_out = property(lambda self: self.game.sitting_out)

    @property
    def turn(self) -> int:
        """The player to move (-1 when nobody is)."""
        return self.game.turn if self.game.hand.turn in (0, 1) else -1

    @property
    def winner(self) -> int | None:
        return self.game.winner

    def totals(self) -> list[int]:
        return self.game.totals()

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions()

    def view(self, player: int) -> PlayerView:
        return self.game.view(player)

    def apply(self, action: Action) -> list[Event]:
        """The move, on the game and then on the table's hand; the table's events."""
        events = self.game.apply(action)
        if isinstance(action, NextHand):
            self._follow()
            return list(self.events)
        if self.hand is not self.game.hand:
            events = self.hand.apply(action)
        self.events.extend(events)
        return events

    # -- the table's face: seats 0 (bottom) and 1 ------------------------------------------
    @property
    def local(self) -> tuple[int, int]:
        """The players at table seats 0 and 1 this hand."""
        playing = self.game.playing
        return (playing[self.near], playing[1 - self.near])

    @property
    def watching(self) -> bool:
        """Whether the local player sits this hand out."""
        return self.me not in self.game.playing

    def table_view(self) -> PlayerView:
        """What the bottom seat may know, in table seats (the local player's own view when
        they play; while they sit out, the bottom player's)."""
        run = self.game.running()
        near, far = self.local
        return self.hand.view(0, (run[near], run[far]), self.rules.game_target)
