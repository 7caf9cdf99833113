"""The table of a network match: the one game driver over a feed of the match's checked moves.

``NetTableController`` is a ``TableController`` whose game is a ``FedGame``: the match itself
lives in ``gin3d.net`` (the opponent's cards are hidden and every move is checked there), and
the service's events are fed in order, turned round so the local seat is seat 0: each move
(``game``), the local seat's turn (``your_turn``: input opens with the view's legal actions)
and each verified hand (``hand_over``: into a ``MatchRecord``, the engine ``Game`` the result
screens read). The driver takes the moves one at a time as the table is free, shows and
narrates them as in a local game, and reports a finished hand, whose result then holds what
follows until the player presses Next hand. The local seat's moves go to the network with
``net.play`` and come back as fed moves once the match has checked them.
"""

from __future__ import annotations

from ...driver import MOVED, FedGame, FedSeat
from ...engine import NextHand, PlayerView
from ...engine.actions import Action
from ...engine.sheet import ScoreSheet, score_sheet
from .controller import TableController
from .perspective import MatchRecord, local_event, local_view, waiting_view


class NetTableController(TableController):
    """Runs the table of a network match; local input answers ``your_turn``."""

    def __init__(self, base, scene, net, names: tuple[str, str] = ("You", "Opponent")) -> None:
        self.net = net
        self.seat: int | None = None  # our seat in the match (host 0, guest 1)
        self.planned: list[Action] = []  # the rest of a submit_many (best layoff)
        self.submitted: list[Action] = []  # every action this seat sent
        self.record = MatchRecord()
        self.feed = FedGame(waiting_view(), shape=self._shaped)
        seats = [FedSeat(self.feed, 0, names[0], local=True), FedSeat(self.feed, 1, names[1])]
        super().__init__(base, scene, self.feed, seats, names=names)

    def score_sheet(self) -> ScoreSheet | None:
        """The pad of the match's game so far, from its verified hands (``MatchRecord``, in
        local seat numbers: yours is the first column); empty until the first hand is over,
        and again when a rematch deals its first hand."""
        game = self.record.game
        if game is not None and not (game.over and self.current.phase != "over"):
            return score_sheet(game)
        rules = self.current.rules
        return None if rules.hollywood else ScoreSheet((), (0, 0), rules.game_target)

    def can_skip(self) -> bool:
        """Nobody hurries the other players of a network table."""
        return False

    # -- the face TableInput and the session read -------------------------------------------
    @property
    def game(self):
        """The engine Game of the verified hands so far (None before the first one ends)."""
        return self.record.game

    @property
    def current(self) -> PlayerView:
        """The latest view, local numbering."""
        return self.feed.current

    @property
    def showing_result(self) -> bool:
        """A finished hand is on the table, its result on screen (what follows waits)."""
        return self.feed.holding

    @property
    def held(self) -> tuple:
        """What waits behind the result on screen."""
        return self.feed.waiting if self.feed.holding else ()

    @property
    def hand_over(self) -> bool:
        return self.current.phase == "over" or self.showing_result

    def view(self, seat: int = 0) -> PlayerView:
        return self.feed.view(0)

    def waiting_for_human(self) -> bool:
        f = self.feed
        return (
            f.asked is not None
            and not f.waiting
            and not f.holding
            and not self.queue.busy
            and not self.paused
        )

    def legal(self) -> list[Action]:
        return list(self.feed.asked.legal) if self.waiting_for_human() else []

    # -- the local seat's moves -------------------------------------------------------------
    def submit(self, action: Action) -> bool:
        """Send the local seat's move; refused (False) when it is not legal now. It is shown
        once the match has checked it (it comes back fed)."""
        if action not in self.legal():
            return False
        self.feed.asked = None
        self.submitted.append(action)
        self.net.play(action)
        self._changed()
        return True

    def submit_many(self, actions: list[Action]) -> bool:
        """Several moves in a row (best layoff then Done): each goes at its own turn."""
        if not actions or not self.submit(actions[0]):
            return False
        self.planned = list(actions[1:])
        return True

    def next_hand(self) -> bool:
        """Leave the result: show the next hand (it may already be dealt and under way)."""
        game = self.record.game
        if not self.showing_result or self.queue.busy or game is None or game.over:
            return False
        self._release()
        return True

    def start_rematch(self) -> None:
        """Both said yes to a rematch: the fed moves of the new game may play."""
        self.record.reset()
        self.feed.new_game()
        self._changed()
        self.advance()

    def stop(self) -> None:
        """The match ended (left, cheated, claimed): no more local moves."""
        self.feed.asked = None
        self.planned = []
        self._changed()

    def set_paused(self, paused: bool) -> None:
        """The pause menu only stops local input: the match goes on and its moves show."""
        self.paused = paused
        self._changed()

    def advance(self) -> None:
        """Take the fed moves while the table is free (a new hand's deal is the table's own
        move); the pause menu does not stop them."""
        while not self.queue.busy:
            self.feed.settle()
            if self.feed.deal_due:
                self.driver.apply(NextHand())
            elif self.driver.pump(self._now()) != MOVED:
                return
            self._changed()

    def _release(self) -> None:
        self.feed.release()
        self._changed()
        self.advance()

    # -- events from the NetService ---------------------------------------------------------
    def handle(self, ev) -> None:
        """One NetEvent of the match kinds (``game``, ``your_turn``, ``hand_over``...)."""
        if ev.kind == "game":
            self._fed(ev.data)
        elif ev.kind == "your_turn":
            view = ev.data["view"]
            self.feed.then(lambda: self._your_turn(view))
        elif ev.kind == "hand_over":
            hand = ev.data["hand"]
            self.feed.finish(lambda: self._hand_agreed(hand))
        self.advance()

    def _fed(self, data: dict) -> None:
        """One move (or a new deal) of the match, seen from our seat, into the feed."""
        view = data["view"]
        if self.seat is None:
            self.seat = view.seat
        me, seat, action = view.seat, data.get("seat"), data.get("action")
        events = [local_event(e, me) for e in data["events"]]
        if action is None:
            self.feed.deal(events, view)
        else:
            self.feed.move(0 if seat == me else 1, action, events, view)

    def _shaped(self, view: PlayerView) -> PlayerView:
        """A fed view as the table shows it: our seat is 0."""
        return local_view(view)

    def show_events(self, action: Action | None, events) -> None:
        """The driver's ``on_events``: a new deal also drops the rest of a planned layoff."""
        if isinstance(action, NextHand):
            self.planned = []
        super().show_events(action, events)

    def _your_turn(self, view: PlayerView) -> None:
        self.feed.asked = self._shaped(view)
        if self.planned:
            nxt = self.planned.pop(0)
            if nxt in self.feed.asked.legal:
                self.submit(nxt)
                return
            self.planned = []
        self._changed()

    def _hand_agreed(self, hand) -> bool:
        """A verified hand, in its place: into the record; whether it ended the game."""
        return self.record.add(hand, self.seat if self.seat is not None else 0).over

    def _hand_finished(self, game) -> None:
        """The driver reports the finished hand: the result (or game-over) screen."""
        game = self.record.game
        for fn in list(self.on_game_over if game.over else self.on_hand_over):
            fn(game)
        self._changed()


__all__ = ["NetTableController"]
