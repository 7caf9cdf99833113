"""RuleSet: every number and option of RULES.md, with the three presets.

A RuleSet is frozen and checked when made: an unknown option, a value out of range or a
combination that cannot be played raises ValueError naming the problem.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

SHUTOUT_STYLES = ("double_hands", "double_game_bonus", "none")
DEALER_RULES = ("winner", "loser", "alternate")


@dataclass(frozen=True)
class RuleSet:
    """The rules one game is played under. Make one with ``RuleSet.preset(name, **overrides)``."""

    name: str = "classic"
    knock_limit: int = 10
    knock_limit_from_upcard: bool = False  # Oklahoma: the first upcard's value is the limit
    ace_upcard_gin_only: bool = False  # Oklahoma: an ace upcard means gin only
    spade_upcard_doubles: bool = False  # Oklahoma: a spade upcard doubles the hand's score
    gin_bonus: int = 25
    big_gin_bonus: int = 31  # 0 turns Big Gin off
    undercut_bonus: int = 25
    box_bonus: int = 25
    game_target: int = 100
    game_bonus: int = 100
    shutout: str = "double_hands"
    next_dealer: str = "winner"
    match_target: int = 500
    last_chance: bool = False
    allow_throw_back: bool = False
    no_upcard: bool = False
    straight_gin: bool = False
    hollywood: bool = False
    # more than two players (gin3d.engine.groups): a hand is always between two of them
    three_player_boxes: bool = True  # 3 players: box_bonus for every hand a player won
    partnership_target: int = 125  # 4 players in two teams: the first team to this wins
    partnership_game_bonus: bool = False  # ... and gets game_bonus (the source leaves it open)
    partnership_box_bonus: bool = False  # ... and box_bonus per round won (likewise)

    def _check_types(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"{f.name} must be True or False, got {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{f.name} must be a whole number, got {value!r:.40}")
            if f.type == "str" and not isinstance(value, str):
                raise ValueError(f"{f.name} must be text, got {value!r:.40}")

    def __post_init__(self) -> None:
        self._check_types()
        if not 0 <= self.knock_limit <= 90:
            raise ValueError(f"knock_limit must be 0..90, got {self.knock_limit}")
        for name in ("gin_bonus", "big_gin_bonus", "undercut_bonus", "box_bonus", "game_bonus"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative, got {getattr(self, name)}")
        for name in ("game_target", "partnership_target"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)}")
        if self.match_target < self.game_target:
            raise ValueError(
                f"match_target ({self.match_target}) is below game_target ({self.game_target})"
            )
        if self.shutout not in SHUTOUT_STYLES:
            raise ValueError(f"shutout must be one of {SHUTOUT_STYLES}, got {self.shutout!r}")
        if self.next_dealer not in DEALER_RULES:
            raise ValueError(f"next_dealer must be one of {DEALER_RULES}, got {self.next_dealer!r}")
        upcard_rules = [
            n
            for n in ("knock_limit_from_upcard", "ace_upcard_gin_only", "spade_upcard_doubles")
            if getattr(self, n)
        ]
        if self.no_upcard and upcard_rules:
            raise ValueError(f"no_upcard deals no upcard, so {upcard_rules[0]} cannot apply")
        if self.straight_gin and (self.knock_limit_from_upcard or self.ace_upcard_gin_only):
            raise ValueError("straight_gin allows gin only, so an upcard knock limit cannot apply")
        if self.ace_upcard_gin_only and not self.knock_limit_from_upcard:
            raise ValueError("ace_upcard_gin_only needs knock_limit_from_upcard")

    # -- presets --------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "classic", **overrides: Any) -> RuleSet:
        """One of ``classic``, ``pagat``, ``oklahoma`` (or a measuring preset of
        ``MEASURE_PRESETS``, for the arena), with keyword overrides."""
        if name in MEASURE_PRESETS:
            return cls.from_dict({**MEASURE_PRESETS[name], **overrides})
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")
        return cls.from_dict({**PRESETS[name], **overrides}, base=name)

    @classmethod
    def from_dict(cls, data: dict[str, Any], base: str | None = None) -> RuleSet:
        """Build from a plain dict (settings, saves, network), refusing unknown keys."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule option {unknown[0]!r}")
        values = dict(PRESETS[base]) if base else {}
        values.update(data)
        values.setdefault("name", base or "custom")
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def but(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (checked like any RuleSet)."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise ValueError(f"unknown rule option {unknown[0]!r}")
        return replace(self, **changes)

    # -- derived rules ------------------------------------------------------------------
    def knock_limit_for(self, upcard: int | None) -> int:
        """The knock limit in a hand whose first upcard was ``upcard`` (0 = gin only)."""
        if self.straight_gin:
            return 0
        if self.knock_limit_from_upcard and upcard is not None:
            rank = upcard % 13
            if rank == 0 and self.ace_upcard_gin_only:
                return 0
            return min(rank + 1, 10)
        return self.knock_limit

    def hand_multiplier(self, upcard: int | None) -> int:
        """2 when a spade upcard doubles the hand (Oklahoma), else 1."""
        if self.spade_upcard_doubles and upcard is not None and upcard // 13 == 0:
            return 2
        return 1

    @property
    def big_gin_allowed(self) -> bool:
        return self.big_gin_bonus > 0

    def describe(self) -> list[str]:
        """Human-readable lines of this rule set's numbers, for the rules screen."""
        if self.straight_gin:
            knock = "Straight gin: you may only go out with gin"
        elif self.knock_limit_from_upcard:
            knock = "Knock limit: the value of the first upcard"
            if self.ace_upcard_gin_only:
                knock += " (an ace means gin only)"
        else:
            knock = f"Knock with {self.knock_limit} or less deadwood"
        lines = [
            knock,
            f"Gin bonus: {self.gin_bonus}",
            f"Big Gin bonus: {self.big_gin_bonus}" if self.big_gin_allowed else "No Big Gin",
            f"Undercut bonus: {self.undercut_bonus}",
            f"Box bonus: {self.box_bonus} per hand won",
            f"Game to {self.game_target}, game bonus {self.game_bonus}",
            {
                "double_hands": "Shutout: every hand's points doubled",
                "double_game_bonus": "Shutout: game bonus doubled",
                "none": "No shutout bonus",
            }[self.shutout],
            f"Next dealer: {self.next_dealer} of the hand",
        ]
        if self.spade_upcard_doubles:
            lines.append("A spade upcard doubles the hand")
        if self.last_chance:
            lines.append("Last chance: the final discard may be taken to knock")
        if self.allow_throw_back:
            lines.append("A card taken from the pile may be thrown back")
        if self.no_upcard:
            lines.append("No upcard: the non-dealer gets 11 cards and discards first")
        if self.hollywood:
            lines.append("Hollywood scoring: three games at once")
        return lines

    def explain(self) -> list[str]:
        """Each rule with what its number means for the player (the Rules screen): the
        lines of ``describe`` spelled out."""
        if self.straight_gin:
            knock = "Straight gin: no knocking; a hand ends only with gin (no deadwood at all)"
        elif self.knock_limit_from_upcard:
            knock = (
                "Knock limit: the first upcard's value (pictures 10"
                + ("; an ace: gin only" if self.ace_upcard_gin_only else "")
                + "); knock with that much deadwood or less"
            )
        else:
            knock = (
                f"Knock with {self.knock_limit} or less deadwood: after drawing, end the "
                f"hand when your unmelded cards count {self.knock_limit} or less"
            )
        lines = [
            knock,
            f"Gin bonus: {self.gin_bonus}, on top of the other player's whole deadwood, when "
            "you go out with none",
            f"Big Gin bonus: {self.big_gin_bonus}, when all 11 cards meld after your draw (you "
            "lay them all out, no discard)"
            if self.big_gin_allowed
            else "No Big Gin: with 11 cards melded you still discard one and go gin",
            f"Undercut bonus: {self.undercut_bonus}, to the other player when the knocker's "
            "deadwood is not lower than theirs",
            f"Box bonus: {self.box_bonus} for every hand you won, added at the end (it does "
            "not count toward the target)",
            f"Game to {self.game_target}: the first to reach it wins, and gets a game bonus "
            f"of {self.game_bonus}",
            {
                "double_hands": "Shutout (the loser won no hand, none was drawn): the "
                "winner's hand points are doubled",
                "double_game_bonus": "Shutout (the loser scored nothing): the game bonus is "
                "doubled",
                "none": "No shutout bonus",
            }[self.shutout],
            {
                "winner": "Next dealer: the winner of a hand deals the next one",
                "loser": "Next dealer: the loser of a hand deals the next one",
                "alternate": "Next dealer: the players take turns to deal",
            }[self.next_dealer]
            + " (after a drawn hand, the same dealer again)",
        ]
        if self.spade_upcard_doubles:
            lines.append(
                "A spade upcard doubles the hand: when the first upcard is a spade, "
                "that hand's points count twice"
            )
        for key, note in OPTION_NOTES.items():
            if getattr(self, key) and key != "straight_gin":
                lines.append(note)
        if self.hollywood:
            lines.append("Hollywood scoring: three games scored at once")
        return lines


PRESET_NOTES: dict[str, str] = {  # one line each, for the setup screens
    "classic": "Classic: knock at 10; gin 25, Big Gin 31, undercut 25, 25 a hand won; "
    "a shutout doubles the hand points",
    "pagat": "Pagat (pagat.com): knock at 10; gin 20, no Big Gin, undercut 10, 20 a hand "
    "won; a shutout doubles the game bonus",
    "oklahoma": "Oklahoma: the first upcard sets the knock limit (an ace: gin only), a spade "
    "upcard doubles the hand; game to 150",
}
OPTION_NOTES: dict[str, str] = {
    "last_chance": "Last chance: when the stock runs out, the other player may take the last "
    "discard and knock with it",
    "allow_throw_back": "Throw-back: a card taken from the pile may be thrown straight back "
    "(its first owner then takes it only to knock)",
    "straight_gin": "Straight gin: no knocking; a hand ends only with gin",
    "no_upcard": "No upcard: the non-dealer gets 11 cards and starts by discarding",
}
TARGET_NOTE = "the first to this many points wins the game; the bonuses are added after"


PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"name": "classic"},
    "pagat": {
        "name": "pagat",
        "gin_bonus": 20,
        "big_gin_bonus": 0,
        "undercut_bonus": 10,
        "box_bonus": 20,
        "shutout": "double_game_bonus",
    },
    "oklahoma": {
        "name": "oklahoma",
        "knock_limit_from_upcard": True,
        "ace_upcard_gin_only": True,
        "spade_upcard_doubles": True,
        "gin_bonus": 20,
        "big_gin_bonus": 0,
        "undercut_bonus": 10,
        "box_bonus": 20,
        "game_target": 150,
        "shutout": "double_game_bonus",
    },
}

# Rules to measure computer players by, not offered to players: ``eaai`` is the rules of the
# EAAI Gin Rummy challenge (knock at 10, gin and undercut 25 each, a tie is an undercut, no
# Big Gin, no box, game or shutout bonus, the deal alternates), the published programs'
# own terms.
MEASURE_PRESETS: dict[str, dict[str, Any]] = {
    "eaai": {
        "name": "eaai",
        "knock_limit": 10,
        "gin_bonus": 25,
        "big_gin_bonus": 0,
        "undercut_bonus": 25,
        "box_bonus": 0,
        "game_bonus": 0,
        "shutout": "none",
        "next_dealer": "alternate",
        "game_target": 100,
    },
}
