"""``GameDriver``: the one game loop. It owns the ``Game``, asks the seat whose turn it is,
applies the answer through the engine and fires the hooks.

The caller pumps it (``pump(now)``) whenever the table is free to move on (no animation
playing, not paused): each pump makes at most one move, so the table can animate it before
the next. The thinking pause is the seat's (``Seat.pause``), scaled by ``pace`` (the
animation speed) and measured in the caller's clock, so the loop needs no timer of its own.
Hooks, each a list of callables, fire in this order for every move:

- ``on_events(action, events)``: show and narrate the events (the scene);
- ``on_applied(action, events)``: after the move (saves);
- ``on_asked(seat)``: once per decision that does not answer at once (the input, "thinking");
- ``on_hand_finished(game)``: once per finished hand, at the first pump after it (the
  result screens, statistics, history).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine import Action, Event, Game, NextHand, PlayerView
from .seats import Seat

MOVED, THINKING, WAITING, HAND_OVER, GAME_OVER = "moved", "thinking", "waiting", "hand", "game"


class IllegalAnswer(ValueError):
    """A seat answered a move that is not legal now (the game is left as it was)."""


class GameDriver:
    """Runs one ``Game`` over its seats (one ``Seat`` per seat of the game)."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        pace: Callable[[float], float] = float,
        deal_next: bool = False,
    ) -> None:
        # a seat per player: two for a two-player game, three or four for the group games,
        # whose hands are always between two of them (``game.turn`` is the player to move)
        count = getattr(game, "players", None) or len(game.hand.hands)
        if len(seats) != count:
            raise ValueError(f"this game has {count} seats, {len(seats)} were given")
        self.game = game
        self.seats = list(seats)
        self.pace = pace  # seat seconds -> clock seconds (0 at animation speed 0)
        self.deal_next = deal_next  # deal the next hand without being asked (AI-only tables)
        self.on_events: list[Callable[[Action, list[Event]], None]] = []
        self.on_applied: list[Callable[[Action, list[Event]], None]] = []
        self.on_asked: list[Callable[[int], None]] = []
        self.on_hand_finished: list[Callable[[Game], None]] = []
        self._decision: tuple[int, int] | None = None  # the move being asked for
        self._view: PlayerView | None = None
        self._due = 0.0
        self._announced: tuple[int, int] | None = None
        self._reported = -1  # the number of hands when the last finished hand was reported

    # -- queries ------------------------------------------------------------------------
    @property
    def seat(self) -> Seat | None:
        """The seat asked now (None while a hand is over)."""
        g = self.game
        return None if g.hand.over or g.turn < 0 else self.seats[g.turn]

    def thinking(self, now: float) -> bool:
        """Whether the seat asked now is still in its thinking pause."""
        return self._decision == self._stamp() and now < self._due

    def _stamp(self) -> tuple[int, int]:
        return (len(self.game.actions), len(self.game.hands))

    # -- the loop -----------------------------------------------------------------------
    def pump(self, now: float) -> str:
        """One step: the move of the seat whose turn it is once it is due and answered
        (``MOVED``), else what the game waits for (``THINKING``, ``WAITING``, ``HAND_OVER``,
        ``GAME_OVER``). ``IllegalAnswer`` when the seat's answer is not legal."""
        g = self.game
        if g.hand.over:
            return self._hand_over()
        if g.turn < 0:  # nobody is to move (a fed game between its moves)
            return WAITING
        stamp = self._stamp()
        if stamp != self._decision:  # a new decision: the seat starts thinking
            self._decision = stamp
            self._view = g.view(g.turn)
            self._due = now + self.pace(self.seats[g.turn].pause(self._view))
        if now < self._due:
            self._announce(stamp)
            return THINKING
        seat_no = g.turn
        action = self.seats[seat_no].request(self._view, self._view.legal)
        if action is None:
            self._announce(stamp)
            return WAITING
        self.apply(action, seat_no)
        return MOVED

    def run(self, now: float = 0.0, limit: int = 100_000) -> str:
        """Pump until the game waits for something (a test's or a tool's whole game);
        ``now`` stays fixed, so only seats that do not pause can move."""
        for _ in range(limit):
            status = self.pump(now)
            if status != MOVED:
                return status
        raise RuntimeError(f"the game did not stop within {limit} moves")

    def restart_pause(self) -> None:
        """Ask the current seat afresh (a new thinking pause), e.g. after the game was paused."""
        self._decision = None

    def _announce(self, stamp: tuple[int, int]) -> None:
        if stamp != self._announced:
            self._announced = stamp
            for fn in list(self.on_asked):
                fn(self.game.turn)

    def _hand_over(self) -> str:
        g = self.game
        if self._reported != len(g.hands):
            self._reported = len(g.hands)
            self._show_end(g)
            for fn in list(self.on_hand_finished):
                fn(g)
        if g.over:
            return GAME_OVER
        if self.deal_next and NextHand() in g.legal_actions():  # (a round: once both are over)
            self.apply(NextHand())
            return MOVED
        return HAND_OVER

    def _show_end(self, game: Game) -> None:
        """Seats that learn across hands (the expert's opponent model) see how the hand
        ended, in their own view of it, as the arena shows them."""
        played = getattr(game, "playing", range(len(self.seats)))  # not who sat it out
        for seat in played:
            observe = getattr(self.seats[seat], "observe", None)
            if observe is not None:
                observe(game.view(seat))

    # -- changes ------------------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply one move (from ``seat``, None for the table's own ``NextHand``) and fire the
        hooks. ``IllegalAnswer``, with the game unchanged, if it is not legal now."""
        g = self.game
        legal = g.legal_actions()
        whose = "the table" if seat is None else f"seat {seat} ({self.seats[seat].name})"
        if (seat is not None and seat != g.turn) or action not in legal:
            raise IllegalAnswer(
                f"{whose} answered {action}, which is not legal now (turn: seat {g.turn}, "
                f"phase {g.hand.phase}; legal: {', '.join(map(str, legal)) or 'nothing'})"
            )
        events = g.apply(action)
        for hooks in (self.on_events, self.on_applied):
            for fn in list(hooks):
                fn(action, events)
        return events

    def next_hand(self) -> bool:
        """Deal the next hand once a hand is over (False when not possible)."""
        g = self.game
        if not g.hand.over or NextHand() not in g.legal_actions():
            return False
        self.apply(NextHand())
        return True
