"""TutorialRunner: plays one chapter's script over a real ``Hand`` — Watch or Play along.

Step ``i`` is entered by applying its ``do`` actions (and score-sheet records) to the state
left by the steps before it; leaving it forward applies the learner's expected move. Because
the deal is fixed, ``back()`` and ``goto()`` simply rebuild from the deal and the script, which
gives exactly the same table. The scene animates the events ``start``/``next``/``act``
return and draws ``frame()``; it never changes the engine state itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gin3d.engine import (
    Action,
    BigGin,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    Event,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    PlayerView,
    RuleSet,
    deadwood_of_mask,
    parse_action,
    parse_hand,
)

from .expressions import evaluate
from .lesson import NAMED_CARDS, PLACES, Chapter, Expect, Step
from .narration import fill, narrate
from .practice import Hint, greedy_player, hint
from .table import Table, lesson_rules

WATCH, PLAY = "watch", "play"
MOVE_KIND = {
    DrawStock: "draw stock",
    DrawDiscard: "draw discard",
    Pass: "pass",
    Discard: "discard",
    Knock: "knock",
    BigGin: "big gin",
    LayOff: "layoff",
    FinishLayoff: "done",
}

Move = Action | Card  # an engine action, or a card clicked in a lesson without a hand


@dataclass(frozen=True)
class ClaimResult:
    claim: str
    ok: bool
    error: str = ""


@dataclass(frozen=True)
class Frame:
    """Everything the table shows at one step."""

    chapter: int
    title: str
    index: int
    count: int
    text: str
    camera: str
    focus_cards: tuple[Card, ...]
    focus_places: tuple[str, ...]
    show: tuple[tuple[tuple[Card, ...], ...], ...]  # rows of groups of cards
    labels: tuple[str, ...]
    waiting: bool  # Play along: the learner's move is awaited
    prompt: str  # Play along: what to do now
    practice: bool
    finished: bool


@dataclass(frozen=True)
class Outcome:
    """The answer to a learner's move: right (events to animate) or wrong (why)."""

    ok: bool
    why: str = ""
    events: tuple[Event, ...] = ()


