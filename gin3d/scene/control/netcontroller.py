"""The table driven by a network match: the NetService's events in, the local seat's moves out.

``NetTableController`` stands beside ``TableController`` with the same face for ``TableInput``
(``legal``, ``view``, ``submit``, ``submit_many``, ``next_hand``, ``on_change``...), but it
runs no ``Game``: the match lives in ``gin3d.net`` (the opponent's cards are hidden and the
deal is verified there). It shows the service's ``game`` events on the ``TableScene`` (turned
round so the local seat is seat 0), opens local input on ``your_turn`` with the view's legal
actions, and sends the chosen action with ``net.play``. Finished hands arrive verified
(``hand_over``) and go into a ``MatchRecord``, the engine ``Game`` the result screens read.
While a result shows, the next hand's events wait until the player presses Next hand.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from ...engine import HandStarted, PlayerView
from ...engine.actions import Action
from .controller import TableController
from .perspective import MatchRecord, local_event, local_view, waiting_view

HELD = ("game", "your_turn", "hand_over", "game_over")  # kinds that wait behind a result


class NetTableController:
    """Runs the table of a network match; local input answers ``your_turn``."""

    def __init__(self, base, scene, net, names: tuple[str, str] = ("You", "Opponent")) -> None:
        self.base = base
        self.scene = scene
        self.queue = scene.queue
        self.net = net
        self.names = names
        self.seat: int | None = None  # our seat in the match (host 0, guest 1)
        self.current: PlayerView = waiting_view()  # the latest view, local numbering
        self.turn_view: PlayerView | None = None  # set while the service waits for our move
        self.planned: list[Action] = []  # the rest of a submit_many (best layoff)
        self.submitted: list[Action] = []  # every action this seat sent
        self.record = MatchRecord()
        self.held: deque = deque()
        self.showing_result = False  # a finished hand is on the table, its result on screen
        self.hands_done = 0
        self.paused = False
        self.log: list[str] = []
        self.on_change: list[Callable[[], None]] = []
        self.on_hand_over: list[Callable[[object], None]] = []
        self.on_game_over: list[Callable[[object], None]] = []
        self.on_message: list[Callable[[str], None]] = []
        self.on_applied: list[Callable[[Action, list], None]] = []
        self.queue.on_idle.append(self._changed)

    # -- the face TableInput uses ----------------------------------------------------------
    @property
    def game(self):
        """The engine Game of the verified hands so far (None before the first one ends)."""
        return self.record.game

    @property
    def hand_over(self) -> bool:
        return self.current.phase == "over" or self.showing_result

    def view(self, seat: int = 0) -> PlayerView:
        return self.turn_view if self.turn_view is not None else self.current

    def waiting_for_human(self) -> bool:
        return (
            self.turn_view is not None
            and not self.queue.busy
            and not self.paused
            and not self.showing_result
        )

    def legal(self) -> list[Action]:
        return list(self.turn_view.legal) if self.waiting_for_human() else []

    def submit(self, action: Action) -> bool:
        """Send the local seat's move; refused (False) when it is not legal now."""
        if action not in self.legal():
            return False
        self.turn_view = None
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
        """Both said yes to a rematch: the held events of the new game may play."""
        self.record.reset()
        self._release()

    def stop(self) -> None:
        """The match ended (left, cheated, claimed): no more local moves."""
        self.turn_view = None
        self.planned = []
        self._changed()

    def set_paused(self, paused: bool) -> None:
        """The pause menu only stops local input; the match itself goes on."""
        self.paused = paused
        self._changed()

    # -- events from the NetService ---------------------------------------------------------
    def handle(self, ev) -> None:
        """One NetEvent of the match kinds (``game``, ``your_turn``, ``hand_over``...)."""
        if ev.kind in HELD and self.showing_result:
            self.held.append(ev)
            return
        if ev.kind == "game":
            self._show(ev.data["events"], ev.data["view"])
        elif ev.kind == "your_turn":
            self._your_turn(ev.data["view"])
        elif ev.kind == "hand_over":
            self._hand_over(ev.data["hand"])

    def _learn_seat(self, view: PlayerView) -> None:
        if self.seat is None:
            self.seat = view.seat

    def _show(self, events: list, view: PlayerView) -> None:
        self._learn_seat(view)
        shown = [local_event(e, self.seat) for e in events]
        for e in shown:
            if isinstance(e, HandStarted):
                self.turn_view = None
                self.planned = []
            self.scene.show_event(e)
            self._narrate(e)
        self.current = local_view(view)
        for fn in list(self.on_applied):
            fn(None, shown)
        self._changed()

    def _your_turn(self, view: PlayerView) -> None:
        self._learn_seat(view)
        self.current = self.turn_view = local_view(view)
        if self.planned:
            nxt = self.planned.pop(0)
            if nxt in self.turn_view.legal:
                self.submit(nxt)
                return
            self.planned = []
        self._changed()

    def _hand_over(self, hand) -> None:
        self.record.add(hand, self.seat if self.seat is not None else 0)
        self.hands_done += 1
        self.showing_result = True
        self.turn_view = None
        self.queue.call(self._announce)

    def _announce(self) -> None:
        """After the hand's last animation: the result (or game-over) screen."""
        game = self.record.game
        for fn in list(self.on_game_over if game.over else self.on_hand_over):
            fn(game)
        self._changed()

    def _release(self) -> None:
        self.showing_result = False
        while self.held and not self.showing_result:
            self.handle(self.held.popleft())
        self._changed()

    # the same narration lines as a local game (reads names, log, on_message, queue)
    _narrate = TableController._narrate
    quiet_seat = TableController.quiet_seat  # (what ``_narrate`` reads)

    def _changed(self) -> None:
        for fn in list(self.on_change):
            fn()

    def destroy(self) -> None:
        if self._changed in self.queue.on_idle:
            self.queue.on_idle.remove(self._changed)
        self.held.clear()
        for hooks in (
            self.on_change,
            self.on_hand_over,
            self.on_game_over,
            self.on_message,
            self.on_applied,
        ):
            hooks.clear()


__all__ = ["NetTableController"]
