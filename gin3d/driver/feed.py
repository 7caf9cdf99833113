"""``FedGame``: a game whose moves are made and checked elsewhere, fed to the one driver in order.

A network match is played on the network thread: the fair deal's keys open each card, and the
engine's rules and the deal's proofs check every move before the table hears of it (as the
local seat's redacted events and view). The table still runs it on the ``GameDriver``: each
checked move is fed in (``move``, a new hand's deal with ``deal``), with the notes that must
keep their place between the moves (``then``: the local seat is asked for its move, the table
changed; ``finish``: a hand agreed, whose result then holds everything fed after it until the
table lets it go with ``release``). The table runs the notes that have come to the front
(``settle``) whenever it is free, before it pumps, so a note acts after the move before it
was shown; the driver takes the moves one pump at a time, from
``FedSeat``s that answer with the fed move when it is their seat's, so each move animates
before the next and the hooks (the scene, the narration, the result screens) fire as for a
local game.

The driver reads the face it reads of an engine ``Game``: ``turn``, ``hand.over`` (here: a
finished hand's result is held), ``legal_actions`` (the fed move: it was checked already),
``view``, ``apply``, ``actions``, ``hands`` (one entry per finished hand, never reset, so each
is reported once) and ``over``. No Panda3D, no threads, no clock: the feed is filled and
drained on the table's thread.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Action, Event, NextHand, PlayerView


@dataclass(frozen=True)
class FedMove:
    """One checked move: ``seat`` made ``action`` (None and ``NextHand``: a new hand dealt),
    shown as ``events``, after which the local seat sees ``view``."""

    seat: int | None
    action: Action
    events: tuple[Event, ...]
    view: PlayerView


@dataclass(frozen=True)
class FedNote:
    """Something to do in its place between the moves; ``finish`` notes hold what follows."""

    run: Callable[[], object]
    finish: bool = False


class FedHand:
    """What the driver reads of the hand under way: whether it is over (its result held)."""

    def __init__(self, game: FedGame) -> None:
        self._game = game

    @property
    def over(self) -> bool:
        return self._game.holding

    @property
    def phase(self) -> str:
        return self._game.current.phase


class FedGame:
    """Moves checked elsewhere, in the order they happened, for a ``GameDriver`` of two
    ``FedSeat``s. ``shape`` turns each fed view into the one the table shows (e.g. renumbered
    so the local seat is 0); it runs when the view is reached, not when it is fed."""

    players = 2
    seed = "fed"
    events: tuple[Event, ...] = ()  # nothing to show before the first deal is fed

    def __init__(
        self, first: PlayerView, shape: Callable[[PlayerView], PlayerView] | None = None
    ) -> None:
        self.current = first  # the view after the last move taken
        self.asked: PlayerView | None = None  # the local seat's decision, while it is asked
        self.shape = shape or (lambda view: view)
        self.actions: list[Action] = []  # every move taken (the driver's decision stamp)
        self.hands: list[object] = []  # what each finish note answered, one per finished hand
        self.holding = False  # a finished hand's result is held: what follows waits
        self.over = False  # the last finished hand ended the game
        self.hand = FedHand(self)
        self._fed: deque[FedMove | FedNote] = deque()
        self._settling = False  # a note is running (``settle``)

    # -- feeding ------------------------------------------------------------------------
    def move(self, seat: int, action: Action, events: Sequence[Event], view: PlayerView) -> None:
        """``seat``'s checked ``action`` and what it showed."""
        self._feed(FedMove(seat, action, tuple(events), view))

    def deal(self, events: Sequence[Event], view: PlayerView) -> None:
        """A new hand dealt (its events from the deal on)."""
        self._feed(FedMove(None, NextHand(), tuple(events), view))

    def then(self, run: Callable[[], object]) -> None:
        """Call ``run()`` once everything fed before it was taken."""
        self._feed(FedNote(run))

    def finish(self, run: Callable[[], object]) -> None:
        """A hand finished: in its place, ``run()`` (it answers whether the game is over) and
        hold what follows until ``release``."""
        self._feed(FedNote(run, finish=True))

    def release(self) -> None:
        """The held result was seen: what was fed after it may go on."""
        self.holding = False

    def new_game(self) -> None:
        """A rematch: the next hand starts a new game."""
        self.over = False
        self.release()

    def _feed(self, item: FedMove | FedNote) -> None:
        self._fed.append(item)

    def settle(self) -> None:
        """Run the notes that have come to the front (until one holds): the table calls it
        when it is free, before each pump. Not again from inside a note: a note that
        finishes the table's animations at once (a hand laid out) makes the table free, and
        the notes after it must not run before it has (nor before a ``finish`` holds)."""
        if self._settling:
            return
        self._settling = True
        try:
            while self._fed and not self.holding and isinstance(self._fed[0], FedNote):
                note = self._fed.popleft()
                answer = note.run()
                if note.finish:
                    self.hands.append(answer)
                    self.over = bool(answer)
                    self.holding = True
        finally:
            self._settling = False

    # -- what waits ---------------------------------------------------------------------
    @property
    def waiting(self) -> tuple[FedMove | FedNote, ...]:
        """Everything fed and not taken yet."""
        return tuple(self._fed)

    def _next_move(self) -> FedMove | None:
        head = self._fed[0] if self._fed and not self.holding else None
        return head if isinstance(head, FedMove) else None

    @property
    def deal_due(self) -> bool:
        """A new hand's deal is next (the table deals it: no seat answers for a deal)."""
        move = self._next_move()
        return move is not None and move.seat is None

    def answer(self, seat: int) -> Action | None:
        """The next move if it is ``seat``'s (what its ``FedSeat`` answers)."""
        move = self._next_move()
        return move.action if move is not None and move.seat == seat else None

    # -- the face the driver reads -------------------------------------------------------
    @property
    def turn(self) -> int:
        """Who moves next: the next fed move's seat, else the latest view's (-1 while a deal
        is next or nobody is to move)."""
        move = self._next_move()
        if move is not None:
            return -1 if move.seat is None else move.seat
        view = self.asked or self.current
        return view.turn if view.turn in (0, 1) else -1

    def view(self, seat: int = 0) -> PlayerView:
        """The local seat's view (the one it is asked with, while it is asked)."""
        return self.asked if self.asked is not None and not self._fed else self.current

    def legal_actions(self) -> list[Action]:
        """The next fed move (checked already), else what the local seat is asked to choose."""
        move = self._next_move()
        if move is not None:
            return [move.action]
        if self.asked is not None and not self._fed:
            return list(self.asked.legal)
        return []

    def apply(self, action: Action) -> list[Event]:
        """Take the next fed move (it must be ``action``) and return its events."""
        move = self._next_move()
        if move is None or move.action != action:
            raise ValueError(f"{action} is not the next fed move")
        self._fed.popleft()
        self.actions.append(action)
        self.asked = None  # a new decision is asked anew
        self.current = self.shape(move.view)
        return list(move.events)


class FedSeat:
    """A seat of a ``FedGame``: it answers with the move fed for it (it was chosen and checked
    elsewhere), at once. ``local`` marks the table's own player, whose input goes elsewhere
    (to the network) and comes back fed."""

    def __init__(self, game: FedGame, seat: int, name: str, local: bool = False) -> None:
        self.game = game
        self.seat = seat
        self.name = name
        self.local = local

    def pause(self, view: PlayerView) -> float:
        return 0.0  # the move was made (and thought over) already

    def request(self, view: PlayerView, legal: Sequence[Action]) -> Action | None:
        return self.game.answer(self.seat)


__all__ = ["FedGame", "FedHand", "FedMove", "FedNote", "FedSeat"]
