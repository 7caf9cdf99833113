"""The in-game HUD: prompt line, message line, scores, deadwood count and action buttons,
and the players' portraits.

Text may contain the suit symbols ♠♥♦♣; they are drawn as small tiles cut from the card
atlas (the pip as the card prints it, on the card's white), registered as TextNode graphics.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable

from direct.gui.DirectGui import DirectButton, DirectFrame, OnscreenText
from panda3d.core import (
    CardMaker,
    NodePath,
    TextGraphic,
    TextNode,
    TextProperties,
    TextPropertiesManager,
    TransparencyAttrib,
)

from . import theme
from .portraits import SITS_OUT, Portraits

SUIT_CHARS = "\u2660\u2665\u2666\u2663"
# read at arm's length at 1280x720: the prompt 0.064 high (23 px a line; was 0.055, in
# Panda3D's smaller-faced font)
PROMPT_SCALE, MESSAGE_SCALE, SCORES_SCALE, TARGET_SCALE, DEADWOOD_SCALE = (
    0.064,
    0.05,
    0.05,
    0.042,
    0.056,
)
ACTION_SCALE = 0.058  # the action buttons on the right (were 0.055)
BAND_PAD = 0.04  # the prompt band's room either side of its text (the text ran into the frame)
MIN_SHRINK = 0.85  # the smallest the prompt is drawn to keep it on one line, before wrapping
# what is drawn over the table and lays itself out for the window's shape (the HUDs, the
# tutorial's narration): the app calls ``fit()`` on each after every resize
FITTED: weakref.WeakSet = weakref.WeakSet()
SUIT_KEYS = "shdc"
SUIT_SIZE = 0.8  # the suit tile's height in text heights (a line is 1.0)
SUIT_DROP = 0.12  # how far the tile reaches below the baseline
SUIT_GAP = 0.15  # the space either side of it
TURN_COLOUR = (1.0, 0.82, 0.3, 1)  # the score line of the seat to move
TITLE_COLOUR = (1.0, 0.85, 0.45, 1)  # the game's title (a tournament's rung)
BENCH_DROP = 0.06  # the rows under the scores step down for the third player's line
_registered = ""  # the atlas image the suit pictures were cut from
_props_registered = False


def register_suit_graphics(atlas) -> None:
    """Make ``\\5s\\5`` (etc.) draw that suit's pip from the atlas inside any TextNode."""
    global _registered
    if _registered == atlas.image_path:
        return
    mgr = TextPropertiesManager.getGlobalPtr()
    for key, tex in zip(SUIT_KEYS, atlas.suit_icons(on_card=True)):
        cm = CardMaker(f"suit-{key}")
        # a tile of the card's face a little taller than a capital, square as the cut is:
        # the pip in its printed colour, its shape (spade or club) clear at HUD sizes
        cm.setFrame(SUIT_GAP, SUIT_SIZE + SUIT_GAP, -SUIT_DROP, SUIT_SIZE - SUIT_DROP)
        np = NodePath(cm.generate())
        np.setTexture(tex)
        np.setTransparency(TransparencyAttrib.MAlpha)
        np.setColor(1, 1, 1, 1)  # its own colours: the text's colour does not tint it
        # its own room in the line: a little space before and after the tile. The layout
        # lifts a graphic by its frame's depth below the baseline, so the frame starts at
        # the baseline and the tile itself reaches below it (it sat above the baseline and
        # touched the prompt's frame)
        mgr.setGraphic(key, TextGraphic(np, 0, SUIT_SIZE + 2 * SUIT_GAP, 0, SUIT_SIZE))
    _registered = atlas.image_path


def register_text_properties() -> None:
    """``\\1turn\\1`` lights the seat to move in the scores; ``\\1small\\1`` draws a
    second, smaller line (the deadwood count's "after discarding ...")."""
    global _props_registered
    if _props_registered:
        return
    mgr = TextPropertiesManager.getGlobalPtr()
    turn = TextProperties()
    turn.setTextColor(*TURN_COLOUR)
    mgr.setProperties("turn", turn)
    small = TextProperties()
    small.setTextScale(0.72)
    mgr.setProperties("small", small)
    _props_registered = True


def suitify(text: str) -> str:
    """Replace suit symbols with the registered suit graphics."""
    for ch, key in zip(SUIT_CHARS, SUIT_KEYS):
        text = text.replace(ch, f"\5{key}\5")
    return text


