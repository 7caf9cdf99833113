"""A two-player game's score sheet as the classic Gin pad keeps it: a line per hand, a column
per player, the running totals, the boxes (hands won) and, once the game is over, its bonuses.

Read from the game itself (its hands and its ``GameScore``), so it is saved, resumed and
replayed with the game and can never disagree with the scores on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .scoring import GameScore

KIND_WORDS = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "Big Gin"}


@dataclass(frozen=True)
class SheetLine:
    """One hand on the pad: who won it (None: drawn), how, for how many points, and both
    running totals after it."""

    hand: int  # counting from 1
    winner: int | None
    kind: str  # knock, undercut, gin, big_gin or drawn
    points: int
    totals: tuple[int, int]

    @property
    def how(self) -> str:
        """The hand's end in a word or two: "gin", "undercut", "drawn"."""
        return KIND_WORDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class ScoreSheet:
    """The whole pad: its lines, the boxes each seat has won, the target, and once the game
    is over each seat's breakdown (hand points, shutout, game bonus, boxes, total)."""

    lines: tuple[SheetLine, ...]
    boxes: tuple[int, int]
    target: int
    final: tuple[dict[str, int], ...] = ()


def score_sheet(game: Game) -> ScoreSheet | None:
    """The sheet of ``game`` so far; None for scoring the pad does not keep (Hollywood)."""
    score = game.score
    if not isinstance(score, GameScore):
        return None
    finished = [h for h in game.hands if h.over]
    totals = [0, 0]
    lines = []
    for number, (hand, (seat, points)) in enumerate(zip(finished, score.hands), start=1):
        if seat is not None:
            totals[seat] += points
        kind = hand.result.kind if hand.result is not None and seat is not None else "drawn"
        lines.append(SheetLine(number, seat, kind, points, (totals[0], totals[1])))
    boxes = score.boxes()
    return ScoreSheet(
        tuple(lines),
        (boxes[0], boxes[1]),
        game.rules.game_target,
        tuple(score.breakdown()) if score.over else (),
    )
