"""The score pad lying on the felt beside the pile, pencilled in as the game goes.

Players of the classic game keep score on a pad on the table, a column per player: after
each hand the winner's new running total goes in their column. This pad does the same from
the engine's ``ScoreSheet`` (so it can never disagree with the scores on the table): the
names over the columns, a line per hand (the newest ones when the pad is full), the boxes at
the foot. The full sheet, with how each hand ended and the bonuses, comes up over the table
on Tab or a click on the pad.
"""

from __future__ import annotations

from panda3d.core import NodePath, Point2, Point3, TextNode

from ...engine.sheet import ScoreSheet
from ..media.assets import asset_path, panda_filename
from ..ui import theme

POS = (-37.5, -11.0, 0.05)  # the felt's front left: clear of the spreads and the stock aside
HEADING = 10.0  # turned a little towards the player
SCALE = 14.0  # the model is 0.7 x 0.95 units: the pad 10 x 13 table units
# the sheet's texture is 256 x 348 px (tools/make_textures.py: scorepad): its rows in px
SHEET_PX = (256, 348)
HEADER_Y = 44  # the names, between the binding (the top 26 px) and the red rule
FIRST_ROW_Y, ROW_PX = 70, 24  # the middle of the first hand's line, and between lines
ROWS = 11  # lines on the sheet: the hands, then the boxes on the last
COLUMNS_PX = (64, 192)  # the two columns' middles
MODEL_W, MODEL_H, MODEL_TOP = 0.7, 0.95, 0.05  # tools/make_models.py: scorepad_meshes
PENCIL = (0.22, 0.22, 0.3, 1.0)
NAME_INK = (0.55, 0.1, 0.12, 1.0)
MARKS = {"gin": "G", "big_gin": "BG", "undercut": "U"}  # beside the total: how it was won


def _local(px: float, py: float) -> tuple[float, float]:
    """A point of the sheet's texture (pixels from its top left) in the model's units."""
    w, h = SHEET_PX
    return (px / w - 0.5) * MODEL_W, (0.5 - py / h) * MODEL_H


def pad_lines(names: tuple[str, str], sheet: ScoreSheet) -> list[tuple[str, str]]:
    """What the pad shows, a pair of cells a line: the names, a line per hand (the winner's
    new total in their column, marked G, BG or U for gin, Big Gin or undercut; a drawn hand
    a dash in each), the newest that fit, then the boxes."""
    out = [(names[0][:9], names[1][:9])]
    hands = ROWS - 1
    for line in sheet.lines[-hands:]:
        if line.winner is None:
            out.append(("-", "-"))
            continue
        mark = MARKS.get(line.kind, "")
        cell = f"{line.totals[line.winner]} {mark}".strip()
        out.append((cell, "") if line.winner == 0 else ("", cell))
    out.append(tuple(f"boxes {n}" if n else "" for n in sheet.boxes))
    return out


class ScorePad:
    """The pad on the felt; ``update`` pencils in a sheet (or takes the pad away: None)."""

    def __init__(self, base, parent: NodePath) -> None:
        self.base = base
        self.np = base.loader.loadModel(panda_filename(asset_path("models", "scorepad.egg")))
        self.np.flattenStrong()  # its sheets in as few batches as their looks allow
        self.np.reparentTo(parent)
        self.np.setPos(*POS)
        self.np.setH(HEADING)
        self.np.setScale(SCALE)
        self.np.hide()
        self.writing = self.np.attachNewNode("pencil")
        self.lines: list[tuple[str, str]] = []  # what is pencilled in (tests read it)
        self._shown: tuple | None = None

    @property
    def shown(self) -> bool:
        return not self.np.isHidden()

    def update(self, names: tuple[str, str], sheet: ScoreSheet | None) -> None:
        """Show ``sheet`` under ``names``; nothing is redrawn while they stay the same."""
        key = None if sheet is None else (names, sheet)
        if key == self._shown:
            return
        self._shown = key
        self.writing.getChildren().detach()
        if sheet is None:
            self.lines = []
            self.np.hide()
            return
        self.lines = pad_lines(names, sheet)
        font = theme.fonts()[0]
        for row, cells in enumerate(self.lines):
            py = HEADER_Y if row == 0 else FIRST_ROW_Y + (row - 1) * ROW_PX
            if row == len(self.lines) - 1 and row > 0:
                py = FIRST_ROW_Y + (ROWS - 1) * ROW_PX  # the boxes on the foot line
            for px, text in zip(COLUMNS_PX, cells):
                if text:
                    self._write(text, px, py, font, NAME_INK if row == 0 else PENCIL)
        self.writing.flattenStrong()  # all the pencilling one batch: one font, two inks
        self.np.show()

    def _write(self, text: str, px: float, py: float, font, colour) -> None:
        node = TextNode("pad-text")
        node.setText(text)
        node.setFont(font)
        node.setAlign(TextNode.ACenter)
        node.setTextColor(*colour)
        np = self.writing.attachNewNode(node.generate())
        x, y = _local(px, py)
        size = 0.062
        np.setPos(x, y - size * 0.35, MODEL_TOP + 0.002)  # the baseline a little below
        np.setHpr(0, -90, 0)  # lying on the sheet, read from the player's side
        np.setScale(size)
        np.setLightOff(1)
        np.setDepthOffset(1)

    def contains(self, mpos: tuple[float, float]) -> bool:
        """Whether the pointer (-1..1 on both axes) is over the pad's sheet on screen."""
        if not self.shown:
            return False
        cam, lens = self.base.cam, self.base.camLens
        corners = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            p = cam.getRelativePoint(self.np, Point3(sx * MODEL_W / 2, sy * MODEL_H / 2, MODEL_TOP))
            film = Point2()
            if not lens.project(p, film):
                return False
            corners.append((film.x, film.y))
        return _inside(mpos, corners)

    def destroy(self) -> None:
        self.np.removeNode()


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Whether ``point`` lies inside the convex ``polygon`` (corners in order)."""
    x, y = point
    signs = set()
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        if cross:
            signs.add(cross > 0)
    return len(signs) == 1
