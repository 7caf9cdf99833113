"""The achievements: a modest set, declared as data and decided from what the game records.

Each one is earned from the player's records alone: the statistics (``gin3d.stats``: hands
and games counted per opponent level, the recent finished games), the tutorial chapters
done (``gin3d.progress``) and, for a player whose statistics came before the list of
finished games, the hand history (``gin3d.history``: a shutout found in the hands of a
game). No screen or table sets a flag: ``earned`` is asked again after each hand, and what
it says now that it did not say before is new.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .history import HandRecord
from .players import opponent_name
from .recorder import PARTNERSHIPS, THREE_PLAYERS
from .settings import OPPONENT_LEVELS
from .stats import Stats

GAMES_TO_WIN = 10


@dataclass(frozen=True)
class Achievement:
    """One achievement: its id (kept in the progress file), title and how it is earned."""

    id: str
    title: str
    description: str


def _beat(level: str) -> Achievement:
    name = opponent_name(level)
    return Achievement(f"beat_{level}", f"Beat {name}", f"Win a game against {name}.")


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_knock", "Knock, knock", "Win a hand by knocking."),
    Achievement("first_gin", "Gin!", "Win a hand by going gin."),
    Achievement(
        "first_big_gin", "Big Gin", "Go Big Gin: all eleven cards in melds (rules that allow it)."
    ),
    Achievement("first_undercut", "Undercut", "Win a hand by undercutting the knocker."),
    Achievement("shutout", "Shutout", "Win a game while your opponent scores no points."),
    *(_beat(level) for level in OPPONENT_LEVELS),
    Achievement("three_players", "Odd one in", "Win a game of three players."),
    Achievement("partnership", "Team player", "Win a partnership game (two teams of two)."),
    Achievement("tutorial", "Graduate", "Finish every chapter of the tutorial."),
    Achievement("ten_wins", "Seasoned", f"Win {GAMES_TO_WIN} games."),
)
BY_ID = {a.id: a for a in ACHIEVEMENTS}


def earned(
    stats: Stats,
    chapters_done: Iterable[int] = (),
    chapters: Iterable[int] = (),
    hands: Iterable[HandRecord] = (),
) -> set[str]:
    """The ids of the achievements the records show earned: ``stats``, the tutorial's
    ``chapters_done`` of all its ``chapters`` (numbers), and ``hands`` from the history
    (read only where a shutout may hide in games the statistics' list does not hold)."""
    total = stats.total()
    out: set[str] = set()
    for key, count in (
        ("first_knock", total.knocks),
        ("first_gin", total.gins),
        ("first_big_gin", total.big_gins),
        ("first_undercut", total.undercuts),
    ):
        if count > 0:
            out.add(key)
    if any(g.shutout for g in stats.games) or shutout_in_hands(hands):
        out.add("shutout")
    for level in OPPONENT_LEVELS:
        if level in stats.levels and stats.levels[level].games_won > 0:
            out.add(f"beat_{level}")
    for level, key in ((THREE_PLAYERS, "three_players"), (PARTNERSHIPS, "partnership")):
        if level in stats.levels and stats.levels[level].games_won > 0:
            out.add(key)
    all_chapters = set(chapters)
    if all_chapters and all_chapters <= set(chapters_done):
        out.add("tutorial")
    if total.games_won >= GAMES_TO_WIN:
        out.add("ten_wins")
    return out


def shutout_in_hands(hands: Iterable[HandRecord]) -> bool:
    """Whether the history holds a two-player game the player won with the opponent at no
    points: its hands (by game id) give the player the game's target and the other none."""
    games: dict[str, list[HandRecord]] = {}
    for r in hands:
        if r.game_id and not r.partners and r.opponent_level not in (THREE_PLAYERS, PARTNERSHIPS):
            games.setdefault(r.game_id, []).append(r)
    for records in games.values():
        you = records[0].seat_of_you
        if you is None:
            continue
        mine = sum(r.points for r in records if r.winner == you)
        theirs = sum(r.points for r in records if r.winner not in (None, you))
        if theirs == 0 and mine >= records[0].rules.game_target:
            return True
    return False