class TutorialRunner:
    """Plays one chapter. ``mode`` is ``"watch"`` or ``"play"`` (Play along)."""

    def __init__(
        self,
        chapter: Chapter,
        rules: RuleSet | None = None,
        mode: str = WATCH,
        opponent: str = "Robin",
        practice_player: Callable[[PlayerView], Action] | None = None,
        practice_hint: Callable[[PlayerView], Hint] | None = None,
        seat_driven: bool = False,
    ) -> None:
        if mode not in (WATCH, PLAY):
            raise ValueError(f"mode must be {WATCH!r} or {PLAY!r}, got {mode!r}")
        self.chapter = chapter
        self.rules = lesson_rules(rules)
        self.mode = mode
        self.opponent = opponent
        self._player = practice_player or greedy_player
        self._hint_for = practice_hint or hint
        self._hint_cache: tuple[Any, int, Hint] | None = None
        self._practice_played: list[Action] = []  # moves of the last practice hand finished
        # Play along's practice hand runs on a game driver (the table): the opponent answers
        # ``opponent_move`` as a seat, not inside ``act``, and ``practice_moved`` follows it
        self.seat_driven = seat_driven
        self.steps: list[Step] = chapter.steps_for(Table(chapter, self.rules).names(opponent))
        self.index = 0
        self.finished = False
        self.table = Table(chapter, self.rules)
        self._entry: list[Event] = []
        self.goto(0)

    # -- moving through the script ------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.steps[self.index]

    def start_events(self) -> list[Event]:
        """The events that set the table for the current step (the deal and the step's own
        actions after a rebuild): what the scene animates when a chapter (re)starts."""
        return list(self._entry)

    def goto(self, index: int) -> list[Event]:
        """Rebuild the table as it is on entering step ``index`` (used for Back and the
        chapter list). Returns every event from the deal on, for a scene that re-lays out."""
        if not 0 <= index < len(self.steps):
            raise ValueError(f"step {index} is outside 0..{len(self.steps) - 1}")
        table = Table(self.chapter, self.rules)
        events: list[Event] = list(table.hand.events) if table.hand else []
        for step in self.steps[:index]:
            events += self._enter(table, step)
            events += self._complete(table, step)
        events += self._enter(table, self.steps[index])
        self.table, self.index, self.finished = table, index, False
        self._entry = events
        return list(events)

    def back(self) -> list[Event]:
        """Go back one step (or replay the first): the table is rebuilt exactly."""
        return self.goto(max(self.index - 1, 0))

    @property
    def waiting(self) -> bool:
        """Whether the current step waits for the learner (Play along, or a practice hand)."""
        if self.finished:
            return False
        if self.step.practice:
            return self._practice_live() and self.mode == PLAY
        return self.mode == PLAY and self.step.expect is not None

    def next(self) -> list[Event]:
        """Advance (Watch, or a step without a learner's move). In Watch mode the expected
        move is made for the learner; in a practice hand one move is played per call."""
        if self.finished:
            raise ValueError("the chapter is finished")
        if self.waiting:
            raise ValueError("waiting for your move: " + self.prompt())
        if self.step.practice and self._practice_live():
            events = self._practice_turn()
            if self._practice_live():
                return events
            self._practice_played = list(self.table.game.actions)
            return events + self._advance()
        events = self._complete(self.table, self.step)
        return events + self._advance()

    def _advance(self) -> list[Event]:
        if self.index + 1 >= len(self.steps):
            self.finished = True
            return []
        self.index += 1
        return self._enter(self.table, self.step)

    def _enter(self, table: Table, step: Step) -> list[Event]:
        if step.sheet:
            table.start_sheet(step.sheet)
        if step.record:
            table.record(step.record)
        return table.run(step.do)

    def _complete(self, table: Table, step: Step) -> list[Event]:
        if step.expect is not None and step.expect.move is not None:
            return table.apply(step.expect.move)
        if step.practice:
            events = []
            replay = list(self._practice_played)  # the hand as it was played, for Back
            while self._practice_live(table):
                if replay and table.game.hand.is_legal(replay[0]):
                    events += table.game.apply(replay.pop(0))
                else:
                    replay = []
                    events += self._practice_turn(table)
            self._practice_played = list(table.game.actions)
            return events
        return []

    # -- the learner's moves ------------------------------------------------------------
    def act(self, move: Move) -> Outcome:
        """A learner's move (seat 0). Right: applied, and the script continues. Wrong: the
        explanation, and nothing changes."""
        if self.finished:
            return Outcome(False, "This chapter is finished.")
        step = self.step
        if step.practice and self._practice_live():
            return self._practice_act(move)
        expect = step.expect
        if expect is None:
            return Outcome(False, "Nothing to do here yet: press Next to go on.")
        names = self.names()
        if expect.pick:
            if isinstance(move, Card) and move in expect.pick:
                return Outcome(True, events=tuple(self._advance()))
            return Outcome(False, self._why(expect, move, names, legal=True))
        right = parse_action(self.table.action_text(expect.move))
        if isinstance(move, Card) or move != right:
            legal = not isinstance(move, Card) and self.table.hand.is_legal(move)
            return Outcome(False, self._why(expect, move, names, legal))
        events = self.table.apply(str(right))
        return Outcome(True, events=tuple(events + self._advance()))

    def _why(self, expect: Expect, move: Move, names: dict[str, Any], legal: bool) -> str:
        kind = "pick" if isinstance(move, Card) else MOVE_KIND.get(type(move), "any")
        c = move if isinstance(move, Card) else getattr(move, "card", None)
        extra = dict(
            names,
            card=c,
            picked=c,
            move=str(move),
            card_value=c.value if c is not None else 0,
            dead_if=self._dead_if(c),
        )
        for wrong in expect.wrong:
            if (
                wrong.kind == "any"
                or (wrong.kind == "illegal" and not legal)
                or (wrong.kind == kind and (not wrong.cards or c in wrong.cards))
            ):
                return fill(wrong.why, extra)
        return "Not quite. " + fill(expect.prompt, extra)

    def _dead_if(self, c: Card | None) -> int:
        hand = self.table.hand
        if c is None or hand is None or hand.turn < 0 or c not in hand.hands[hand.turn]:
            return 0
        return deadwood_of_mask(hand.masks[hand.turn] & ~c.bit)

    # -- the practice hand ----------------------------------------------------------------
    def _practice_live(self, table: Table | None = None) -> bool:
        table = table or self.table
        return table.game is not None and not table.game.hand.over

    def _practice_turn(self, table: Table | None = None) -> list[Event]:
        """One move of the practice hand: the opponent's, or in Watch mode the hint's."""
        table = table or self.table
        game = table.game
        seat = game.hand.turn
        view = game.view(seat)
        action = self._player(view) if seat == 1 else self._hint_for(view).action
        if action not in view.legal:
            action = greedy_player(view)
        return game.apply(action)

    def _practice_act(self, move: Move) -> Outcome:
        game = self.table.game
        if game.hand.turn != 0:
            return Outcome(False, f"Wait for {self.opponent} to play.")
        if isinstance(move, Card) or not game.hand.is_legal(move):
            return Outcome(False, explain_illegal(self.table, move, self.opponent))
        events = game.apply(move)
        while not self.seat_driven and self._practice_live() and game.hand.turn == 1:
            events += self._practice_turn()
        return Outcome(True, events=tuple(events + self.practice_moved()))

    def opponent_move(self, view: PlayerView) -> Action | None:
        """The practice opponent's answer as a seat (Play along, its turn), else None."""
        if self.finished or self.mode != PLAY or not self.step.practice:
            return None
        if not self._practice_live() or view.turn != 1 or view.seat != 1:
            return None
        action = self._player(view)
        return action if action in view.legal else greedy_player(view)

    def practice_moved(self) -> list[Event]:
        """After a move of the practice hand: once the hand is over, the events of going on
        to the next step (none while it goes on, or outside the practice hand)."""
        if not self.step.practice or self.finished or self._practice_live():
            return []
        self._practice_played = list(self.table.game.actions)
        return self._advance()

    def hint(self) -> Hint | None:
        """The hint for the learner's current practice move (hints are on in practice);
        worked out once per position, however often the table asks."""
        game = self.table.game
        if not self.step.practice or game is None or game.hand.turn != 0:
            return None
        cached = self._hint_cache
        if cached is None or cached[0] is not game or cached[1] != len(game.actions):
            cached = self._hint_cache = (game, len(game.actions), self._hint_for(game.view(0)))
        return cached[2]

    # -- what the table shows -----------------------------------------------------------
    def names(self) -> dict[str, Any]:
        return self.table.names(self.opponent)

    def prompt(self) -> str:
        step = self.step
        names = self.names()
        if step.practice and self._practice_live():
            h = self.hint()
            return h.reason if h else f"{self.opponent} is playing."
        return fill(step.expect.prompt, names) if step.expect else ""

    def frame(self) -> Frame:
        step = self.step
        names = self.names()
        cards: list[Card] = []
        places: list[str] = []
        for token in step.focus:
            if token in PLACES:
                places.append(token)
            elif token in NAMED_CARDS:
                if names.get(token) is not None:
                    cards.append(names[token])
            else:
                cards.append(parse_hand(token, 1)[0])
        show = tuple(tuple(tuple(parse_hand(g)) for g in row.split("|")) for row in step.show)
        return Frame(
            chapter=self.chapter.number,
            title=self.chapter.title,
            index=self.index,
            count=len(self.steps),
            text=narrate(step.say, names),
            camera=step.camera,
            focus_cards=tuple(cards),
            focus_places=tuple(places),
            show=show,
            labels=tuple(fill(label, names) for label in step.labels),
            waiting=self.waiting,
            prompt=self.prompt() if self.waiting else "",
            practice=step.practice,
            finished=self.finished,
        )

    def check(self) -> list[ClaimResult]:
        """Evaluate the current step's claims against the live engine state."""
        names = self.names()
        out = []
        for claim in self.step.check:
            try:
                out.append(ClaimResult(claim, bool(evaluate(claim, names))))
            except Exception as exc:  # a broken claim is a failed claim, reported in words
                out.append(ClaimResult(claim, False, f"{type(exc).__name__}: {exc}"))
        return out


