"""Filling narration templates: ``{gin_bonus}`` from the rules, ``{deadwood}`` from the hand,
``{7H}`` as the card ``7♥``.

Every number a lesson states about the rules comes from the RuleSet through a placeholder, so
the text is true under whichever preset is active.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from gin3d.engine import Card, card

from .expressions import evaluate
from .lesson import SayPart

_CARD_TOKEN = re.compile(r"^(10|[A2-9TJQKatjqk])[SHDCshdc]$")


class _Narrator(string.Formatter):
    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and _CARD_TOKEN.match(key):
            return card(key)
        if key not in kwargs:
            raise KeyError(f"narration placeholder {{{key}}} is not known")
        return kwargs[key]

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Card):
            return value.pretty
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Card) for v in value):
            return " ".join(v.pretty for v in value)
        if value is None:
            return "none"
        return super().format_field(value, format_spec)


_NARRATOR = _Narrator()


def fill(template: str, names: Mapping[str, Any]) -> str:
    """``template`` with its placeholders filled; KeyError names an unknown placeholder."""
    return _NARRATOR.vformat(template, (), names)


def narrate(parts: Sequence[SayPart], names: Mapping[str, Any]) -> str:
    """The narration of a step: its parts whose conditions hold, filled and joined."""
    pieces = []
    for part in parts:
        text = part.text if part.when is None or evaluate(part.when, names) else part.otherwise
        if text:
            pieces.append(fill(text, names))
    return " ".join(pieces)
