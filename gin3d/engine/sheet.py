"""A game's score sheet as the classic Gin pad keeps it: a line per hand, a column per player
(per team in a partnership game: "We" and "They"), the running totals, the boxes (hands
won) and, once the game is over, its bonuses.

Read from the game itself (its hands and its score), so it is saved, resumed and replayed
with the game and can never disagree with the scores on the table. A game of three has a
column per player, each line marking the one who sat that hand out; a partnership game a
line per round (both tables' hands netted).
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .groups import PartnershipGame, PointsToTarget, ThreePlayerGame
from .scoring import GameScore

KIND_WORDS = {
    "knock": "knock",
    "undercut": "undercut",
    "gin": "gin",
    "big_gin": "Big Gin",
    "round": "round",
}


@dataclass(frozen=True)
class SheetLine:
    """One hand on the pad: who won it (a column; None: drawn), how, for how many points,
    every column's running total after it, and which columns played it (all when empty)."""

    hand: int  # counting from 1
    winner: int | None
    kind: str  # knock, undercut, gin, big_gin, round (a partnership round) or drawn
    points: int
    totals: tuple[int, ...]
    played: tuple[int, ...] = ()  # a game of three: the two who played the hand

    @property
    def how(self) -> str:
        """The hand's end in a word or two: "gin", "undercut", "drawn"."""
        return KIND_WORDS.get(self.kind, self.kind)


@dataclass(frozen=True)
class ScoreSheet:
    """The whole pad: its lines, the boxes each seat has won, the target, and once the game
    is over each seat's breakdown (hand points, shutout, game bonus, boxes, total)."""

    lines: tuple[SheetLine, ...]
    boxes: tuple[int, ...]
    target: int
    final: tuple[dict[str, int], ...] = ()

    @property
    def columns(self) -> int:
        """Players (or teams) on the sheet."""
        return len(self.boxes)


def score_sheet(game: Game | PointsToTarget) -> ScoreSheet | None:
    """The sheet of ``game`` so far; None for scoring the pad does not keep (Hollywood)."""
    if isinstance(game, PointsToTarget):
        return _group_sheet(game)
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


def _group_sheet(game: PointsToTarget) -> ScoreSheet:
    """A game of three (a column per player) or a partnership game (a column per team,
    a line per round)."""
    totals = [0] * game.sides
    lines = []
    for number, (side, points) in enumerate(game.results, start=1):
        if side is not None:
            totals[side] += points
        if isinstance(game, ThreePlayerGame):
            result = game.hands[number - 1].result
            kind = result.kind if result is not None and side is not None else "drawn"
            played = tuple(game.seats[number - 1])
        else:
            kind, played = ("round" if side is not None else "drawn"), ()
        lines.append(SheetLine(number, side, kind, points, tuple(totals), played))
    return ScoreSheet(tuple(lines), tuple(game.boxes()), game.target, _group_final(game))


def _group_final(game: PointsToTarget) -> tuple[dict[str, int], ...]:
    """Once over, per column: hand points, the game bonus (to the winner, where the rules
    give one) and the box bonus, and the total (``game.totals()``)."""
    if not game.over:
        return ()
    run, total = game.running(), game.totals()
    bonus = game.rules.game_bonus
    if isinstance(game, PartnershipGame) and not game.rules.partnership_game_bonus:
        bonus = 0
    out = []
    for side in range(game.sides):
        game_bonus = bonus if side == game.winner else 0
        out.append(
            {
                "hand_points": run[side],
                "shutout": 0,
                "game_bonus": game_bonus,
                "boxes": total[side] - run[side] - game_bonus,
                "total": total[side],
            }
        )
    return tuple(out)
