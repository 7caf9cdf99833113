"""The lesson data model: chapters, steps, the fixed deal, and loading them from JSON.

A chapter file (``gin3d/tutorial/chapters/NN_name.json``) holds everything a lesson says and
does; the code that plays it lives in ``runner.py``. Loading checks the whole file up front
(cards, actions, claims, camera names) and raises ``LessonError`` naming the file and step, so
a broken lesson never reaches the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from gin3d.engine import CARDS, Card, parse_action, parse_hand
from gin3d.paths import bundle_root

from .expressions import ExpressionError, evaluate, parse_expression

CAMERAS = ("table", "hand", "pile", "stock", "melds", "opponent", "score", "show")
PLACES = ("stock", "pile", "hand", "opponent", "melds", "score", "show")
MOVE_KINDS = (
    "draw stock",
    "draw discard",
    "pass",
    "discard",
    "knock",
    "big gin",
    "layoff",
    "done",
    "pick",
)
NAMED_CARDS = ("upcard", "top", "drawn")  # focus tokens resolved from the live state
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


class LessonError(ValueError):
    """A lesson file that does not hold together; the message names the file and step."""


@dataclass(frozen=True)
class SayPart:
    """One piece of narration, shown when ``when`` (an expression) holds, else ``otherwise``."""

    text: str
    when: str | None = None
    otherwise: str = ""


@dataclass(frozen=True)
class WrongMove:
    """How to explain one class of wrong move: ``match`` is ``illegal``, ``any``, a move kind
    (``discard``, ``draw stock``, ``pick``…) optionally followed by the cards it covers."""

    match: str
    why: str

    @property
    def kind(self) -> str:
        for kind in ("illegal", "any", *MOVE_KINDS):
            if self.match == kind or self.match.startswith(kind + " "):
                return kind
        raise LessonError(
            f"wrong-move class {self.match!r} is not one of illegal, any, {', '.join(MOVE_KINDS)}"
        )

    @property
    def cards(self) -> frozenset[Card]:
        rest = self.match[len(self.kind) :].strip()
        if self.kind == "layoff" and rest:
            rest = " ".join(t for t in rest.split() if not t.isdigit())
        return frozenset(parse_hand(rest)) if rest else frozenset()


@dataclass(frozen=True)
class Expect:
    """The learner's move that completes a step: an engine action (``move``, in the text form
    ``parse_action`` reads) or clicking one of the ``pick`` cards laid out on the table."""

    prompt: str
    wrong: tuple[WrongMove, ...]
    move: str | None = None
    pick: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Step:
    say: tuple[SayPart, ...]
    check: tuple[str, ...]
    do: tuple[Any, ...] = ()  # action texts, or {"repeat": n, "do": [...]}
    camera: str = "table"
    focus: tuple[str, ...] = ()
    show: tuple[str, ...] = ()  # rows of cards, groups split by "|"
    labels: tuple[str, ...] = ()
    when: str | None = None  # the step only exists under rules where this holds
    expect: Expect | None = None
    sheet: str | None = None  # start a fresh score sheet from this list of hands
    record: int | str = 0  # hands of the sheet to score at this step (or "all")
    practice: bool = False  # the guided practice hand is played at this step


@dataclass(frozen=True)
class Deal:
    """Who holds what at the start. ``deck()`` turns it into the fixed 52-card dealing order."""

    dealer: int
    you: tuple[Card, ...]
    them: tuple[Card, ...]
    upcard: Card
    stock: tuple[Card, ...]  # the top of the stock first; the rest follow in card order

    def deck(self) -> list[Card]:
        """Dealing order for ``Hand(rules, dealer, deck)``: one card at a time from the
        non-dealer, then the upcard, then the stock from the top down."""
        non_dealer = self.you if self.dealer == 1 else self.them
        dealer = self.them if self.dealer == 1 else self.you
        order: list[Card] = []
        for a, b in zip(non_dealer, dealer):
            order += [a, b]
        order.append(self.upcard)
        order += self.stock
        used = set(order)
        order += [c for c in CARDS if c not in used]
        return order


@dataclass(frozen=True)
class SheetHand:
    """One scored hand of a worked score sheet: who knocked, both players' cards."""

    knocker: int
    knocker_cards: tuple[Card, ...]
    other_cards: tuple[Card, ...]


