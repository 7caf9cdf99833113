"""Scoring a hand (knock, undercut, gin, Big Gin) and a game, match or Hollywood set of games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import Card, parse_hand
from .layoffs import Layoff, best_layoff
from .melds import all_best_arrangements, best_melds, mask_value
from .rules import RuleSet

KINDS = ("knock", "undercut", "gin", "big_gin")


@dataclass(frozen=True)
class HandResult:
    """How a knocked hand came out. ``points`` already include bonuses and any doubling."""

    kind: str  # knock | undercut | gin | big_gin
    winner: str  # knocker | other
    points: int
    knocker_deadwood: int
    other_deadwood: int  # after layoffs
    layoffs: list[Layoff] = field(default_factory=list)
    knocker_melds: list[list[Card]] = field(default_factory=list)
    knocker_deadwood_cards: list[Card] = field(default_factory=list)
    other_melds: list[list[Card]] = field(default_factory=list)
    other_deadwood_cards: list[Card] = field(default_factory=list)
    bonus: int = 0
    multiplier: int = 1

    @property
    def base_points(self) -> int:
        """The deadwood difference part of the points, before bonus and doubling."""
        return self.points // self.multiplier - self.bonus

    def breakdown(self) -> str:
        """The points spelled out for the result screen, e.g. ``Undercut: 2 + 25``."""
        label = {"knock": "Knock", "undercut": "Undercut", "gin": "Gin", "big_gin": "Big Gin"}
        text = f"{label[self.kind]}: {self.base_points}"
        if self.bonus:
            text += f" + {self.bonus}"
        if self.multiplier != 1:
            text += f", doubled by the spade upcard = {self.points}"
        return text


def settle(
    kind: str,
    knocker_melds: Sequence[Sequence[Card]],
    knocker_dead: Sequence[Card],
    other_remaining: Sequence[Card],
    layoffs: Sequence[Layoff],
    rules: RuleSet,
    upcard: int | None = None,
) -> HandResult:
    """Score a hand once the knocker's layout and the other player's layoffs are fixed.

    The other player's remaining cards are melded the best way they can be.
    """
    if kind not in ("knock", "gin", "big_gin"):
        raise ValueError(f"unknown hand kind {kind!r}")
    other = best_melds(other_remaining)
    kd = sum(c.value for c in knocker_dead)
    od = other.deadwood_points
    multiplier = rules.hand_multiplier(upcard)
    if kind == "gin":
        bonus, base, winner = rules.gin_bonus, od, "knocker"
    elif kind == "big_gin":
        bonus, base, winner = rules.big_gin_bonus, od, "knocker"
    elif kd < od:
        bonus, base, winner = 0, od - kd, "knocker"
    else:
        kind, bonus, base, winner = "undercut", rules.undercut_bonus, kd - od, "other"
    return HandResult(
        kind=kind,
        winner=winner,
        points=(base + bonus) * multiplier,
        knocker_deadwood=kd,
        other_deadwood=od,
        layoffs=list(layoffs),
        knocker_melds=[list(m) for m in knocker_melds],
        knocker_deadwood_cards=list(knocker_dead),
        other_melds=other.melds,
        other_deadwood_cards=other.deadwood,
        bonus=bonus,
        multiplier=multiplier,
    )


def knock_layout(knocker_cards: Sequence[Card], other_cards: Sequence[Card] | None = None):
    """The knocker's layout: among least-deadwood arrangements, the one that leaves the other
    player the least to lay off (the most deadwood after their best layoffs)."""
    options = all_best_arrangements(knocker_cards)
    if other_cards is None or len(options) == 1 or options[0].deadwood_points == 0:
        return options[0]
    return max(options, key=lambda a: best_layoff(a.melds, other_cards)[0])


def score_knock(
    knocker_cards: Iterable[Card | str] | str,
    other_cards: Iterable[Card | str] | str,
    rules: RuleSet | None = None,
    upcard: int | None = None,
) -> HandResult:
    """Score a knock from the knocker's 10 cards (11 for Big Gin) and the other player's 10,
    with the other player's best layoffs."""
    rules = rules or RuleSet()
    knocker = parse_hand(knocker_cards) if not _is_cards(knocker_cards) else list(knocker_cards)
    other = parse_hand(other_cards) if not _is_cards(other_cards) else list(other_cards)
    if len(knocker) not in (10, 11):
        raise ValueError(f"the knocker lays out 10 cards (11 for Big Gin), got {len(knocker)}")
    if len(other) != 10:
        raise ValueError(f"the other player has 10 cards, got {len(other)}")
    if set(knocker) & set(other):
        raise ValueError(f"card {sorted(set(knocker) & set(other))[0]} is in both hands")
    layout = knock_layout(knocker, other)
    limit = rules.knock_limit_for(upcard)
    if len(knocker) == 11:
        if layout.deadwood_points or not rules.big_gin_allowed:
            raise ValueError("11 cards may only be laid out for Big Gin, with every card melded")
        return settle("big_gin", layout.melds, [], other, [], rules, upcard)
    if layout.deadwood_points > limit:
        raise ValueError(f"cannot knock with {layout.deadwood_points} deadwood (limit {limit})")
    if layout.deadwood_points == 0:
        return settle("gin", layout.melds, [], other, [], rules, upcard)
    _, layoffs = best_layoff(layout.melds, other)
    laid = {c for c, _ in layoffs}
    remaining = [c for c in other if c not in laid]
    return settle("knock", layout.melds, layout.deadwood, remaining, layoffs, rules, upcard)


