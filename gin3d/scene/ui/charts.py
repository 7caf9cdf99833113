"""Charts of the player's results, in the 2D layer: bars of games won and lost, and a line.

Each chart is one frame (a dark box with its title) of flat frames, texts and, for the line,
``LineSegs`` geometry, laid out inside the box it is given: labels in a column of their
own, bars scaled to the longest, the counts after the bars and within the box, so no text
runs into another at 1280x720. The Statistics screens build them from ``gin3d.stats``.
"""

from __future__ import annotations

from collections.abc import Sequence

from direct.gui.DirectGui import DGG, DirectFrame, OnscreenText
from panda3d.core import LineSegs, TextNode

from .palette import GOLD

WON, LOST = (0.35, 0.78, 0.42, 1), (0.85, 0.35, 0.3, 1)
BOX = (0, 0, 0, 0.25)
HEAD = 0.08  # the title's band at the top of a box
LABEL_W = 0.42  # the labels' column
COUNT_W = 0.36  # the counts after the longest bar ("12 won, 30 lost")
FAINT = (1, 1, 1, 0.18)
DOT = 0.007  # half a dot's side


def _box(parent, title: str, origin: tuple[float, float], width: float, height: float):
    root = DirectFrame(
        parent=parent,
        frameColor=BOX,
        frameSize=(0, width, -height, 0),
        pos=(origin[0], 0, origin[1]),
        state=DGG.DISABLED,
    )
    OnscreenText(
        parent=root,
        text=title,
        pos=(0.02, -0.05),
        scale=0.036,
        fg=GOLD,
        align=TextNode.ALeft,
    )
    return root


def _say(root, text: str, pos: tuple[float, float], align=TextNode.ALeft) -> None:
    """A line in place of an empty chart's bars or line."""
    OnscreenText(parent=root, text=text, pos=pos, scale=0.032, fg=(0.8, 0.85, 0.8, 1), align=align)


def bar_chart(
    parent,
    title: str,
    rows: Sequence[tuple[str, int, int]],
    origin: tuple[float, float],
    width: float,
    row: float = 0.085,
    empty: str = "",
) -> DirectFrame:
    """Games won (green) then lost (red) per row ``(label, won, lost)``, in a box ``width``
    wide whose top-left corner is ``origin``, as tall as its rows need (``empty`` in the one
    row of a chart with none)."""
    height = HEAD + 0.03 + row * max(1, len(rows))
    root = _box(parent, title, origin, width, height)
    if not rows and empty:
        _say(root, empty, (0.02, -HEAD - 0.045))
    most = max((w + lost for _, w, lost in rows), default=0) or 1
    bar_w = width - LABEL_W - COUNT_W - 0.04
    bar_h = row * 0.62
    x0 = LABEL_W
    for i, (label, won, lost) in enumerate(rows):
        y = -HEAD - 0.01 - i * row - bar_h
        OnscreenText(
            parent=root,
            text=label,
            pos=(0.02, y + 0.016),
            scale=0.032,
            fg=(1, 1, 1, 1),
            align=TextNode.ALeft,
        )
        w_won, w_lost = bar_w * won / most, bar_w * lost / most
        for left, span, colour in ((x0, w_won, WON), (x0 + w_won, w_lost, LOST)):
            if span > 0:
                DirectFrame(
                    parent=root,
                    frameColor=colour,
                    relief=DGG.FLAT,
                    frameSize=(left, left + span, y, y + bar_h),
                    state=DGG.DISABLED,
                )
        OnscreenText(
            parent=root,
            text=f"{won} won, {lost} lost",
            pos=(x0 + w_won + w_lost + 0.02, y + 0.016),
            scale=0.03,
            fg=(0.9, 0.9, 0.9, 1),
            align=TextNode.ALeft,
        )
    return root


def line_chart(
    parent,
    title: str,
    values: Sequence[float],
    origin: tuple[float, float],
    width: float,
    height: float,
    note: str = "",
    empty: str = "",
) -> DirectFrame:
    """``values`` between 0 and 1 as a gold line over faint lines at 0, 50 and 100%, oldest
    on the left, in a box ``width`` by ``height`` whose top-left corner is ``origin``;
    ``note`` under the plot says what it shows, ``empty`` across it when there is nothing."""
    root = _box(parent, title, origin, width, height)
    left, right = 0.14, width - 0.04
    top, bottom = -HEAD - 0.04, -height + (0.1 if note else 0.05)
    for share in (0.0, 0.5, 1.0):
        y = bottom + (top - bottom) * share
        grid = LineSegs("chart-grid")
        grid.setColor(*FAINT)
        grid.setThickness(1)
        grid.moveTo(left, 0, y)
        grid.drawTo(right, 0, y)
        root.attachNewNode(grid.create())
        OnscreenText(
            parent=root,
            text=f"{share:.0%}",
            pos=(left - 0.02, y - 0.01),
            scale=0.028,
            fg=(0.85, 0.85, 0.85, 1),
            align=TextNode.ARight,
        )
    if note:
        OnscreenText(
            parent=root,
            text=note,
            pos=(0.02, -height + 0.035),
            scale=0.028,
            fg=(0.85, 0.9, 0.85, 1),
            align=TextNode.ALeft,
        )
    if not values and empty:
        _say(root, empty, ((left + right) / 2, (top + bottom) / 2 + 0.1), TextNode.ACenter)
    if values:
        step = (right - left) / max(1, len(values) - 1)
        points = [
            (
                left + i * step if len(values) > 1 else (left + right) / 2,
                bottom + (top - bottom) * v,
            )
            for i, v in enumerate(values)
        ]
        line = LineSegs("chart-line")
        line.setColor(*GOLD)
        line.setThickness(2.5)
        line.moveTo(points[0][0], 0, points[0][1])
        for x, y in points[1:]:
            line.drawTo(x, 0, y)
        root.attachNewNode(line.create())
        for x, y in points:  # each game a dot on the line
            DirectFrame(
                parent=root,
                frameColor=GOLD,
                relief=DGG.FLAT,
                frameSize=(x - DOT, x + DOT, y - DOT, y + DOT),
                state=DGG.DISABLED,
            )
    return root