@dataclass(frozen=True)
class Group:
    """The players beyond the two at the table, for the chapters on three-player Gin and the
    partnership game: the table stays a two-player hand (you, player 0, against the computer,
    player 1) and these players are met in the narration. Three players: ``sitter`` (player
    2) dealt the hand and sits it out. Four: ``partner`` (player 2) plays ``partner_opponent``
    (player 3) at the other table; ``partner_hand`` is that hand, knocker 0 the partner."""

    players: int
    sitter: str = ""
    partner: str = ""
    partner_opponent: str = ""
    partner_hand: SheetHand | None = None


@dataclass(frozen=True)
class Chapter:
    id: str
    number: int
    title: str
    summary: str
    steps: tuple[Step, ...]
    deal: Deal | None = None
    sheets: Mapping[str, tuple[SheetHand, ...]] = field(default_factory=dict)
    practice_seed: int | None = None
    group: Group | None = None

    def steps_for(self, names: Mapping[str, Any]) -> list[Step]:
        """The steps that exist under the rules in ``names`` (their ``when`` holds)."""
        return [s for s in self.steps if s.when is None or evaluate(s.when, names)]


# -- loading ------------------------------------------------------------------------------
def load_chapters() -> list[Chapter]:
    """Every chapter shipped in ``gin3d/tutorial/chapters``, in order."""
    root = bundle_root()  # a packaged build: the chapters sit beside the executable
    folder = (
        root / "gin3d" / "tutorial" / "chapters"
        if root is not None
        else resources.files("gin3d.tutorial") / "chapters"
    )
    files = sorted(f for f in folder.iterdir() if f.name.endswith(".json"))
    chapters = [load_chapter(f.read_text(encoding="utf-8"), f.name) for f in files]
    numbers = [c.number for c in chapters]
    if numbers != list(range(1, len(chapters) + 1)):
        raise LessonError(f"chapter numbers must run 1..{len(chapters)}, got {numbers}")
    return chapters


