"""The score sheet over the table (Tab, or the HUD's Score sheet button): the classic Gin
pad, a column per player (per team: "We" and "They"), a line per hand with who won it, how
and for how much (in a game of three, a dash for the one who sat it out), then the totals,
the boxes and the target; at game's end its bonuses.

A view only: it draws the ``engine.sheet.ScoreSheet`` it is given and changes nothing.
"""

from __future__ import annotations

from direct.gui.DirectGui import DirectFrame
from panda3d.core import TransparencyAttrib

from ...engine.sheet import ScoreSheet
from . import theme
from .palette import GOLD

LINES_SHOWN = 12  # the newest hands; earlier ones are summed in the totals
STEP = 0.062  # between two lines
LABEL_X = -0.62  # the hand's number (or the row's name), then each player's column
COLUMNS = {2: (0.02, 0.5), 3: (-0.18, 0.18, 0.54)}  # the players' columns' centres
WIDTH = 1.5
SOFT = (0.85, 0.9, 0.85, 1)
WON = (1, 1, 0.88, 1)


class ScoreSheetView:
    """The pad, shown and hidden over the table; ``lines`` holds its texts (for tests)."""

    def __init__(self, base) -> None:
        self.base = base
        self.frame: DirectFrame | None = None
        self.lines: list[str] = []

    @property
    def shown(self) -> bool:
        return self.frame is not None

    def show(self, names: tuple[str, ...], sheet: ScoreSheet) -> None:
        """Draw ``sheet`` with ``names`` over its columns (again, if it is up)."""
        self.hide()
        rows = self._rows(names, sheet)
        height = 0.2 + STEP * len(rows)
        self.frame = DirectFrame(
            parent=self.base.aspect2d,
            frameSize=(-WIDTH / 2, WIDTH / 2, -height / 2, height / 2),
            sortOrder=40,  # over the HUD's buttons, under the help (F1)
            **theme.panel_style(),
        )
        self.frame.setTransparency(TransparencyAttrib.MAlpha)  # its rounded corners
        title = theme.text_line(self.frame, (0, height / 2 - 0.1), 0.055, GOLD, font=theme.bold())
        title.setText("Score sheet")
        self.lines = ["Score sheet"]
        y = height / 2 - 0.19
        for cells, colour in rows:
            spans = len(cells) == 1  # a line of its own, across the sheet
            columns = (LABEL_X, *COLUMNS[len(names)])
            for x, text in zip((0.0,) if spans else columns, cells):
                if text:
                    line = theme.text_line(self.frame, (x, y), 0.042, colour)
                    line.setText(text)
            self.lines.append("  ".join(c for c in cells if c))
            y -= STEP

    def _rows(self, names: tuple[str, ...], sheet: ScoreSheet) -> list[tuple[tuple, tuple]]:
        """The pad's rows: (hand, a cell per column) and their colour."""
        n = len(names)
        rows: list[tuple[tuple, tuple]] = [(("Round" if _rounds(sheet) else "Hand", *names), GOLD)]
        shown = sheet.lines[-LINES_SHOWN:]
        if len(shown) < len(sheet.lines):
            rows.append(((f"Hands 1-{shown[0].hand - 1}: in the totals below",), SOFT))
        for line in shown:
            played = line.played or tuple(range(n))
            cells = ["" if c in played else "-" for c in range(n)]  # "-": sat this hand out
            if line.winner is None:
                for c in played:
                    cells[c] = "drawn"
            else:
                cells[line.winner] = f"+{line.points} {line.how}"
            rows.append(((str(line.hand), *cells), WON))
        if not sheet.lines:
            rows.append((("No hand scored yet",), SOFT))
        totals = sheet.lines[-1].totals if sheet.lines else (0,) * n
        rows.append((("Total", *map(str, totals)), GOLD))
        rows.append((("Boxes", *map(str, sheet.boxes)), SOFT))
        if sheet.final:
            parts = (("shutout", "Shutout"), ("game_bonus", "Game bonus"), ("boxes", "Box bonus"))
            for key, label in parts:
                if key != "shutout" or any(r[key] for r in sheet.final):
                    rows.append(((label, *(str(r[key]) for r in sheet.final)), SOFT))
            rows.append((("Final", *(str(r["total"]) for r in sheet.final)), GOLD))
        else:
            rows.append(((f"Game to {sheet.target}",), SOFT))
        return rows

    def hide(self) -> None:
        if self.frame is not None:
            self.frame.destroy()
            self.frame = None
        self.lines = []


def _rounds(sheet: ScoreSheet) -> bool:
    """Whether the sheet's lines are a partnership game's rounds."""
    return any(line.kind == "round" for line in sheet.lines)
