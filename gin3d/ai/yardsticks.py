"""Yardsticks for the arena: fixed styles to measure the levels against, not menu opponents.

Our levels measured only against each other reward whatever beats our own habits. These
players are styles a human (or an outside program) plays, so a level's strength can be read
against each of them:

- ``eager``: knocks at its first legal chance, never lays off, takes the pile's card only
  into a meld (the research baseline's knock and draw rules without layoffs);
- ``patient``: holds out for gin or 3 deadwood or less, lays off fully (hard's play);
- ``random``: any legal action, uniformly;
- ``mirror:LEVEL``: that level with its knock rule changed to knocking at the first chance;
- ``hunter``: a gin hunter, our own reading of the strongest published heuristic programs of
  the EAAI Gin Rummy challenge: it takes the pile's card only straight into a meld, throws
  the card least likely to help the opponent (a danger score from everything it has seen:
  their picks, their passes, their throws) while keeping its own gin outs alive, and knocks
  only in its first few turns; after that it plays for gin;
- ``mc`` / ``mc:N``: a Monte Carlo player pricing every option on N sampled deals played
  out (``monte_carlo.py``; 32 by default).
"""

from __future__ import annotations

from ..engine import (
    Action,
    BigGin,
    Discard,
    Discarded,
    FinishLayoff,
    Knock,
    PlayerView,
    deadwood_of_mask,
)
from ..engine.cards import VALUES
from .hard import HardPlayer
from .knowledge import Knowledge, completers
from .monte_carlo import NAME as MC
from .monte_carlo import make_monte_carlo
from .player import ComputerPlayer
from .simple import SimplePlayer

PATIENT_KNOCK = 3  # the patient player knocks only with this much deadwood or less
HUNTER_KNOCK_TURNS = 3  # the gin hunter knocks only in its first this many turns
HUNTER_DANGER = 12.0  # points of deadwood a sure feed of the opponent's meld is worth
HUNTER_OUTS = 0.75  # points of deadwood each unseen card that would meld with the rest is worth
YARDSTICKS = ("eager", "patient", "random", "hunter")
MIRROR = "mirror:"


def first_knock(view: PlayerView) -> Action | None:
    """Gin or a knock with the card leaving the least deadwood, when one is legal."""
    if BigGin() in view.legal:
        return BigGin()
    knocks = [a.card for a in view.legal if type(a) is Knock]
    if not knocks:
        return None
    mask = sum(1 << c for c in view.hand)
    return Knock(min(knocks, key=lambda c: (deadwood_of_mask(mask & ~(1 << c)), -VALUES[c], c)))


class EagerPlayer(SimplePlayer):
    """Knocks at the first chance and never lays off: it is never undercut by waiting."""

    level = "eager"

    def decide(self, view: PlayerView) -> Action:
        if view.phase == "layoff":
            return FinishLayoff()
        return super().decide(view)


class PatientPlayer(HardPlayer):
    """Hard's evaluation, but it knocks only for gin or with 3 deadwood or less."""

    level = "patient"

    def choose_knock(self, view: PlayerView, know: Knowledge, knocks: list[int]) -> int | None:
        mask = know.mine
        card = min(knocks, key=lambda c: (deadwood_of_mask(mask & ~(1 << c)), -VALUES[c], c))
        if deadwood_of_mask(mask & ~(1 << card)) <= PATIENT_KNOCK:
            return card
        if not any(type(a) is Discard for a in view.legal):
            return card  # a knock is forced (a last-chance pickup or a throw-back)
        return None


def own_turns(view: PlayerView) -> int:
    """How many turns this seat has finished this hand (its discards so far)."""
    return sum(1 for e in view.history if type(e) is Discarded and e.seat == view.seat)


class GinHunterPlayer(SimplePlayer):
    """Takes the pile's card only into a meld (as ``simple``); throws by deadwood, danger
    and the gin outs it keeps; knocks in its first ``HUNTER_KNOCK_TURNS`` turns only, then
    holds out for gin (a knock still when nothing else is legal)."""

    level = "hunter"

    def _discard(self, view: PlayerView) -> Action:
        if BigGin() in view.legal:
            return BigGin()
        know = Knowledge.of(view)
        knocks = [a.card for a in view.legal if type(a) is Knock]
        throws = [a.card for a in view.legal if type(a) is Discard]
        gins = [c for c in knocks if deadwood_of_mask(know.mine & ~(1 << c)) == 0]
        if gins:
            return Knock(self._throw(know, gins))
        if knocks and (own_turns(view) < HUNTER_KNOCK_TURNS or not throws):
            return Knock(self._throw(know, knocks))
        return Discard(self._throw(know, throws))

    @staticmethod
    def _throw(know: Knowledge, pool: list[int]) -> int:
        """The card whose throw leaves the least deadwood, weighed against how much the
        opponent may want it and how many gin outs the rest keeps."""

        def cost(card: int) -> tuple[float, int, int]:
            rest = know.mine & ~(1 << card)
            outs = (completers(rest) & know.unseen_mask).bit_count()
            value = deadwood_of_mask(rest) + HUNTER_DANGER * know.danger(card)
            return value - HUNTER_OUTS * outs, -VALUES[card], card

        return min(pool, key=cost)


class RandomPlayer(ComputerPlayer):
    """Any legal action, uniformly at random: the floor every level must clear."""

    level = "random"

    def decide(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal)


class MirrorPlayer:
    """A level that knocks at its first legal chance; every other decision is the level's."""

    def __init__(self, inner: ComputerPlayer) -> None:
        self.inner = inner
        self.level = MIRROR + inner.level
        self.name = f"{inner.name} (knocks at once)"

    def choose(self, view: PlayerView) -> Action:
        knock = first_knock(view) if view.phase == "discard" else None
        return knock if knock is not None else self.inner.choose(view)

    def observe(self, view: PlayerView) -> None:
        """Pass an end-of-hand view on to a level that learns from them."""
        observe = getattr(self.inner, "observe", None)
        if observe is not None:
            observe(view)


def make_yardstick(name: str, seed: int | str | None = None):
    """A yardstick by name (eager, patient, random, mirror:LEVEL)."""
    from .levels import LEVELS, make_player

    if name.startswith(MIRROR) and name[len(MIRROR) :] in LEVELS:
        return MirrorPlayer(make_player(name[len(MIRROR) :], seed=seed))
    if name == MC or name.startswith(MC + ":"):
        return make_monte_carlo(name, seed)
    classes = {
        "eager": EagerPlayer,
        "patient": PatientPlayer,
        "random": RandomPlayer,
        "hunter": GinHunterPlayer,
    }
    if name not in classes:
        raise ValueError(f"unknown yardstick {name!r} (choose from {', '.join(arena_names())})")
    return classes[name](seed=seed)


def arena_names() -> list[str]:
    """Every name the arena accepts: the levels, the yardsticks and a mirror of each level."""
    from .levels import LEVELS

    return [*LEVELS, *YARDSTICKS, MC, *(MIRROR + level for level in LEVELS)]


def make_arena_player(name: str, seed: int | str | None = None):
    """A level or a yardstick by its arena name."""
    from .levels import LEVELS, make_player

    return make_player(name, seed=seed) if name in LEVELS else make_yardstick(name, seed)