def explain_illegal(table: Table, move: Move, opponent: str) -> str:
    """Why a move the engine refuses is not allowed now, in words for a newcomer."""
    hand = table.hand
    if isinstance(move, Card):
        return "Click one of your cards when it is time to discard."
    phase = hand.phase
    if hand.turn != 0:
        return f"It is {opponent}'s turn."
    if phase == "upcard":
        return "First turn: take the upcard from the pile, or pass."
    if phase == "draw":
        if isinstance(move, DrawDiscard):
            return "After both of you passed the upcard, the first draw is from the stock."
        return "First draw a card: click the stock or the top of the pile."
    if phase == "discard":
        if isinstance(move, (Discard, Knock)) and move.card == hand.taken:
            return (
                f"You just took the {move.card.pretty} from the pile: it cannot go back "
                f"on the pile this turn."
            )
        if isinstance(move, Knock) and move.card in hand.hands[0]:
            left = deadwood_of_mask(hand.masks[0] & ~move.card.bit)
            return (
                f"Without the {move.card.pretty} your deadwood would be {left}, over the "
                f"knock limit of {hand.knock_limit}."
            )
        if isinstance(move, BigGin):
            return "Big Gin needs all 11 cards in melds (and the rules must allow it)."
        return "You have 11 cards: discard one of them (or knock)."
    if phase == "layoff":
        if isinstance(move, LayOff):
            return (
                f"The {move.card.pretty} does not fit that meld: a set takes its missing "
                f"suit, a run the next card at either end."
            )
        return "Lay off cards on the knocker's melds, or press Done."
    return "That move is not possible now."