def button(parent, text: str, command: Callable, pos, scale: float = 0.05, **kw) -> DirectButton:
    """The one button of every screen and the HUD: framed, with its own look when the
    pointer is over it, when pressed and when disabled (``theme.button_style``)."""
    style = theme.button_style()
    style.update(kw)
    b = DirectButton(
        parent=parent, text=suitify(text), command=command, pos=pos, scale=scale, **style
    )
    b.setTransparency(TransparencyAttrib.MAlpha)  # the frame's rounded corners
    return b


def _laid_width(text: OnscreenText) -> float:
    """A text's width as laid out, 0 for an empty one. Panda3D leaves an empty text's bounds
    unset: most often NaN, but sometimes whatever the memory held (a tiny negative number
    was seen), and a width like that sent the band down the wrapping path with a scale of
    -5.8e40, which gave the next text laid out a NaN transform."""
    node = text.textNode
    if not node.getText().strip():
        return 0.0
    width = node.getWidth()
    return width if math.isfinite(width) and width > 0 else 0.0


class Hud:
    """Everything drawn over the table while a game is on."""

    ACTIONS = (
        ("take", "Take"),
        ("pass", "Pass"),
        ("knock", "Knock"),
        ("gin", "Gin!"),
        ("bestlayoff", "Best layoff"),
        ("done", "Done"),
        ("hint", "Hint (h)"),
        ("skip", "Skip hand (End)"),
        ("sheet", "Scores (Tab)"),
    )

    def __init__(
        self,
        base,
        on_action: Callable[[str], None],
        on_menu: Callable[[], None],
        menu_label: str = "Menu (Esc)",
        portraits: bool = True,
    ) -> None:
        """``portraits=False``: no player portraits (the tutorial's narration panel stands
        where they would)."""
        FITTED.add(self)
        register_text_properties()
        self.base = base
        self.turn: int | None = None  # the seat lit in the scores (None: nobody to move)
        self.root = DirectFrame(parent=base.aspect2d, frameColor=(0, 0, 0, 0))
        self.top = DirectFrame(parent=base.a2dTopCenter, **theme.panel_style())
        self.top.setTransparency(TransparencyAttrib.MAlpha)
        self._band(1.0, -0.17)
        line = theme.text_line
        self.prompt = line(
            self.top, (0, -0.075), PROMPT_SCALE, (1, 1, 0.92, 1), shadow=(0, 0, 0, 0.8)
        )
        self.message = line(self.top, (0, -0.14), MESSAGE_SCALE, (0.85, 0.95, 0.85, 1), shadow=None)
        left, right = base.a2dTopLeft, base.a2dTopRight
        self.scores = line(left, (0.04, -0.08), SCORES_SCALE, (1, 1, 1, 1), TextNode.ALeft)
        self.target = line(left, (0.04, -0.2), TARGET_SCALE, (0.9, 0.9, 0.75, 1), TextNode.ALeft)
        self.deadwood = line(right, (-0.06, -0.2), DEADWOOD_SCALE, (1, 1, 0.85, 1), TextNode.ARight)
        # what this game is, under the sort row ("Tournament - rung 2 of 4: Walt"); "" for most
        self.title = line(left, (0.04, -0.41), TARGET_SCALE, TITLE_COLOUR, TextNode.ALeft)
        self.buttons: dict[str, DirectButton] = {}
        for i, (name, label) in enumerate(self.ACTIONS):
            self.buttons[name] = button(
                base.a2dRightCenter,
                label,
                lambda n=name: on_action(n),
                (-0.22, 0, 0.33 - i * 0.12),
                scale=ACTION_SCALE,
            )
        self.sort_buttons: dict[str, DirectButton] = {}
        self.sort_label = OnscreenText(
            parent=base.a2dTopLeft,
            text="Sort",
            pos=(0.04, -0.31),
            scale=0.04,
            fg=(1, 1, 1, 0.8),
            align=TextNode.ALeft,
        )
        for i, (mode, label) in enumerate((("melds", "Melds"), ("rank", "Rank"), ("suit", "Suit"))):
            self.sort_buttons[mode] = button(
                base.a2dTopLeft,
                label,
                lambda m=mode: on_action(f"sort:{m}"),
                (0.2 + i * 0.17, 0, -0.31),
                scale=0.042,
                frameSize=(-1.7, 1.7, -0.55, 1.05),
            )
        self.menu_button = button(
            base.a2dTopRight, menu_label, on_menu, (-0.2, 0, -0.08), scale=0.045
        )
        # its right edge where "Menu (Esc)" has it, whatever the label's length
        self.menu_button.setX(-0.082 - self.menu_button.getBounds()[1] * 0.045)
        # both players by their hands, the one to move lit
        self.portraits = Portraits(base) if portraits else None
        self.extra: list = []
        self.all = [
            self.root,
            self.top,
            self.scores,
            self.target,
            self.title,
            self.deadwood,
            self.sort_label,
            *self.buttons.values(),
            *self.sort_buttons.values(),
            self.menu_button,
        ]
        self._show_band()

    def set_prompt(self, text: str) -> None:
        self.prompt.setText(suitify(text))
        self.fit()
        self._show_band()

    def set_title(self, text: str) -> None:
        """Name the game on the table (a tournament's rung), left under the sort row."""
        self.title.setText(text)

    def set_message(self, text: str) -> None:
        self.message.setText(suitify(text))
        self.fit()
        self._show_band()

    def _show_band(self) -> None:
        """The prompt's band only with something in it (the tutorial's table has its words in
        the narration panel: an empty gold frame stood over it)."""
        if self.root.isHidden() or not (self.prompt.getText() or self.message.getText()):
            self.top.hide()
        else:
            self.top.show()

    def fit(self) -> None:
        """Keep the prompt and the message inside the top band, and the band clear of the
        scores on the left and of the Menu button and the deadwood count on the right: the
        band is as wide as its text (at least the usual width, never wider than the gap), in
        a narrow window the prompt and the message wrap onto a second line each (the band
        grows down between them), and only text too long even for that is drawn smaller."""
        right = getattr(self.base, "a2dRight", 1.0)
        left_reach = 0.04 + max(
            _laid_width(self.scores) * SCORES_SCALE, _laid_width(self.target) * TARGET_SCALE
        )
        right_reach = max(
            -self.menu_button.getX() - self.menu_button.getBounds()[0] * 0.045,
            0.06 + _laid_width(self.deadwood) * DEADWOOD_SCALE,
        )
        gap = (-right + left_reach + 0.02, right - right_reach - 0.02)  # free, left to right
        if not all(map(math.isfinite, gap)):  # a text with no glyphs laid out yet: no bounds
            return
        self.prompt.setWordwrap(None)
        self.message.setWordwrap(None)
        wide = _laid_width(self.prompt) * PROMPT_SCALE
        message = _laid_width(self.message) * MESSAGE_SCALE
        limit = min(-gap[0], gap[1])  # half-width of the widest band centred on the screen
        if max(wide, message) / 2 + BAND_PAD <= limit:  # one line each, the usual band or wider
            half = min(limit, max(1.0, max(wide, message) / 2 + BAND_PAD))
            self.top.setX(0)
            self.prompt.setScale(PROMPT_SCALE)
            self.message.setScale(MESSAGE_SCALE)
            self.message.setPos(0, -0.14)
            self._band(half, -0.17)
            return
        self.top.setX((gap[0] + gap[1]) / 2)  # centred in the gap
        room = max(0.25, (gap[1] - gap[0]) / 2)
        rows = self._wrap(self.prompt, PROMPT_SCALE, wide, room - BAND_PAD)
        line = self.prompt.textNode.getLineHeight() * self.prompt.getScale()[0]
        y = -0.075 - (rows - 1) * line - 0.065
        self.message.setPos(0, y)
        if message:
            m_rows = self._wrap(self.message, MESSAGE_SCALE, message, room - BAND_PAD)
            y -= (m_rows - 1) * self.message.textNode.getLineHeight() * self.message.getScale()[0]
        else:
            self.message.setScale(MESSAGE_SCALE)
        self._band(room, y - 0.035)

    def _band(self, half: float, bottom: float) -> None:
        """The prompt's band, an opaque framed panel ``half`` either side of its centre,
        from the top of the window down to ``bottom``."""
        self.top["frameSize"] = (-half, half, bottom, 0.0)

    @staticmethod
    def _wrap(text: OnscreenText, scale: float, width: float, room: float) -> int:
        """Wrap ``text`` to the band's width (``2 * room``) on at most two lines, drawing it
        smaller only when two lines are not enough; returns the number of lines."""
        if width and 2 * room / width >= MIN_SHRINK:  # one line, a little smaller if need be
            text.setScale(scale * min(1.0, 2 * room / width))
            return 1
        shrink = min(1.0, 3.6 * room / width) if width else 1.0  # two lines, nine tenths full
        rows = 1
        for _ in range(3):
            text.setScale(scale * shrink)
            text.setWordwrap(2 * room / (scale * shrink))
            rows = text.textNode.getNumRows()
            if rows <= 2:
                break
            shrink *= 2 / rows
        return rows

    def set_scores(
        self,
        names,
        scores,
        target: int,
        dealer: int | None = None,
        knock_limit: int | None = None,
        turn: int | None = None,
        bench: tuple[str, int] | None = None,
        labels: tuple[str, str] | None = None,
        notes: tuple[str, ...] = (),
    ) -> None:
        """Both seats in seat order (the local one first); the seat to move is lit and
        marked "to play", so whose turn it is shows without reading the prompt. ``bench``:
        the name and score of a third player who sits this hand out (a line of its own,
        the rows below it step down). ``labels``: what the score lines call each seat
        (a partnership's teams; the portraits keep ``names``); ``notes``: more lines under
        the scores (a partnership's other table)."""
        self.turn = turn if turn in (0, 1) else None
        lines = []
        for s in (0, 1):
            who = labels[s] if labels is not None else names[s]
            line = f"{who}: {scores[s]}" + (" (dealer)" if dealer == s else "")
            lines.append(f"\1turn\1{line}  - to play\2" if s == self.turn else line)
        if bench is not None:
            lines.append(f"{bench[0]}: {bench[1]}  - {SITS_OUT}")
        lines += [suitify(n) for n in notes]
        self.scores.setText("\n".join(lines))
        self._step_rows(BENCH_DROP * ((bench is not None) + len(notes)))
        if self.portraits is not None:
            self.portraits.update(names, scores, self.turn, dealer, bench)
        knock = ""
        if knock_limit is not None:
            knock = "  -  gin only" if knock_limit == 0 else f"  -  knock at {knock_limit}"
        self.target.setText(f"Game to {target}{knock}")
        self.fit()

    def _step_rows(self, drop: float) -> None:
        """The game target and the sort row, below the score lines (``drop`` lower for a
        third line)."""
        self.target.setTextPos(0.04, -0.2 - drop)
        self.title.setTextPos(0.04, -0.41 - drop)
        self.sort_label.setTextPos(0.04, -0.31 - drop)
        for b in self.sort_buttons.values():
            b.setZ(-0.31 - drop)

    def set_deadwood(self, value: int | None, after: str | None = None) -> None:
        """The deadwood count; holding 11 cards, ``after`` names the best discard, and the
        count is the one left after it (counting the 11th card would overstate it)."""
        if value is None:
            text = ""
        elif after:
            text = f"Deadwood {value}\nafter discarding {after}"
        else:
            text = f"Deadwood {value}"
        self.deadwood.setText(suitify(text))
        self.fit()

    def show_buttons(self, names: set[str]) -> None:
        for name, b in self.buttons.items():
            if name in names:
                b.show()
            else:
                b.hide()

    def set_sort(self, mode: str) -> None:
        for m, b in self.sort_buttons.items():
            b["frameColor"] = theme.SELECTED if m == mode else theme.PLAIN

    def show(self) -> None:
        for w in (
            self.root,
            self.scores,
            self.target,
            self.title,
            self.deadwood,
            self.menu_button,
            self.sort_label,
            *self.sort_buttons.values(),
        ):
            w.show()
        self._show_band()
        if self.portraits is not None:
            self.portraits.show()

    def hide(self) -> None:
        for w in self.all:
            w.hide()
        if self.portraits is not None:
            self.portraits.hide()

    def destroy(self) -> None:
        FITTED.discard(self)
        # the band's lines first: a kept text would keep the removed band (and its prepared
        # vertex buffers) alive for as long as this HUD is
        for w in (self.prompt, self.message, *self.all):
            w.destroy()
        if self.portraits is not None:
            self.portraits.destroy()