def load_chapter(text: str, source: str = "<lesson>") -> Chapter:
    """Parse and check one chapter file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LessonError(f"{source}: not valid JSON: {exc}") from None
    try:
        return _chapter(data)
    except (LessonError, ValueError, TypeError, KeyError) as exc:
        raise LessonError(f"{source}: {exc}") from None


def _require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(data, Mapping):
        raise LessonError(f"expected a JSON object holding {key!r}, got {data!r}")
    if key not in data:
        raise LessonError(f"missing {key!r}")
    if not isinstance(data[key], kind) or isinstance(data[key], bool) is not (kind is bool):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        names = " or ".join(k.__name__ for k in kinds)
        raise LessonError(f"{key!r} must be {names}, got {type(data[key]).__name__}")
    return data[key]


def _only(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise LessonError(f"{where}: unknown key {unknown[0]!r}")


def _chapter(data: Any) -> Chapter:
    if not isinstance(data, dict):
        raise LessonError("a chapter is a JSON object")
    _only(
        data,
        {"id", "number", "title", "summary", "deal", "sheets", "practice", "group", "steps"},
        "chapter",
    )
    deal = _deal(data["deal"]) if "deal" in data else None
    group = _group(data["group"], deal) if "group" in data else None
    sheets = {
        name: tuple(_sheet_hand(h) for h in hands) for name, hands in data.get("sheets", {}).items()
    }
    practice = data.get("practice")
    seed = None
    if practice is not None:
        _only(practice, {"seed"}, "practice")
        seed = _require(practice, "seed", int)
    raw_steps = _require(data, "steps", list)
    if not raw_steps:
        raise LessonError("a chapter needs at least one step")
    steps = []
    for i, raw in enumerate(raw_steps, 1):
        try:
            steps.append(_step(raw, deal is not None or seed is not None, set(sheets)))
        except (LessonError, ValueError, TypeError) as exc:
            raise LessonError(f"step {i}: {exc}") from None
    return Chapter(
        id=_require(data, "id", str),
        number=_require(data, "number", int),
        title=_require(data, "title", str),
        summary=_require(data, "summary", str),
        steps=tuple(steps),
        deal=deal,
        sheets=sheets,
        practice_seed=seed,
        group=group,
    )


def _deal(data: Any) -> Deal:
    _only(data, {"dealer", "you", "them", "upcard", "stock"}, "deal")
    dealer = _require(data, "dealer", int)
    if dealer not in (0, 1):
        raise LessonError(f"deal: dealer must be 0 (you) or 1 (them), got {dealer}")
    you = tuple(parse_hand(_require(data, "you", str), 10))
    them = tuple(parse_hand(_require(data, "them", str), 10))
    upcard = parse_hand(_require(data, "upcard", str), 1)[0]
    stock = tuple(parse_hand(data.get("stock", "")))
    every = [*you, *them, upcard, *stock]
    if len(set(every)) != len(every):
        twice = next(c for c in every if every.count(c) > 1)
        raise LessonError(f"deal: card {twice} is dealt twice")
    return Deal(dealer, you, them, upcard, stock)


def _group(data: Any, deal: Deal | None) -> Group:
    """The ``group`` of a chapter on three or four players; its hand on the table is the
    deal's, so a group needs one (three players: the computer takes the dealer's part)."""
    if deal is None:
        raise LessonError("group: a chapter on three or four players needs a deal")
    players = _require(data, "players", int)
    if players == 3:
        _only(data, {"players", "sitter"}, "group")
        if deal.dealer != 1:
            raise LessonError(
                "group: with three players the dealer sits out and the computer takes the"
                " dealer's part, so the deal's dealer must be 1"
            )
        return Group(3, sitter=_require(data, "sitter", str))
    if players == 4:
        _only(data, {"players", "partner", "partner_opponent", "partner_hand"}, "group")
        return Group(
            4,
            partner=_require(data, "partner", str),
            partner_opponent=_require(data, "partner_opponent", str),
            partner_hand=_sheet_hand(_require(data, "partner_hand", dict)),
        )
    raise LessonError(f"group: players must be 3 or 4, got {players}")


def _sheet_hand(data: Any) -> SheetHand:
    _only(data, {"knocker", "knocker_cards", "other_cards"}, "sheet hand")
    knocker = _require(data, "knocker", int)
    if knocker not in (0, 1):
        raise LessonError(f"sheet hand: knocker must be 0 or 1, got {knocker}")
    cards = parse_hand(_require(data, "knocker_cards", str))
    other = parse_hand(_require(data, "other_cards", str), 10)
    return SheetHand(knocker, tuple(cards), tuple(other))


def _say(raw: Any) -> tuple[SayPart, ...]:
    items = raw if isinstance(raw, list) else [raw]
    parts = []
    for item in items:
        if isinstance(item, str):
            parts.append(SayPart(item))
        elif isinstance(item, dict):
            _only(item, {"if", "say", "else"}, "say")
            cond = _require(item, "if", str)
            parse_expression(cond)
            parts.append(SayPart(_require(item, "say", str), cond, item.get("else", "")))
        else:
            raise LessonError(f"narration must be text or {{'if', 'say'}}, got {item!r}")
    if not parts:
        raise LessonError("a step needs narration ('say')")
    return tuple(parts)


def _check_action_text(text: str) -> None:
    """Check an action text; placeholders are filled at run time, so only literal ones parse."""
    if not isinstance(text, str):
        raise LessonError(f"an action is text, got {text!r}")
    if _PLACEHOLDER.search(text) is None:
        parse_action(text)


def _do(raw: Any) -> tuple[Any, ...]:
    if not isinstance(raw, list):
        raise LessonError("'do' must be a list of actions")
    out: list[Any] = []
    for item in raw:
        if isinstance(item, dict):
            _only(item, {"repeat", "do"}, "repeat")
            times = _require(item, "repeat", int)
            if not 1 <= times <= 40:
                raise LessonError(f"repeat must be 1..40, got {times}")
            out.append({"repeat": times, "do": _do(_require(item, "do", list))})
        else:
            _check_action_text(item)
            out.append(item)
    return tuple(out)


def _expect(data: Any) -> Expect:
    _only(data, {"move", "pick", "prompt", "wrong"}, "expect")
    move = data.get("move")
    pick = tuple(parse_hand(data["pick"])) if "pick" in data else ()
    if (move is None) == (not pick):
        raise LessonError("expect needs exactly one of 'move' or 'pick'")
    if move is not None:
        _check_action_text(move)
    wrong = []
    for w in _require(data, "wrong", list):
        _only(w, {"match", "why"}, "wrong")
        entry = WrongMove(_require(w, "match", str).strip().lower(), _require(w, "why", str))
        _ = entry.kind, entry.cards  # checks the class and its cards
        wrong.append(entry)
    if not wrong:
        raise LessonError("expect needs at least one 'wrong' explanation")
    return Expect(_require(data, "prompt", str), tuple(wrong), move, pick)


def _claims(data: dict) -> list:
    """A step's 'check': at least one claim, each one a valid expression."""
    check = _require(data, "check", list)
    if not check:
        raise LessonError("every step needs at least one claim in 'check'")
    for claim in check:
        try:
            parse_expression(claim)
        except ExpressionError as exc:
            raise LessonError(str(exc)) from None
    return check


