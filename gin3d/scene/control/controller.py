"""The table's face of the one game loop: a ``GameDriver`` shown on a ``TableScene``.

Seat 0 is shown at the bottom of the screen. ``players[s] is None`` means seat ``s`` is the
local human, whose actions arrive through ``submit`` (from the mouse/keyboard handlers, or a
script); a computer player becomes a ``ComputerSeat`` thinking ``think`` seconds, and a
``Seat`` is used as it is. The Panda3D task only pumps the driver while no animation plays;
every event goes to the scene redacted for seat 0, so the table never shows a hidden card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from panda3d.core import ClockObject

from ...driver import MOVED, GameDriver, seat_for
from ...engine import (
    CardDrawn,
    Discarded,
    Game,
    HandDrawn,
    HandScored,
    Knocked,
    Passed,
    redact,
)
from ...engine.actions import Action
from ...engine.sheet import ScoreSheet, score_sheet


class TableController:
    """Runs one game on a ``TableScene``; ``on_change`` fires whenever input state may change."""

    quiet_seat: int | None = 0  # whose draws and discards go unnarrated: the local player's

    def __init__(
        self,
        base,
        scene,
        game: Game,
        players: list,
        think: tuple[float, float] = (0.6, 1.2),
        names: tuple[str, str] = ("You", "Computer"),
    ) -> None:
        self.base = base
        self.scene = scene
        self.queue = scene.queue
        self.names = names
        self.paused = False
        rng = random.Random(f"think:{game.seed}")
        self.seats = [seat_for(p, think, rng) for p in players]
        self.driver = GameDriver(game, self.seats, pace=self.queue.seconds)
        self.log: list[str] = []
        self.on_change: list[Callable[[], None]] = []
        self.on_hand_over: list[Callable[[object], None]] = []
        self.on_game_over: list[Callable[[object], None]] = []
        self.on_message: list[Callable[[str], None]] = []
        # the message line describes the game at one moment (a move narrated, a hint): it
        # expires when the game moves on. ``_moment`` counts the events shown so far,
        # ``_line_at`` is the moment of the line on show (None: no such line)
        self._moment = 0
        self._line_at: int | None = None
        self.on_applied = self.driver.on_applied  # after each action's events (saves)
        self.driver.on_events.append(self.show_events)
        self.driver.on_asked.append(lambda seat: self._changed())
        self.driver.on_hand_finished.append(self._hand_finished)
        self._clock = ClockObject.getGlobalClock()
        self._task = base.taskMgr.add(self._tick, "table-controller")
        self.queue.on_idle.append(self._idle)
        self.show_events(None, game.events)

    # -- queries -----------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.driver.game

    @property
    def human_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.local), None)

    @property
    def thinking(self) -> bool:
        """Whether a computer seat is in its thinking pause."""
        return self.driver.thinking(self._now())

    def view(self, seat: int = 0):
        return self.game.view(seat)

    def waiting_for_human(self) -> bool:
        """Whether the game waits for local input right now (and no animation plays)."""
        seat = self.driver.seat
        return not self.queue.busy and not self.paused and seat is not None and seat.local

    def legal(self) -> list[Action]:
        return self.game.legal_actions() if self.waiting_for_human() else []

    # -- changes -----------------------------------------------------------------------
    def submit(self, action: Action) -> bool:
        """A local player's action; refused (False, nothing changes) if not legal now."""
        if not self._give(action):
            return False
        self._changed()
        self.advance()
        return True

    def submit_many(self, actions: list[Action]) -> bool:
        """Several local actions in a row (e.g. the best layoffs then Done), each checked
        when its turn comes: stops at the first that is not legal."""
        if not self.waiting_for_human():
            return False
        done = False
        for action in actions:
            if not self._give(action, busy_ok=True):
                break
            done = True
        if done:
            self._changed()
            self.advance()
        return done

    def _give(self, action: Action, busy_ok: bool = False) -> bool:
        """Hand one local action to the seat whose turn it is and let the driver play it."""
        seat = self.driver.seat
        if not (busy_ok or self.waiting_for_human()) or seat is None or not seat.local:
            return False
        if action not in self.game.legal_actions():
            return False
        seat.give(action)
        if self.driver.pump(self._now()) != MOVED:  # pragma: no cover - a local seat answers
            seat.inbox.clear()
            return False
        return True

    def next_hand(self) -> bool:
        """Deal the next hand once a hand is over (False when not possible)."""
        if self.queue.busy or not self.driver.next_hand():
            return False
        self._changed()
        self.advance()
        return True

    def advance(self) -> None:
        """Pump the driver until local input is needed, a seat thinks, a hand ends, or an
        animation must play first. With animation speed 0 this runs whole stretches at once."""
        while not self.queue.busy and not self.paused:
            if self.driver.pump(self._now()) != MOVED:
                return
            self._changed()

    # the score pad lies on the felt (a two-column pad, room for it at the front left)
    felt_pad = True

    def score_sheet(self) -> ScoreSheet | None:
        """The game's score sheet so far (None where the table keeps none: a lesson, or
        Hollywood scoring, which has its own sheet at game over)."""
        return score_sheet(self.game)

    def sheet_names(self) -> tuple[str, ...]:
        """The names over the sheet's columns, in its order."""
        return self.names

    def can_skip(self) -> bool:
        """Whether the player may hurry what the table waits for: a computer's move at this
        table (its thinking pause and its animations; a table of others' seats says no)."""
        seat = self.driver.seat
        return seat is not None and not seat.local and not self.paused

    def skip(self) -> bool:
        """Play on at once until the player is asked again or the hand is over (a hand they
        only watch: to its result): the computers still choose every move; only their pauses
        (each due at once: ``now`` is infinitely late) and the animations (each jumped to
        its end) go. The speed setting is left alone."""
        if not self.can_skip():
            return False
        while True:
            self.queue.finish_all()
            if self.driver.pump(math.inf) != MOVED:
                break
            self._changed()
        self.queue.finish_all()
        self.advance()
        self._changed()
        return True

    def set_shown(self, on: bool) -> None:
        """What the table shows besides the scene (a team game's inset) follows the HUD."""

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if not paused:
            self.driver.restart_pause()  # a computer thinks afresh after the pause
            self.advance()

    def show_events(self, action: Action | None, events) -> None:
        """Show and narrate events on the table (the driver's ``on_events`` hook)."""
        for e in events:
            self.scene.show_event(redact(e, 0))
            self._narrate(e)

    def _hand_finished(self, game: Game) -> None:
        for fn in list(self.on_game_over if game.over else self.on_hand_over):
            fn(game)

    def _now(self) -> float:
        return self._clock.getFrameTime()

    def _idle(self) -> None:
        self.advance()
        self._changed()

    def _tick(self, task):
        self.advance()
        return task.cont

    def _changed(self) -> None:
        for fn in list(self.on_change):
            fn()

    def say(self, text: str) -> None:
        """Put ``text`` on the message line about the game as it stands now: it goes when the
        next event is shown (a move by anyone, a new deal), the one rule for stale lines."""
        self._line_at = self._moment
        for fn in list(self.on_message):
            fn(text)

    def _said(self, text: str, moment: int) -> None:
        """An event's line, shown when its animation comes: unless the game moved on since."""
        if moment == self._moment:
            self.say(text)
        else:
            self._expire(moment)

    def _expire(self, moment: int) -> None:
        """The game reached ``moment``: a line from before it is out of date."""
        if self._line_at is not None and self._line_at < moment:
            self._line_at = None
            for fn in list(self.on_message):
                fn("")

    def _narrate(self, e) -> None:
        """One line per notable event, for the HUD's message line and the log; every event,
        told or not, moves the game on (and so expires the line before it)."""
        self._moment += 1
        moment = self._moment
        name = self.names
        text = None
        if isinstance(e, Passed):
            text = f"{name[e.seat]} passed" + (" the upcard" if e.what == "upcard" else "")
        elif isinstance(e, CardDrawn) and e.seat != self.quiet_seat:
            text = (
                f"{name[e.seat]} drew from the stock"
                if e.source == "stock"
                else f"{name[e.seat]} took the {e.card.pretty}"
            )
        elif isinstance(e, Discarded) and e.seat != self.quiet_seat:
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
            self.queue.call(lambda: self._said(text, moment))
        else:
            self.queue.call(lambda: self._expire(moment))

    def destroy(self) -> None:
        self.base.taskMgr.remove(self._task)
        if self._idle in self.queue.on_idle:
            self.queue.on_idle.remove(self._idle)
        self.on_change.clear()
        self.on_hand_over.clear()
        self.on_game_over.clear()
        self.on_message.clear()
        for hooks in (self.on_applied, self.driver.on_events, self.driver.on_asked):
            hooks.clear()
        self.driver.on_hand_finished.clear()


class PlayerNames:
    """A group game's names (a mixin, before ``TableController``): ``player_names`` by
    player, ``names`` those at table seats 0 (bottom) and 1, the players ``seated()``."""

    player_names: tuple[str, ...]

    def seated(self) -> tuple[int, int]:
        return self.game.local

    @property
    def names(self) -> tuple[str, str]:
        near, far = self.seated()
        return self.player_names[near], self.player_names[far]

    @names.setter
    def names(self, names) -> None:
        self.player_names = tuple(names)
