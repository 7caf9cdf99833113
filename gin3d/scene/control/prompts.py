"""What the table shows the local seat: the prompt line, the buttons, the cards that glow.

A pure function of the seat's ``PlayerView``, its legal actions now and the input's own state
(the selected card, whether Knock is armed). No Panda3D here: ``TableInput`` lights the nodes
and fills the HUD from what ``table_shows`` returns, and tests check it with no window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ...engine import (
    Action,
    BigGin,
    Card,
    DrawDiscard,
    Knock,
    LayOff,
    PlayerView,
    deadwood_of_mask,
    mask_of,
)

Colour = tuple[float, float, float, float]
GLOW_DRAW: Colour = (1.0, 0.85, 0.3, 0.9)
GLOW_LAYOFF: Colour = (0.45, 1.0, 0.55, 0.9)
GLOW_KNOCK: Colour = (1.0, 0.5, 0.3, 0.95)
GLOW_SELECTED: Colour = (0.6, 0.85, 1.0, 0.95)


class Glow(NamedTuple):
    """One thing to light: the stock's top, the pile's top, a hand card or a table meld."""

    where: str  # "stock" | "pile" | "hand" | "meld"
    colour: Colour
    card: Card | None = None  # where == "hand"
    meld: int | None = None  # where == "meld": index into the table's melds


@dataclass(frozen=True)
class InputState:
    """The local input's own state, beside the view."""

    selected: Card | None = None  # a card of the local hand, lifted
    knock_mode: bool = False  # Knock is armed: the next hand card clicked is laid face down
    hints: bool = False  # whether the Hint button is offered (legal moves and the setting)
    waiting: str = ""  # the prompt while the seat has no legal move


@dataclass(frozen=True)
class TableShows:
    prompt: str
    buttons: frozenset[str]
    glows: tuple[Glow, ...]  # in the order they are lit (a later glow's colour wins)


def gin_knocks(view: PlayerView, legal: Sequence[Action]) -> list[Knock]:
    """The legal knocks that leave no deadwood (going gin)."""
    mask = mask_of(view.hand)
    return [
        a for a in legal if isinstance(a, Knock) and deadwood_of_mask(mask & ~(1 << a.card)) == 0
    ]


def table_shows(view: PlayerView, legal: Sequence[Action], state: InputState) -> TableShows:
    """The prompt, buttons and glows for ``view`` with these ``legal`` actions."""
    buttons = {"hint"} if state.hints else set()
    glows: list[Glow] = []
    if not legal:
        prompt = state.waiting
    elif view.phase in ("upcard", "last_chance"):
        prompt = _upcard(view, legal, buttons, glows)
    elif view.phase == "draw":
        prompt = _draw(view, legal, glows)
    elif view.phase == "discard":
        prompt = _discard(view, legal, state, buttons, glows)
    elif view.phase == "layoff":
        prompt = _layoff(legal, state.selected, buttons, glows)
    else:
        prompt = ""
    if state.selected is not None:
        glows.append(Glow("hand", GLOW_SELECTED, card=state.selected))
    return TableShows(prompt, frozenset(buttons), tuple(glows))


def _upcard(view, legal, buttons: set[str], glows: list[Glow]) -> str:
    buttons.add("pass")
    if DrawDiscard() not in legal:
        return "You cannot knock with it: pass"
    glows.append(Glow("pile", GLOW_DRAW))
    buttons.add("take")
    if view.phase == "upcard":
        return f"Take the {view.top.pretty} or pass"
    return f"Last chance: take the {view.top.pretty} and knock, or pass"


def _draw(view, legal, glows: list[Glow]) -> str:
    glows.append(Glow("stock", GLOW_DRAW))
    if DrawDiscard() in legal:
        glows.append(Glow("pile", GLOW_DRAW))
        return f"Draw from the stock or take the {view.top.pretty}"
    return "Draw from the stock"


def _discard(view, legal, state: InputState, buttons: set[str], glows: list[Glow]) -> str:
    knocks = [a.card for a in legal if isinstance(a, Knock)]
    gin = bool(gin_knocks(view, legal))
    big_gin = BigGin() in legal
    if knocks:
        buttons.add("knock")
    if gin or big_gin:
        buttons.add("gin")
    if state.knock_mode:
        glows.extend(Glow("hand", GLOW_KNOCK, card=c) for c in knocks)
        return "Knock: click the card to lay face down"
    glows.append(Glow("pile", GLOW_DRAW))
    if big_gin:
        return "Big Gin! Press Gin to lay out all 11 cards"
    if gin:
        return "You can go gin! Press Gin, or discard"
    if state.selected is not None:
        prompt = f"Discard the {state.selected.pretty}: click it again or the pile, or press Enter"
    else:
        prompt = "Discard: click a card then the pile, or drag it onto the pile"
    return prompt + " - or Knock" if knocks else prompt


def _layoff(legal, selected: Card | None, buttons: set[str], glows: list[Glow]) -> str:
    layoffs = [a for a in legal if isinstance(a, LayOff)]
    fits = {a.card for a in layoffs}
    glows.extend(Glow("hand", GLOW_LAYOFF, card=c) for c in sorted(fits))
    buttons |= {"bestlayoff", "done"} if fits else {"done"}
    if selected is not None:
        glows.extend(Glow("meld", GLOW_LAYOFF, meld=a.meld) for a in layoffs if a.card == selected)
        return f"Click the meld to lay the {selected.pretty} on"
    if fits:
        return "Lay off: click a glowing card, or press Best layoff / Done"
    return "Nothing to lay off: press Done"


__all__ = [
    "GLOW_DRAW",
    "GLOW_KNOCK",
    "GLOW_LAYOFF",
    "GLOW_SELECTED",
    "Glow",
    "InputState",
    "TableShows",
    "gin_knocks",
    "table_shows",
]