def _staging(data: dict) -> tuple[str, tuple, tuple, tuple]:
    """A step's camera, focus, shown rows and their labels, each checked."""
    camera = data.get("camera", "table")
    if camera not in CAMERAS:
        raise LessonError(f"camera {camera!r} is not one of {', '.join(CAMERAS)}")
    focus = tuple(data.get("focus", ()))
    for token in focus:
        if token not in PLACES and token not in NAMED_CARDS:
            parse_hand(token, 1)
    show = tuple(data.get("show", ()))
    for row in show:
        for group in row.split("|"):
            parse_hand(group)
    labels = tuple(data.get("labels", ()))
    if labels and len(labels) != len(show):
        raise LessonError(f"{len(labels)} labels for {len(show)} rows in 'show'")
    return camera, focus, show, labels


def _step(data: Any, has_hand: bool, sheets: set[str]) -> Step:
    if not isinstance(data, dict):
        raise LessonError("a step is a JSON object")
    _only(
        data,
        {
            "say",
            "check",
            "do",
            "camera",
            "focus",
            "show",
            "labels",
            "when",
            "expect",
            "sheet",
            "record",
            "practice",
        },
        "step",
    )
    check = _claims(data)
    camera, focus, show, labels = _staging(data)
    do = _do(data.get("do", []))
    if do and not has_hand:
        raise LessonError("'do' needs a chapter with a deal")
    expect = _expect(data["expect"]) if "expect" in data else None
    if expect and expect.move and not has_hand:
        raise LessonError("an expected move needs a chapter with a deal")
    when = data.get("when")
    if when is not None:
        parse_expression(when)
    sheet = data.get("sheet")
    if sheet is not None and sheet not in sheets:
        raise LessonError(f"unknown sheet {sheet!r}")
    record = data.get("record", 0)
    if not (record == "all" or (isinstance(record, int) and record >= 0)):
        raise LessonError(f"record must be a count or 'all', got {record!r}")
    return Step(
        say=_say(_require(data, "say", (str, list))),
        check=tuple(check),
        do=do,
        camera=camera,
        focus=focus,
        show=show,
        labels=labels,
        when=when,
        expect=expect,
        sheet=sheet,
        record=record,
        practice=bool(data.get("practice", False)),
    )
