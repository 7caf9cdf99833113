"""How a match ended: the one exception every part of a match raises to end it."""

from __future__ import annotations


class MatchEnded(Exception):
    """The match ended (finished, opponent left, claimed, or cheating found)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason if not detail else f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
