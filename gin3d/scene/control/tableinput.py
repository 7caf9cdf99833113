"""Local input on the table: mouse (click, drag, hover) and keyboard, turned into actions.

Every path ends in ``TableController.submit``; anything not legal now is simply ignored
(illegal targets neither glow nor react). ``press``/``move``/``release`` take mouse
coordinates, so tests drive the very same handlers the mouse does.
"""

from __future__ import annotations

from collections.abc import Callable

from panda3d.core import Point3

from ...ai.greedy import layoff_moves
from ...engine import (
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
    deadwood_of_mask,
    discard_deadwoods,
    mask_of,
)
from ..tabletop import layout
from ..tabletop.cards import CardNode
from ..tabletop.picking import MouseButtons, Picker
from ..tabletop.score_pad import ScorePad
from ..ui.score_sheet import ScoreSheetView
from .prompts import InputState, gin_knocks, table_shows

DRAG_START = 0.025  # mouse units the pointer must move before a press becomes a drag

KEYS = {
    "s": "stock",
    "d": "take",
    "t": "take",
    "p": "pass",
    "k": "knock",
    "g": "gin",
    "b": "bestlayoff",
    "f": "done",
    "enter": "confirm",
    "space": "confirm",
    "arrow_left": "left",
    "arrow_right": "right",
    ",": "moveleft",
    ".": "moveright",
    "1": "sort:melds",
    "2": "sort:rank",
    "3": "sort:suit",
    "n": "next",
    "h": "hint",
    "w": "watch",  # a team game: your partner's hand on the table while yours waits
    "end": "skip",  # a computer's move at once; three players: the hand you sit out
    "tab": "sheet",  # the score pad over the table, and away again
}
GLOW_HINT = (0.55, 0.8, 1.0, 0.95)


