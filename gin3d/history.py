"""Hand history and replay: every finished hand is kept as its deck, dealer, rules and actions.

``HandRecord`` is one finished hand; ``append_hand``/``read_hands`` keep them in a JSON-lines
file in the user's data folder (one hand a line, appended and synced; a torn last line from a
crash is skipped). ``Replay`` steps through a record forwards and back with both hands
visible. Going back rebuilds the hand by replaying the actions before that point: the engine
is deterministic, so every step back is exact.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .engine import (
    CARDS,
    BigGin,
    CardDrawn,
    Discard,
    DrawDiscard,
    DrawStock,
    Event,
    FinishLayoff,
    Hand,
    HandDrawn,
    HandScored,
    IllegalAction,
    Knock,
    Knocked,
    LayOff,
    NextHand,
    Pass,
    RuleSet,
    format_cards,
    parse_action,
    parse_cards,
)
from .engine.actions import Action
from .engine.game import Game
from .engine.hand import LogError
from .engine.sheet import ScoreSheet, score_sheet
from .paths import append_line, history_path, loads_json
from .settings import OPPONENT_LEVELS

FORMAT = "gin3d-hand"
VERSION = 1


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: enough to replay it exactly, plus a summary for lists."""

    rules: RuleSet
    dealer: int
    deck: tuple[int, ...]  # dealing order, first card dealt first
    actions: tuple[str, ...]
    hand_number: int = 0
    names: tuple[str, str] = ("Player", "Computer")
    game_id: str = ""
    opponent_level: str | None = None
    finished_at: str = ""  # ISO time, UTC
    winner: int | None = None  # seat, None for a drawn hand
    kind: str = "drawn"  # knock | undercut | gin | big_gin | drawn
    points: int = 0
    you: int | None = None  # the local player's seat in the hand (shown as "You")
    partners: tuple[str, str] = ()  # a partnership round: each seat's partner at the other table

    @classmethod
    def of(
        cls,
        hand: Hand,
        names: tuple[str, str] = ("Player", "Computer"),
        game_id: str = "",
        opponent_level: str | None = None,
        when: datetime | None = None,
        you: int | None = None,
        partners: tuple[str, str] = (),
    ) -> HandRecord:
        """The record of a finished hand (``you``: the local player's seat in it)."""
        if not hand.over:
            raise ValueError("only a finished hand is kept in the history")
        when = when or datetime.now(timezone.utc)
        r = hand.result
        return cls(
            rules=hand.rules,
            dealer=hand.dealer,
            deck=tuple(int(c) for c in hand.deck),
            actions=tuple(str(a) for a in hand.actions),
            hand_number=hand.hand_number,
            names=tuple(names),
            game_id=str(game_id),
            opponent_level=opponent_level,
            finished_at=when.isoformat(timespec="seconds"),
            winner=hand.winner,
            kind=r.kind if r else "drawn",
            points=r.points if r else 0,
            you=you,
            partners=tuple(partners),
        )

    @property
    def seat_of_you(self) -> int | None:
        """The local player's seat: as recorded, or for a record from before that was kept,
        seat 0 of a game against the computer (the only seat a person had there)."""
        if self.you is not None or self.opponent_level not in OPPONENT_LEVELS:
            return self.you
        return 0

    def shown_names(self) -> tuple[str, str]:
        """The two seats' names as a player reads them: "You" for their own."""
        you = self.seat_of_you
        return tuple("You" if seat == you else name for seat, name in enumerate(self.names))

    def versus(self) -> str:
        """Who played whom, for the history list: "You vs Walt", in a partnership round
        both teams ("You & Rosie vs Walt & Margo")."""
        near, far = self.shown_names()
        if len(self.partners) == 2:
            return f"{near} & {self.partners[0]} vs {far} & {self.partners[1]}"
        return f"{near} vs {far}"

    def replay_hand(self) -> Hand:
        """The hand dealt, before any action."""
        return Hand(self.rules, self.dealer, self.deck, self.hand_number)

    def parsed_actions(self) -> list[Action]:
        return [parse_action(a) for a in self.actions]

    def summary(self) -> str:
        """One line for the history list."""
        if self.winner is None:
            return f"Hand {self.hand_number + 1}: drawn"
        label = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "Big Gin"}.get(
            self.kind, self.kind
        )
        return (
            f"Hand {self.hand_number + 1}: {self.shown_names()[self.winner]} won "
            f"{self.points} ({label})"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deck": format_cards(CARDS[c] for c in self.deck),
            "actions": list(self.actions),
            "hand_number": self.hand_number,
            "names": list(self.names),
            "game_id": self.game_id,
            "opponent_level": self.opponent_level,
            "finished_at": self.finished_at,
            "winner": self.winner,
            "kind": self.kind,
            "points": self.points,
            **({"you": self.you} if self.you is not None else {}),
            **({"partners": list(self.partners)} if self.partners else {}),
        }

    @classmethod
    def from_dict(cls, d: Any) -> HandRecord:
        """Check a decoded record (ValueError names the problem) and replay it to be sure."""
        if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("version") != VERSION:
            raise ValueError("not a gin3d hand record of a known version")
        try:
            names = d["names"]
            if not (
                isinstance(names, list)
                and len(names) == 2
                and all(isinstance(n, str) for n in names)
            ):
                raise ValueError("names must be two texts")
            actions = d["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise ValueError("actions must be texts")
            you = d.get("you")
            if you not in (None, 0, 1):
                raise ValueError("you must be seat 0 or 1")
            partners = d.get("partners", [])
            if not (
                isinstance(partners, list)
                and len(partners) in (0, 2)
                and all(isinstance(n, str) for n in partners)
            ):
                raise ValueError("partners must be two texts")
            record = cls(
                rules=RuleSet.from_dict(d["rules"]),
                dealer=d["dealer"],
                deck=tuple(int(c) for c in parse_cards(d["deck"])),
                actions=tuple(actions),
                hand_number=int(d["hand_number"]),
                names=(names[0], names[1]),
                game_id=str(d.get("game_id", "")),
                opponent_level=d.get("opponent_level"),
                finished_at=str(d.get("finished_at", "")),
                winner=d.get("winner"),
                kind=str(d.get("kind", "drawn")),
                points=int(d.get("points", 0)),
                you=you,
                partners=tuple(partners),
            )
        except KeyError as e:
            raise ValueError(f"hand record lacks {e.args[0]!r}") from None
        # every action must replay
        Hand.from_log(record.rules, record.dealer, record.deck, record.actions, record.hand_number)
        return record


def append_hand(record: HandRecord, path: Path | str | None = None) -> Path:
    """Add a finished hand to the history file."""
    path = Path(path) if path is not None else history_path()
    append_line(path, json.dumps(record.to_dict(), separators=(",", ":")))
    return path


def game_sheet(record: HandRecord, records: list[HandRecord]) -> ScoreSheet | None:
    """The score sheet of ``record``'s game up to and including its hand, rebuilt from the
    game's hands in ``records`` (the engine is deterministic: the same decks and actions give
    the same scores). None where there is no two-column sheet to show: a hand kept without
    its game, a game of three or of teams (other pairs in its hands), a history missing one
    of the game's earlier hands, or scoring the pad does not keep."""
    if not record.game_id or record.partners:
        return None
    hands = {r.hand_number: r for r in records if r.game_id == record.game_id}
    game_hands = [hands.get(n) for n in range(record.hand_number + 1)]
    if any(r is None or r.names != record.names or r.partners for r in game_hands):
        return None
    try:
        game = Game.from_log(
            record.rules,
            record.game_id,
            game_hands[0].dealer,
            decks=[r.deck for r in game_hands],
            actions=[a for r in game_hands for a in (*r.actions, str(NextHand()))][:-1],
        )
    except (LogError, ValueError):
        return None
    if [h.dealer for h in game.hands] != [r.dealer for r in game_hands]:
        return None
    return score_sheet(game)


def read_hands(path: Path | str | None = None) -> tuple[list[HandRecord], int]:
    """(every readable hand, oldest first; how many lines were skipped as unreadable)."""
    path = Path(path) if path is not None else history_path()
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return [], 0
    records, skipped = [], 0
    for line in lines:
        if not line.strip():
            continue
        try:
            records.append(HandRecord.from_dict(loads_json(line)))
        except (ValueError, TypeError, KeyError, AttributeError):
            skipped += 1
    return records, skipped


# -- replay ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Frame:
    """What the replay viewer shows at one step: both hands face up, the table, a caption."""

    step: int  # actions applied so far
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    pile: tuple[int, ...]  # top last
    stock: tuple[int, ...]  # top last
    table_melds: tuple[tuple[int, ...], ...]
    phase: str
    turn: int
    caption: str
    events: tuple[Event, ...] = field(default=())  # events of the last step (for animation)


class Replay:
    """Steps through a recorded hand. ``forward()``/``back()``/``seek(n)``; ``frame()``."""

    def __init__(self, record: HandRecord) -> None:
        self.record = record
        self.actions = record.parsed_actions()
        self.hand = record.replay_hand()
        self.step = 0
        self._last_events: list[Event] = list(self.hand.events)

    @property
    def length(self) -> int:
        return len(self.actions)

    @property
    def at_start(self) -> bool:
        return self.step == 0

    @property
    def at_end(self) -> bool:
        return self.step == len(self.actions)

    def forward(self) -> list[Event]:
        """Apply the next action; its events (empty at the end)."""
        if self.at_end:
            return []
        action = self.actions[self.step]
        try:
            events = self.hand.apply(action)
        except IllegalAction as e:
            raise ValueError(
                f"recorded action {self.step + 1} ({action}) does not replay: {e}"
            ) from None
        self.step += 1
        self._last_events = events
        return events

    def back(self) -> Hand:
        """Go one action back (rebuilt from the deal by replaying)."""
        self.seek(max(0, self.step - 1))
        return self.hand

    def seek(self, step: int) -> Hand:
        """Go to just after action ``step`` (0 = the deal)."""
        if not 0 <= step <= len(self.actions):
            raise ValueError(f"step must be 0..{len(self.actions)}, got {step}")
        if step < self.step:
            self.hand = self.record.replay_hand()
            self.step = 0
            self._last_events = list(self.hand.events)
        while self.step < step:
            self.forward()
        return self.hand

    def frame(self) -> Frame:
        h = self.hand
        return Frame(
            step=self.step,
            hands=(tuple(h.hands[0]), tuple(h.hands[1])),
            pile=tuple(h.pile),
            stock=tuple(h.stock),
            table_melds=tuple(tuple(m) for m in h.table_melds),
            phase=h.phase,
            turn=h.turn,
            caption=self.caption(),
            events=tuple(self._last_events),
        )

    def caption(self) -> str:
        """What happened in the last step, in words."""
        names = self.record.shown_names()
        if self.step == 0:
            deals = f"{_does(names[self.hand.dealer], 'deals', 'deal')}."
            return (
                f"{deals} Upcard {_pretty(self.hand.upcard)}."
                if self.hand.upcard is not None
                else deals
            )
        # the seat that acted: the turn before this step's action
        seat = _actor(self._last_events)
        who = names[seat] if seat is not None else ""
        return describe(self.actions[self.step - 1], who, self._last_events, names)


def _pretty(c: int | None) -> str:
    return CARDS[c].pretty if c is not None else "?"


def _actor(events: list[Event]) -> int | None:
    for e in events:
        seat = getattr(e, "seat", None)
        if seat is not None:
            return seat
    return None


def _does(who: str, third: str, second: str) -> str:
    """``who`` and the verb that goes with it: "Walt draws", "You draw"."""
    return f"{who} {second if who == 'You' else third}"


def describe(action: Action, who: str, events: list[Event], names: tuple[str, str]) -> str:
    """A caption for one replayed action, e.g. ``Walt draws 7♥ from the stock.`` (``You
    draw …`` for the local player)."""
    t = type(action)
    if t is Pass:
        text = f"{_does(who, 'passes', 'pass')}."
    elif t in (DrawStock, DrawDiscard):
        drawn = next((e for e in events if isinstance(e, CardDrawn)), None)
        where = "the stock" if t is DrawStock else "the discard pile"
        text = (
            f"{_does(who, 'draws', 'draw')} {_pretty(drawn.card if drawn else None)} from {where}."
        )
    elif t is Discard:
        text = f"{_does(who, 'discards', 'discard')} {_pretty(action.card)}."
    elif t in (Knock, BigGin):
        k = next((e for e in events if isinstance(e, Knocked)), None)
        kind = {
            "knock": ("knocks", "knock"),
            "gin": ("goes gin", "go gin"),
            "big_gin": ("goes Big Gin", "go Big Gin"),
        }.get(k.kind if k else "knock", ("knocks", "knock"))
        text = f"{_does(who, *kind)}."
        if k and k.kind == "knock":
            text += f" Deadwood {sum(CARDS[c].value for c in k.deadwood)}."
    elif t is LayOff:
        text = f"{_does(who, 'lays off', 'lay off')} {_pretty(action.card)}."
    elif t is FinishLayoff:
        text = f"{_does(who, 'finishes', 'finish')} laying off."
    else:
        text = f"{who}: {action}."
    for e in events:
        if isinstance(e, HandScored):
            winner = names[e.winner]
            text += f" {e.result.breakdown()} to {'you' if winner == 'You' else winner}."
        elif isinstance(e, HandDrawn):
            text += " The hand is drawn."
    return text