def _is_cards(value) -> bool:
    return not isinstance(value, str) and all(isinstance(c, Card) for c in value)


@dataclass
class GameScore:
    """One game's score sheet: hands until someone reaches the target, then the bonuses."""

    rules: RuleSet
    hands: list[tuple[int | None, int]] = field(default_factory=list)  # (winner seat, points)

    def add(self, result: HandResult | None, knocker: int = 0) -> None:
        """Record a scored hand (``knocker`` is the seat that knocked) or a drawn hand (None)."""
        if self.over:
            raise ValueError("the game is already over")
        if result is None:
            self.hands.append((None, 0))
            return
        if knocker not in (0, 1):
            raise ValueError(f"knocker must be seat 0 or 1, got {knocker!r}")
        seat = knocker if result.winner == "knocker" else 1 - knocker
        self.hands.append((seat, result.points))

    def add_points(self, seat: int, points: int) -> None:
        """Record a hand won by ``seat`` for ``points`` (Hollywood lines, replays)."""
        if self.over:
            raise ValueError("the game is already over")
        self.hands.append((seat, points))

    def running(self) -> list[int]:
        """Hand points so far per seat, without bonuses."""
        totals = [0, 0]
        for seat, points in self.hands:
            if seat is not None:
                totals[seat] += points
        return totals

    def boxes(self) -> list[int]:
        """Hands won per seat."""
        return [sum(1 for s, _ in self.hands if s == seat) for seat in (0, 1)]

    @property
    def over(self) -> bool:
        return max(self.running()) >= self.rules.game_target

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        run = self.running()
        return 0 if run[0] > run[1] else 1

    @property
    def shutout(self) -> bool:
        """Whether the loser is shut out under this rule set's shutout style."""
        if not self.over or self.rules.shutout == "none":
            return False
        loser = 1 - self.winner
        if self.rules.shutout == "double_hands":
            return self.boxes()[loser] == 0 and all(s is not None for s, _ in self.hands)
        return self.running()[loser] == 0

    def breakdown(self) -> list[dict[str, int]]:
        """Per seat: hand points, shutout doubling, game bonus, boxes and total."""
        run = self.running()
        boxes = self.boxes()
        rows = []
        for seat in (0, 1):
            row = {"points": run[seat], "shutout": 0, "game_bonus": 0, "boxes": 0}
            if self.over:
                row["boxes"] = boxes[seat] * self.rules.box_bonus
                if seat == self.winner:
                    row["game_bonus"] = self.rules.game_bonus
                    if self.shutout and self.rules.shutout == "double_hands":
                        row["shutout"] = run[seat]
                    elif self.shutout:
                        row["shutout"] = self.rules.game_bonus
            row["total"] = sum(row.values())
            rows.append(row)
        return rows

    def totals(self) -> list[int]:
        """[seat 0, seat 1]: running points, and once the game is over the bonuses too."""
        return [row["total"] for row in self.breakdown()]

    @property
    def margin(self) -> int:
        t = self.totals()
        return abs(t[0] - t[1])


@dataclass
class HollywoodScore:
    """Three games scored at once: a player's n-th win goes into games 1..n still open."""

    rules: RuleSet
    games: list[GameScore] = field(default_factory=list)
    wins: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        if not self.games:
            self.games = [GameScore(self.rules) for _ in range(3)]

    def add(self, result: HandResult | None, knocker: int = 0) -> None:
        if self.over:
            raise ValueError("all three games are over")
        if result is None:
            return
        seat = knocker if result.winner == "knocker" else 1 - knocker
        self.wins[seat] += 1
        for game in self.games[: min(self.wins[seat], 3)]:
            if not game.over:
                game.add_points(seat, result.points)

    @property
    def over(self) -> bool:
        return all(g.over for g in self.games)

    def totals(self) -> list[int]:
        return [sum(g.totals()[seat] for g in self.games) for seat in (0, 1)]


@dataclass
class MatchScore:
    """Games played one after another until a seat's game totals reach the match target."""

    rules: RuleSet
    finished: list[GameScore] = field(default_factory=list)
    current: GameScore | None = None

    def __post_init__(self) -> None:
        if self.current is None:
            self.current = GameScore(self.rules)

    def add(self, result: HandResult | None, knocker: int = 0) -> None:
        if self.over:
            raise ValueError("the match is over")
        self.current.add(result, knocker)
        if self.current.over:
            self.finished.append(self.current)
            self.current = GameScore(self.rules)

    def totals(self) -> list[int]:
        return [sum(g.totals()[seat] for g in self.finished) for seat in (0, 1)]

    @property
    def over(self) -> bool:
        return max(self.totals()) >= self.rules.match_target

    @property
    def winner(self) -> int | None:
        if not self.over:
            return None
        t = self.totals()
        return 0 if t[0] > t[1] else 1


__all__ = [
    "GameScore",
    "HandResult",
    "HollywoodScore",
    "MatchScore",
    "knock_layout",
    "mask_value",
    "score_knock",
    "settle",
]
