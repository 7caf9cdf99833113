"""The table of a three-player game: each hand on the two-player table, from your chair.

``ThreePlayerController`` is a ``TableController`` over a ``driver.ThreePlayerTable``: the
driver asks the game's three seats, the table shows the hand in its own seats (yours at the
bottom when you play; when you dealt and sit out, the player after you at the bottom,
face up as if you watched over their shoulder, the other face down). ``names`` are the
table seats' names for the hand in progress; ``bench`` is the one who sits it out.
"""

from __future__ import annotations

from ...driver.three_table import ThreePlayerTable
from ...engine.sheet import ScoreSheet, score_sheet
from .controller import PlayerNames, TableController


class ThreePlayerController(PlayerNames, TableController):
    """Runs a three-player game on a ``TableScene``; ``names`` at construction are the three
    players' names, by player."""

    def __init__(
        self,
        base,
        scene,
        table: ThreePlayerTable,
        players: list,
        think: tuple[float, float] = (0.6, 1.2),
        names: tuple[str, str, str] = ("You", "Computer", "Computer"),
    ) -> None:
        if len(names) != 3 or len(players) != 3:
            raise ValueError("a three-player table needs three players and three names")
        super().__init__(base, scene, table, players, think=think, names=names)

    @property
    def bench(self) -> tuple[str, int]:
        """The name and score of the player who sits this hand out."""
        out = self.game.sitting_out
        return self.player_names[out], self.game.game.running()[out]

    @property
    def quiet_seat(self) -> int | None:
        """While you sit out, every move is narrated (the bottom hand is not yours)."""
        return None if self.game.watching else 0

    def view(self, seat: int = 0):
        """The bottom seat's view in table seats (``seat`` is always the table's seat 0)."""
        return self.game.table_view()

    def can_skip(self) -> bool:
        """The hand you sit out (two computers play it) can be skipped to its result; in
        yours, a computer's move hurried."""
        return (self.game.watching and not self.game.hand.over) or super().can_skip()

    felt_pad = False  # three columns: the sheet over the table only (Tab)

    def score_sheet(self) -> ScoreSheet | None:
        """The game's sheet: a column per player, by player."""
        return score_sheet(self.game.game)

    def sheet_names(self) -> tuple[str, ...]:
        return self.player_names

    def watching_line(self) -> str:
        """The prompt while you sit out ("" while you play)."""
        if not self.game.watching:
            return ""
        near, far = self.names
        return f"You sit out this hand \N{EM DASH} {near} plays {far}"