class TableInput(MouseButtons):
    """Maps clicks, drags and keys on the table to the local seat's actions."""

    def __init__(
        self, base, scene, controller, hud=None, hints: Callable[[], bool] = lambda: True
    ) -> None:
        self.base = base
        self.hints = hints  # whether the Hint button is offered now (a setting; never online)
        self.scene = scene
        self.ctl = controller
        self.hud = hud
        self.sheet = ScoreSheetView(base)  # the score sheet over the table (Tab)
        self.pad = ScorePad(base, scene.root)  # the score pad on the felt
        self.picker = Picker(base, scene.root)
        self.selected = None  # a Card of the local hand
        self.knock_mode = False
        self.pressed: CardNode | None = None
        self.last_hint = None
        self.hinted = None  # the hint's action while its card is the one selected
        self.press_pos: tuple[float, float] | None = None
        self.dragging = False
        self.hovered: CardNode | None = None
        self.enabled = True
        self._last_mouse = None
        self.events = ["mouse1", "mouse1-up", *KEYS]
        base.accept("mouse1", self._mouse_down)
        base.accept("mouse1-up", self._mouse_up)
        for key, name in KEYS.items():
            base.accept(key, self.do, [name])
        self._task = base.taskMgr.add(self._track_mouse, "table-input-mouse")
        controller.on_change.append(self.refresh)

    @property
    def enabled(self) -> bool:
        return self._enabled

    @enabled.setter
    def enabled(self, on: bool) -> None:
        """Off while a menu covers the table: the turn marker goes with the HUD (and the
        score sheet goes away)."""
        self._enabled = on
        if not on:
            self.sheet.hide()
            self.scene.mark_turn(None)

    # -- mouse ------------------------------------------------------------------------
    def _track_mouse(self, task):
        pos = self._mouse()
        if pos is not None and pos != self._last_mouse:
            self._last_mouse = pos
            self.move(pos)
        return task.cont

    def press(self, mpos: tuple[float, float]) -> None:
        """Mouse button down at ``mpos``."""
        if not self.enabled:
            return
        if getattr(self.ctl, "click_inset", lambda pos: False)(mpos):  # a team game's inset
            self.pressed = None
            return
        node = self.picker.pick(mpos)
        if node is None and self.pad.contains(mpos):
            self.pressed = None
            self.toggle_sheet()  # the pad on the felt: the full sheet over the table
            return
        self.pressed = node
        self.press_pos = mpos
        self.dragging = False

    def move(self, mpos: tuple[float, float]) -> None:
        """Pointer moved: hover highlight, or carry a dragged hand card."""
        if not self.enabled:
            return
        node = self.pressed
        if node is not None and node.zone == "hand0" and self.press_pos is not None:
            dx, dy = mpos[0] - self.press_pos[0], mpos[1] - self.press_pos[1]
            if self.dragging or dx * dx + dy * dy > DRAG_START**2:
                self.dragging = True
                hit = self.picker.ray_on_plane(mpos, self.scene.anchor_hand)
                if hit is not None:
                    node.np.setPos(hit.x, hit.y, 1.5)
                return
        self._hover(self.picker.pick(mpos))

    def release(self, mpos: tuple[float, float]) -> None:
        """Mouse button up: a click on what was pressed, or the end of a drag."""
        node, self.pressed = self.pressed, None
        if not self.enabled:
            return
        if self.dragging and node is not None:
            self.dragging = False
            self._drop(node, mpos)
            return
        target = self.picker.pick(mpos)
        if target is not None and target is node:
            self.click(target)

    def _drop(self, node: CardNode, mpos) -> None:
        on_table = self.picker.ray_on_plane(mpos, self.scene.anchor_pile)
        over_pile = on_table is not None and (on_table.x**2 + on_table.y**2) ** 0.5 < 7.0
        if over_pile and self._discard_or_knock(node.card):
            return
        hit = self.picker.ray_on_plane(mpos, self.scene.anchor_hand)
        others = [n for n in self.scene.hands[0] if n is not node]
        index = len(others)
        if hit is not None:
            for i, other in enumerate(others):
                if hit.x < other.np.getX():
                    index = i
                    break
        self.scene.move_in_hand(node.card, index)
        self._sync_sort()

    def _hover(self, node: CardNode | None) -> None:
        if node is self.hovered:
            return
        old, self.hovered = self.hovered, node
        if old is not None and old.zone == "hand0":
            old.body.setPos(0, 0, 0)
        if node is not None and node.zone == "hand0" and self._reacts(node):
            node.body.setPos(0, 0.6, 0.3)

    def _reacts(self, node: CardNode) -> bool:
        legal = self.ctl.legal()
        return any(getattr(a, "card", None) == node.card for a in legal)

    # -- clicks -------------------------------------------------------------------------
    def click(self, node: CardNode) -> bool:
        """A click on a card node; returns whether it did something."""
        legal = self.ctl.legal()
        if not legal:
            return False
        zone = node.zone
        if zone == "stock":
            return self._submit(DrawStock())
        if zone == "pile":
            if DrawDiscard() in legal:
                return self._submit(DrawDiscard())
            if self.selected is not None:
                return self._discard_or_knock(self.selected)
            return False
        if zone == "hand0":
            return self._click_hand(node.card, legal)
        knocker = self.scene.knocker
        if knocker is not None and zone == f"spread{knocker}" and self.selected is not None:
            for i, meld in enumerate(self.scene.table_melds):
                if node in meld:
                    return self._submit(LayOff(self.selected, i))
        return False

    def _click_hand(self, card, legal) -> bool:
        view = self.ctl.view(0)
        if view.phase == "discard":
            if self.knock_mode:
                return self._submit(Knock(card))
            if self.selected == card:
                return self._discard_or_knock(card)
            if Discard(card) in legal or Knock(card) in legal:
                self._select(card)
                return True
            return False
        if view.phase == "layoff":
            fits = [a for a in legal if isinstance(a, LayOff) and a.card == card]
            if len(fits) == 1:
                return self._submit(fits[0])
            if fits:
                self._select(card)
                return True
        return False

    def _discard_or_knock(self, card) -> bool:
        legal = self.ctl.legal()
        if Discard(card) in legal:
            return self._submit(Discard(card))
        if Knock(card) in legal:  # must-knock turns (last chance, throw-back)
            return self._submit(Knock(card))
        return False

    def _select(self, card) -> None:
        self.selected = card
        self.hinted = None
        self.refresh()

    def _submit(self, action) -> bool:
        ok = self.ctl.submit(action)
        if ok:
            self.selected = None
            self.hinted = None
            self.knock_mode = False
        return ok

    # -- buttons and keys ---------------------------------------------------------------
    def do(self, name: str) -> bool:
        """A named command from a button or key (see KEYS); False when it does nothing."""
        if not self.enabled:
            return False
        if name.startswith("sort:"):
            return self._sort(name[5:])
        command = COMMANDS.get(name)
        return command(self) if command is not None else False

    def _sort(self, mode: str) -> bool:
        self.scene.set_sort(mode)
        self._sync_sort()
        self.refresh()
        return True

    def _hand(self) -> list:
        return [n.card for n in self.scene.hands[0]]

    def _gin(self) -> bool:
        legal = self.ctl.legal()
        if BigGin() in legal:
            return self._submit(BigGin())
        gins = gin_knocks(self.ctl.view(0), legal)
        return self._submit(gins[0]) if gins else False

    def _knock(self) -> bool:
        """Knock with the selected card, or the only card that may knock; with several,
        arm (or disarm) Knock so the next hand card clicked is the one laid face down."""
        legal = self.ctl.legal()
        knocks = [a for a in legal if isinstance(a, Knock)]
        if not knocks:
            return False
        if self.selected is not None and Knock(self.selected) in legal:
            return self._submit(Knock(self.selected))
        if len(knocks) == 1:
            return self._submit(knocks[0])
        self.knock_mode = not self.knock_mode
        self.refresh()
        return True

    def _best_layoff(self) -> bool:
        legal = self.ctl.legal()
        view = self.ctl.view(0)
        if view.phase != "layoff" or not legal:
            return False
        ok = self.ctl.submit_many(layoff_moves(view))
        if ok:
            self.selected = None
        return ok

    def _step_selection(self, step: int) -> bool:
        """Select the hand card ``step`` places right (+1) or left (-1) of the selected one;
        with none selected, the first card from that side."""
        cards = [c for c in self._hand() if c is not None]
        if not cards:
            return False
        if self.selected in cards:
            i = cards.index(self.selected)
        else:
            i = -1 if step > 0 else len(cards)
        self.selected = cards[max(0, min(len(cards) - 1, i + step))]
        self.hinted = None
        self.refresh()
        return True

    def _move_selected(self, step: int) -> bool:
        """Move the selected card ``step`` places along the hand (a custom order)."""
        hand = self._hand()
        if self.selected not in hand:
            return False
        self.scene.move_in_hand(self.selected, hand.index(self.selected) + step)
        self._sync_sort()
        self.refresh()
        return True

    def _confirm(self) -> bool:
        """Enter: play the selected card as the phase means (discard, knock, lay off)."""
        if self.selected is None:
            return False
        phase = self.ctl.view(0).phase
        if phase == "discard":
            if self.knock_mode:
                return self._submit(Knock(self.selected))
            return self._discard_or_knock(self.selected)
        if phase == "layoff":
            legal = self.ctl.legal()
            fits = [a for a in legal if isinstance(a, LayOff) and a.card == self.selected]
            if self.hinted in fits:  # the hint chose the meld too
                return self._submit(self.hinted)
            return self._submit(fits[0]) if fits else False
        return False

    def show_hint(self) -> bool:
        """Ask the AI's hint for the local seat: say why in the message line, light the card.
        A hinted hand card is also selected (lifted), so Enter or a click on the pile does
        what the hint says (a hinted knock arms Knock: Enter lays that card face down)."""
        if not self.ctl.legal() or not self.hints():
            return False
        from ...ai.hint import hint  # on first use: the app starts without the AI's tables

        advice = hint(self.ctl.view(0), budget_s=0.4)
        self.last_hint = advice
        self.ctl.say(f"Hint: {advice.reason}")  # until the next move
        action = advice.action
        card = getattr(action, "card", None)
        if card is not None and card in [n.card for n in self.scene.hands[0]]:
            self.selected = card
            self.knock_mode = isinstance(action, Knock)
            self.refresh()
            self.hinted = action
        if isinstance(action, DrawStock) and self.scene.stock:
            self.scene.stock[-1].set_glow(True, GLOW_HINT)
        elif isinstance(action, DrawDiscard) and self.scene.pile:
            self.scene.pile[-1].set_glow(True, GLOW_HINT)
        elif card is not None:
            for n in self.scene.hands[0]:
                if n.card == card:
                    n.set_glow(True, GLOW_HINT)
        return True

    def _sync_sort(self) -> None:
        if self.hud is not None:
            self.hud.set_sort(self.scene.sort_mode)

    # -- what glows, what the prompt says -----------------------------------------------
    def refresh(self) -> None:
        """Re-light legal targets and rewrite the prompt for the current state."""
        scene = self.scene
        for n in scene.cards:
            if n.glowing:
                n.set_glow(False)
        legal = self.ctl.legal()
        view = self.ctl.view(0)
        if self.selected not in [n.card for n in scene.hands[0]]:
            self.selected = None
        if view.phase != "discard":
            self.knock_mode = False
        shows = table_shows(view, legal, self._input_state(view, legal))
        self._light(shows.glows)
        self._lift_selected()
        buttons = set(shows.buttons)
        if self.ctl.can_skip() and self._sitting_out():  # (the key hurries any computer)
            buttons.add("skip")
        sheet = self.ctl.score_sheet()
        self.pad.update(self.ctl.sheet_names(), sheet if self.ctl.felt_pad else None)
        if sheet is not None:
            buttons.add("sheet")
        if self.hud is not None:
            self.hud.set_prompt(shows.prompt)
            self.hud.show_buttons(buttons)
            self._show_deadwood(view, legal)
        turn = view.turn if view.phase != "over" else None
        scene.mark_turn(turn if self.enabled else None)  # no marker behind a menu
        if self.hud is not None:
            # a three-player game: the one who sits out dealt (neither seat is the dealer)
            bench = getattr(self.ctl, "bench", None)
            dealer = view.dealer if bench is None else None
            notes = getattr(self.ctl, "hud_notes", tuple)()  # a partnership's other table
            self.hud.set_scores(
                self.ctl.names,
                view.scores,
                view.target,
                dealer,
                view.knock_limit,
                turn,
                bench,
                getattr(self.ctl, "team_names", None),
                notes,
            )
            self.hud.set_sort(scene.sort_mode)
        self.prompt = shows.prompt
        self.buttons = buttons

    def _input_state(self, view, legal) -> InputState:
        """This input's state for ``table_shows``; the overridable questions (hints offered,
        the waiting line) are asked only where their answer is used."""
        return InputState(
            selected=self.selected,
            knock_mode=self.knock_mode,
            hints=bool(legal) and self.hints(),
            waiting="" if legal else self._waiting_prompt(view),
        )

    def _light(self, glows) -> None:
        """Light the nodes ``table_shows`` named, in its order."""
        scene = self.scene
        for glow in glows:
            if glow.where == "stock":
                nodes = scene.stock[-1:]
            elif glow.where == "pile":
                nodes = scene.pile[-1:]
            elif glow.where == "meld":
                nodes = scene.table_melds[glow.meld]
            else:
                nodes = [n for n in scene.hands[0] if n.card == glow.card]
            for n in nodes:
                n.set_glow(True, glow.colour)

    def _show_deadwood(self, view, legal) -> None:
        """The HUD's deadwood count: with 11 cards in hand, the count after the best
        discard (and which card that is), since the 11th card is never kept."""
        known = list(view.hand)
        if self._sitting_out():  # the hand at the bottom is a computer's: no count for it
            self.hud.set_deadwood(None)
            return
        if len(known) != 11:
            self.hud.set_deadwood(deadwood_of_mask(mask_of(known)) if known else None)
            return
        left = discard_deadwoods(known)
        kept = view.taken if not view.rules.allow_throw_back else None  # may not go back
        choices = [a.card for a in legal if isinstance(a, (Discard, Knock)) and a.card != kept]
        choices = [c for c in choices if c in left] or [c for c in known if c != kept]
        best = min(choices, key=lambda c: (left[c], -c.rank, c))
        self.hud.set_deadwood(left[best], after=best.pretty)

    def _sitting_out(self) -> str:
        """The prompt while you sit out a three-player hand, "" otherwise."""
        line = getattr(self.ctl, "watching_line", None)
        return line() if line is not None else ""

    def _waiting_prompt(self, view) -> str:
        if view.phase == "over":
            return "Hand over"
        if self._sitting_out():
            return self._sitting_out()
        if self.ctl.queue.busy:
            return ""
        if view.turn == 1:
            return f"{self.ctl.names[1]} is thinking..."
        return ""

    def _lift_selected(self) -> None:
        for n in self.scene.hands[0]:
            if n is self.hovered:
                continue
            n.body.setPos(0, 1.2, 0.4) if n.card == self.selected else n.body.setPos(0, 0, 0)

    def card_point(self, card) -> tuple[float, float] | None:
        """Screen point of a card of the local hand (tests, tutorial pointers)."""
        for n in self.scene.hands[0]:
            if n.card == card:
                return self.picker.visible_point(n)
        return None

    def pile_point(self) -> tuple[float, float] | None:
        if self.scene.pile:
            return self.picker.visible_point(self.scene.pile[-1])
        return self.picker.screen_point(self.scene.anchor_pile, Point3(0, 0, 0))

    def stock_point(self) -> tuple[float, float] | None:
        return self.picker.visible_point(self.scene.stock[-1]) if self.scene.stock else None

    def toggle_sheet(self) -> bool:
        """Show the score sheet over the table, or take it away (False where the table keeps
        none)."""
        if self.sheet.shown:
            self.sheet.hide()
            return True
        sheet = self.ctl.score_sheet()
        if sheet is None:
            return False
        self.sheet.show(self.ctl.sheet_names(), sheet)
        return True

    def destroy(self) -> None:
        self.sheet.hide()
        self.pad.destroy()
        self.scene.mark_turn(None)
        for ev in self.events:
            self.base.ignore(ev)
        self.base.taskMgr.remove(self._task)
        if self.refresh in self.ctl.on_change:
            self.ctl.on_change.remove(self.refresh)
        self.picker.ray_np.removeNode()


# the commands of ``TableInput.do`` (and so of KEYS and the HUD's buttons), besides "sort:..."
COMMANDS: dict[str, Callable[[TableInput], bool]] = {
    "next": lambda inp: inp.ctl.next_hand(),
    "hint": lambda inp: inp.show_hint(),
    "watch": lambda inp: getattr(inp.ctl, "watch_partner", lambda: False)(),
    "skip": lambda inp: inp.ctl.skip(),
    "sheet": lambda inp: inp.toggle_sheet(),
    "stock": lambda inp: inp._submit(DrawStock()),
    "take": lambda inp: inp._submit(DrawDiscard()),
    "pass": lambda inp: inp._submit(Pass()),
    "gin": TableInput._gin,
    "knock": TableInput._knock,
    "bestlayoff": TableInput._best_layoff,
    "done": lambda inp: inp._submit(FinishLayoff()),
    "left": lambda inp: inp._step_selection(-1),
    "right": lambda inp: inp._step_selection(+1),
    "moveleft": lambda inp: inp._move_selected(-1),
    "moveright": lambda inp: inp._move_selected(+1),
    "confirm": TableInput._confirm,
}


__all__ = ["TableInput", "KEYS", "layout"]
