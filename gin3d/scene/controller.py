"""The game loop on the table: a ``Game`` with two seats, each fed by a Player or local input.

Seat 0 is shown at the bottom of the screen. ``players[s] is None`` means seat ``s`` is the
local human, whose actions arrive through ``submit`` (from the mouse/keyboard handlers, or a
script). Computer seats are asked ``choose(view)`` after a short, human-like pause. Every
event goes to the scene redacted for seat 0, so the table never shows a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine import (
    CardDrawn,
    Discarded,
    Game,
    HandDrawn,
    HandScored,
    IllegalAction,
    Knocked,
    NextHand,
    Passed,
    redact,
)
from ..engine.actions import Action


class TableController:
    """Runs one game on a ``TableScene``; ``on_change`` fires whenever input state may change."""

    def __init__(
        self,
        base,
        scene,
        game: Game,
        players: list,
        think: tuple[float, float] = (0.6, 1.2),
        names: tuple[str, str] = ("You", "Computer"),
    ) -> None:
        if len(players) != 2:
            raise ValueError("a table has two seats")
        self.base = base
        self.scene = scene
        self.queue = scene.queue
        self.game = game
        self.players = list(players)
        self.names = names
        self.think = think
        self.thinking = False
        self.paused = False
        self.finished_hand_seen = -1
        self._rng = random.Random(f"think:{game.seed}")
        self._announced: tuple[int, int] | None = None
        self.log: list[str] = []
        self.on_change: list[Callable[[], None]] = []
        self.on_hand_over: list[Callable[[object], None]] = []
        self.on_game_over: list[Callable[[object], None]] = []
        self.on_message: list[Callable[[str], None]] = []
        self.on_applied: list[Callable[[Action, list], None]] = []  # after each action's events
        self._task = base.taskMgr.add(self._tick, "table-controller")
        self.queue.on_idle.append(self._idle)
        for e in game.events:
            self.scene.show_event(redact(e, 0))
            self._narrate(e)

    # -- queries -----------------------------------------------------------------------
    @property
    def human_seat(self) -> int | None:
        return 0 if self.players[0] is None else (1 if self.players[1] is None else None)

    def view(self, seat: int = 0):
        return self.game.view(seat)

    def waiting_for_human(self) -> bool:
        """Whether the game waits for local input right now (and no animation plays)."""
        g = self.game
        return (
            not self.queue.busy
            and not self.paused
            and not g.hand.over
            and g.turn >= 0
            and self.players[g.turn] is None
        )

    def legal(self) -> list[Action]:
        return self.game.legal_actions() if self.waiting_for_human() else []

    # -- changes -----------------------------------------------------------------------
    def submit(self, action: Action) -> bool:
        """A local player's action; refused (False, nothing changes) if not legal now."""
        if not self.waiting_for_human() or action not in self.game.legal_actions():
            return False
        self._apply(action)
        return True

    def submit_many(self, actions: list[Action]) -> bool:
        """Several local actions in a row (e.g. the best layoffs then Done), each checked
        when its turn comes: stops at the first that is not legal."""
        if not self.waiting_for_human():
            return False
        done = False
        for action in actions:
            if self.game.hand.over or action not in self.game.legal_actions():
                break
            events = self.game.apply(action)
            for e in events:
                self.scene.show_event(redact(e, 0))
                self._narrate(e)
            for fn in list(self.on_applied):
                fn(action, events)
            done = True
        if done:
            self._changed()
            self.advance()
        return done

    def next_hand(self) -> bool:
        """Deal the next hand once a hand is over (False when not possible)."""
        g = self.game
        if self.queue.busy or not g.hand.over or g.over:
            return False
        self._apply(NextHand())
        return True

    def _apply(self, action: Action) -> None:
        try:
            events = self.game.apply(action)
        except IllegalAction:
            raise
        for e in events:
            self.scene.show_event(redact(e, 0))
            self._narrate(e)
        for fn in list(self.on_applied):
            fn(action, events)
        self._changed()
        self.advance()

    def advance(self) -> None:
        """Let computer seats move until local input is needed, a hand ends, or an animation
        must play first. With animation speed 0 this runs whole stretches at once."""
        while True:
            g = self.game
            if self.queue.busy or self.paused or self.thinking:
                return
            if g.hand.over:
                if self.finished_hand_seen != len(g.hands):
                    self.finished_hand_seen = len(g.hands)
                    for fn in list(self.on_game_over if g.over else self.on_hand_over):
                        fn(g)
                return
            seat = g.turn
            player = self.players[seat]
            if player is None:
                stamp = (len(g.actions), len(g.hands))
                if stamp != self._announced:  # tell the input once per new decision
                    self._announced = stamp
                    self._changed()
                return
            if self.queue.speed > 0 and self.think[1] > 0:
                self.thinking = True
                self._changed()
                lo, hi = self.think
                if g.hand.phase == "layoff":  # quick, mechanical decisions
                    lo, hi = lo / 2, hi / 2
                pause = self.queue.seconds(lo + (hi - lo) * self._rng.random())
                self.base.taskMgr.doMethodLater(pause, self._computer_move, "computer-move")
                return
            self._play_computer(seat)

    def _computer_move(self, task=None):
        self.thinking = False
        if not self.paused and not self.game.hand.over and self.players[self.game.turn]:
            self._play_computer(self.game.turn)
        return None

    def _play_computer(self, seat: int) -> None:
        action = self.players[seat].choose(self.game.view(seat))
        self._apply(action)

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if not paused:
            self.advance()

    def _idle(self) -> None:
        self.advance()
        self._changed()

    def _tick(self, task):
        if not self.queue.busy and not self.thinking:
            self.advance()
        return task.cont

    def _changed(self) -> None:
        for fn in list(self.on_change):
            fn()

    def _narrate(self, e) -> None:
        """One line per notable event, for the HUD's message line and the log."""
        name = self.names
        text = None
        if isinstance(e, Passed):
            text = f"{name[e.seat]} passed" + (" the upcard" if e.what == "upcard" else "")
        elif isinstance(e, CardDrawn) and e.seat != 0:
            text = (
                f"{name[e.seat]} drew from the stock"
                if e.source == "stock"
                else f"{name[e.seat]} took the {e.card.pretty}"
            )
        elif isinstance(e, Discarded) and e.seat != 0:
            text = f"{name[e.seat]} discarded the {e.card.pretty}"
        elif isinstance(e, Knocked):
            text = {
                "knock": f"{name[e.seat]} knocked!",
                "gin": f"{name[e.seat]} went gin!",
                "big_gin": f"{name[e.seat]} went Big Gin!",
            }[e.kind]
        elif isinstance(e, HandScored):
            text = f"{name[e.winner]} won the hand: {e.result.breakdown()}"
        elif isinstance(e, HandDrawn):
            text = "The stock ran out: a drawn hand, nobody scores"
        if text:
            self.log.append(text)
            for fn in list(self.on_message):
                self.queue.call(lambda fn=fn, t=text: fn(t))

    def destroy(self) -> None:
        self.base.taskMgr.remove(self._task)
        self.base.taskMgr.remove("computer-move")
        if self._idle in self.queue.on_idle:
            self.queue.on_idle.remove(self._idle)
        self.on_change.clear()
        self.on_hand_over.clear()
        self.on_game_over.clear()
        self.on_message.clear()
        self.on_applied.clear()
