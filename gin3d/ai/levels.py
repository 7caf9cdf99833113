"""The computer opponents by level: who they are (for the menu) and how to make one."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Personality:
    """Menu metadata of one level: a name, a portrait paragraph and a thinking pause."""

    level: str
    name: str
    display_name: str
    portrait: str
    think_seconds: tuple[float, float]  # the app pauses a random time in this range


LEVELS: dict[str, Personality] = {
    "beginner": Personality(
        "beginner",
        "Rosie",
        "Rosie (beginner)",
        "Rosie learned gin last summer on the porch and still counts her cards twice. She "
        "likes her kings and queens too much to let them go, sometimes looks straight past a "
        "run, and knocks when she remembers to. Friendly, chatty and very beatable.",
        (1.0, 2.2),
    ),
    "simple": Personality(
        "simple",
        "Walt",
        "Walt (steady)",
        "Walt plays by the book he learned from: he picks up a discard only when it makes a "
        "meld, throws his highest loose card, and knocks the moment he is allowed. He never "
        "bluffs and never waits for gin, which makes him solid but predictable.",
        (0.7, 1.5),
    ),
    "hard": Personality(
        "hard",
        "Margo",
        "Margo (sharp)",
        "Margo keeps track of every card that has gone by. She knows which of your pairs are "
        "still live, will not hand you the card you have been fishing for, and keeps her "
        "hand flexible until she can knock with room to spare.",
        (0.8, 1.8),
    ),
    "expert": Personality(
        "expert",
        "Professor Vance",
        "Professor Vance (expert)",
        "The Professor deals out the hands you might be holding, dozens of times over, and "
        "plays the move that does best across all of them. She reads your pickups and your "
        "discards, keeps her deadwood low and waits for gin or for you to knock into an undercut.",
        (0.6, 1.5),
    ),
}


# Each level's rating against Walt (simple = 0), Elo scale, from the round robin of docs/ai.md
# ("Round robin and ratings": ``python -m gin3d.arena --round-robin --games 60 --seed 5``);
# the menu puts it in words. Run the round robin again when a level's play changes.
RATED = {"beginner": -396, "simple": 0, "hard": 132, "expert": 289}
# (lowest rating, word): the first band the rating reaches, strongest first
STRENGTH_WORDS = ((150, "very strong"), (50, "strong"), (-200, "steady"), (-10_000, "gentle"))


def win_chance(rating: float) -> float:
    """The chance to win a game against Walt of a player rated ``rating`` (Elo scale)."""
    return 1.0 / (1.0 + 10.0 ** (-rating / 400.0))


def strength(level: str) -> str:
    """The level's strength in words, from its measured rating: "Strength: strong, wins
    about 7 games in 10 against Walt"; "" for a level that was never rated."""
    rating = RATED.get(level)
    if rating is None:
        return ""
    word = next(w for low, w in STRENGTH_WORDS if rating >= low)
    walt = LEVELS["simple"].name
    if level == "simple":
        return f"Strength: {word}, the player the others are measured against"
    tenths = round(win_chance(rating) * 10)
    games = "game" if tenths == 1 else "games"
    return f"Strength: {word}, wins about {tenths} {games} in 10 against {walt}"


def make_player(level: str, seed: int | str | None = None, name: str | None = None):
    """A computer player of ``level`` (beginner, simple, hard, expert)."""
    from .beginner import BeginnerPlayer
    from .expert import ExpertPlayer
    from .hard import HardPlayer
    from .simple import SimplePlayer

    classes = {
        "beginner": BeginnerPlayer,
        "simple": SimplePlayer,
        "hard": HardPlayer,
        "expert": ExpertPlayer,
    }
    if level not in classes:
        raise ValueError(f"unknown level {level!r} (choose from {', '.join(classes)})")
    return classes[level](seed=seed, name=name)
