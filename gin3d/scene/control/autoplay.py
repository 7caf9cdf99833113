"""Play the local seat through the real input path, deciding with any Player.

``InputDriver`` asks a Player (the simple one by default) what to do, then acts only by
input: it projects a card node to its screen point and clicks there through
``TableInput.press/move/release`` (the handlers the mouse events call), sends keys through
the messenger and presses HUD buttons. Tests, screenshots, benches and demos use it.
"""

from __future__ import annotations

from collections import Counter

from ...engine import BigGin, Discard, DrawDiscard, DrawStock, FinishLayoff, Knock, LayOff, Pass
from ...players import GreedyPlayer


def moves_made(ctl) -> list:
    """The moves the table has taken so far: the local seat's sent moves on a network table
    (whose game lives in the match), every action of the engine game otherwise."""
    sent = getattr(ctl, "submitted", None)
    return sent if sent is not None else ctl.game.actions


class InputDriver:
    """Plays seat 0 through clicks and keys, deciding like GreedyPlayer."""

    def __init__(self, app, brain=None) -> None:
        self.app = app
        self.brain = brain or GreedyPlayer()
        self.seen: Counter = Counter()
        self.checks = 0

    @property
    def session(self):
        return self.app.session

    def click_node_point(self, point) -> None:
        if point is None:
            raise RuntimeError("the card is not visible on screen")
        inp = self.session.input
        inp.press(point)
        inp.move(point)
        inp.release(point)
        self.app.taskMgr.step()

    def click_card(self, card) -> None:
        self.click_node_point(self.session.input.card_point(card))

    def key(self, name: str) -> None:
        self.app.messenger.send(name)
        self.app.taskMgr.step()

    def button(self, name: str) -> None:
        b = self.session.hud.buttons[name]
        if b.isHidden():
            raise RuntimeError(f"the {name} button is not shown")
        b["command"]()
        self.app.taskMgr.step()

    def play_turn(self) -> None:
        """One local decision, acted out through the input path."""
        ctl = self.session.controller
        action = self.brain.choose(ctl.view(0))
        before = len(moves_made(ctl))
        self.act(action)
        mine = moves_made(ctl)[before:]
        if not mine:
            inp = self.session.input
            raise RuntimeError(
                f"input for {action} did nothing (prompt: {inp.prompt!r}, legal: "
                f"{ctl.legal()}, selected {inp.selected}, "
                f"state {self.app.screens.state})"
            )
        self.seen[type(mine[0]).__name__] += 1

    def act(self, action) -> None:
        """Click, key or button for ``action`` as a player would."""
        inp = self.session.input
        if isinstance(action, DrawStock):
            self.click_node_point(inp.stock_point())
        elif isinstance(action, DrawDiscard):
            self.click_node_point(inp.pile_point())
        elif isinstance(action, Pass):
            self.key("p")
        elif isinstance(action, Discard):
            self.discard(action.card)
        elif isinstance(action, Knock):
            self.knock(action.card)
        elif isinstance(action, BigGin):
            self.key("g")
        elif isinstance(action, LayOff):
            self.lay_off(action)
        elif isinstance(action, FinishLayoff):
            self.button("done")
        else:
            raise ValueError(f"no input for {action}")

    def discard(self, card) -> None:
        """Select the card, then click the pile."""
        inp = self.session.input
        self.click_card(card)
        if inp.selected != card:
            raise RuntimeError(f"clicking {card} did not select it")
        self.click_node_point(inp.pile_point())

    def knock(self, card) -> None:
        """Gin when the Gin button shows, else Knock and (when asked) the card to lay down."""
        inp = self.session.input
        if "gin" in inp.buttons:
            self.button("gin")
        else:
            self.button("knock")
            if inp.knock_mode:
                self.click_card(card)

    def lay_off(self, action: LayOff) -> None:
        """Click the card; if that laid off nothing (it fits two melds), click the meld."""
        ctl = self.session.controller
        before = len(moves_made(ctl))
        self.click_card(action.card)
        if moves_made(ctl)[before:] == []:
            self.choose_meld(action.meld)

    def choose_meld(self, meld: int) -> None:
        nodes = self.app.scene.table_melds[meld]
        self.click_node_point(self.session.input.picker.visible_point(nodes[0]))

    def play_hand(self) -> None:
        """Play until the hand is over (the computer moves in between, instantly)."""
        ctl = self.session.controller
        for _ in range(200):
            if ctl.game.hand.over:
                return
            if not ctl.waiting_for_human():
                raise RuntimeError("the table is neither over nor waiting for you")
            self.play_turn()
        raise RuntimeError("the hand did not end within 200 turns")
