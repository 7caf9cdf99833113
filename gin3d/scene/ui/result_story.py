"""A hand's result told as a sentence, with its arithmetic: "Walt knocked with 10; you had 14
after laying off 1 card," / "so Walt scores 14 - 10 = 4".

Every number comes from the engine's ``HandResult`` (deadwoods, bonus, doubling, points);
nothing here scores. The table's font has no arrow or times sign, so the words carry it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import HandResult

BONUS_NAMES = {"gin": "gin bonus", "big_gin": "Big Gin bonus", "undercut": "undercut bonus"}


def counted(n: int, noun: str) -> str:
    """A count with its noun in the right number: "1 hand", "6 hands"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _who(name: str, start: bool) -> str:
    """The local player is "You" on the table: "you" inside a sentence."""
    return name if start or name != "You" else "you"


def _scores(name: str) -> str:
    return "score" if name == "You" else "scores"


def _difference(high: int, low: int, base: int) -> str:
    """``high - low`` when that is the engine's base, else the base alone."""
    return f"{high} - {low}" if high - low == base else str(base)


def points_sum(result: HandResult) -> str:
    """The points' arithmetic, e.g. "2 + 25 undercut bonus = 27"."""
    kd, od, base = result.knocker_deadwood, result.other_deadwood, result.base_points
    if result.kind in ("gin", "big_gin"):
        expr = str(base)
    elif result.kind == "undercut":
        expr = _difference(kd, od, base)
    else:
        expr = _difference(od, kd, base)
    if result.bonus:
        expr += f" + {result.bonus} {BONUS_NAMES.get(result.kind, 'bonus')}"
    if result.multiplier != 1:
        expr = f"({expr}) x {result.multiplier} for the spade upcard"
    if expr == str(result.points):
        return expr
    return f"{expr} = {result.points}"


def hand_story(result: HandResult, knocker: int, names: Sequence[str]) -> tuple[str, str]:
    """One sentence in two halves (two lines on the result panel): who knocked with what and
    what the other had; then who scores and how."""
    k_name, o_name = names[knocker], names[1 - knocker]
    laid = len(result.layoffs)
    after = f" after laying off {counted(laid, 'card')}" if laid else ""
    other_had = f"{_who(o_name, False)} had {result.other_deadwood}{after}"
    if result.kind in ("gin", "big_gin"):
        went = "went Big Gin" if result.kind == "big_gin" else "went gin"
        head, winner = f"{k_name} {went}; {other_had}", k_name
    elif result.kind == "undercut":
        head = f"{k_name} knocked with {result.knocker_deadwood}; {other_had}: an undercut"
        winner = o_name
    else:
        head, winner = f"{k_name} knocked with {result.knocker_deadwood}; {other_had}", k_name
    return f"{head},", f"so {_who(winner, False)} {_scores(winner)} {points_sum(result)}"
