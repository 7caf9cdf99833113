"""Shared offscreen app and a driver that plays through the real input path (for scene tests).

The driver decides like the engine's simple player but acts only by input: it projects a
card node to its screen point and "clicks" there through ``TableInput.press/release`` (the
handlers the mouse events call), presses keys through the messenger, and presses buttons.
"""

from __future__ import annotations

from collections import Counter

from panda3d.core import loadPrcFileData

loadPrcFileData("gin3d-tests", "window-type offscreen\naudio-library-name null\n"
                               "win-size 1280 720\nsync-video 0\nnotify-level-display error\n"
                               "notify-level-device fatal\n")

from gin3d.engine import (  # noqa: E402
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    Pass,
)
from gin3d.players import SimplePlayer  # noqa: E402

_APP = None


def get_app():
    """The one ShowBase of the test process (instant animations)."""
    global _APP
    if _APP is None:
        from gin3d.app import GinApp, Settings

        _APP = GinApp(Settings(speed=0.0, sound=False), seed=0)
    return _APP


def check_scene(app) -> None:
    """Assert the table shows exactly the engine's state (counts and faces in each zone)."""
    scene = app.scene
    hand = app.session.game.hand
    z = scene.zones()
    assert z["stock"] == len(hand.stock)
    assert all(face is None for face in z["stock_faces"]), "a stock card shows its face"
    assert z["pile"] == list(hand.pile), (z["pile"], hand.pile)
    laid = Counter(c for c, _ in hand.layoffs)
    for seat in (0, 1):
        shown = z[f"hand{seat}"] + [c for g in z[f"spread{seat}"] for c in g]
        if seat == hand.knocker:
            shown = [c for c in shown if not laid[c]]
        known = [c for c in shown if c is not None]
        assert len(shown) == len(hand.hands[seat]), (seat, shown, hand.hands[seat])
        assert Counter(known) <= Counter(hand.hands[seat]), (seat, known, hand.hands[seat])
    assert None not in z["hand0"], "the local hand shows a hidden card"
    assert sorted(z["hand0"]) == sorted(c for c in hand.hands[0]
                                        if c not in {x for g in z["spread0"] for x in g}
                                        and not (hand.knocker == 0 and laid[c]))
    assert [sorted(m) for m in z["table_melds"]] == [sorted(m) for m in hand.table_melds]
    # hidden cards of the opponent stay hidden until shown: faces only for pile-taken cards
    if hand.knocker is None:
        faces = [c for c in z["hand1"] if c is not None]
        assert Counter(faces) <= Counter(hand.seen_taken[1]), (faces, hand.seen_taken[1])
    for node in scene.cards:
        parent = node.np.getParent().getName()
        assert parent == {"stock": "anchor-stock", "pile": "anchor-pile",
                          "hand0": "anchor-hand", "hand1": "anchor-opponent",
                          "spread0": "anchor-melds-0", "spread1": "anchor-melds-1"}[node.zone]


class Driver:
    """Plays seat 0 through clicks and keys, deciding like SimplePlayer."""

    def __init__(self, app) -> None:
        self.app = app
        self.brain = SimplePlayer()
        self.seen: Counter = Counter()
        self.checks = 0

    @property
    def session(self):
        return self.app.session

    def click_node_point(self, point) -> None:
        assert point is not None, "the card is not visible on screen"
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
        assert not b.isHidden(), f"the {name} button is not shown"
        b["command"]()
        self.app.taskMgr.step()

    def play_turn(self) -> None:
        """One local decision, acted out through the input path."""
        ctl = self.session.controller
        view = ctl.view(0)
        action = self.brain.choose(view)
        before = len(ctl.game.actions)
        inp = self.session.input
        if isinstance(action, DrawStock):
            self.click_node_point(inp.stock_point())
        elif isinstance(action, DrawDiscard):
            self.click_node_point(inp.pile_point())
        elif isinstance(action, Pass):
            self.key("p")
        elif isinstance(action, Discard):
            self.click_card(action.card)
            assert inp.selected == action.card
            self.click_node_point(inp.pile_point())
        elif isinstance(action, Knock):
            gin = "gin" in inp.buttons
            if gin:
                self.button("gin")
            else:
                self.button("knock")
                if inp.knock_mode:
                    self.click_card(action.card)
        elif isinstance(action, BigGin):
            self.key("g")
        elif isinstance(action, LayOff):
            self.click_card(action.card)
            if ctl.game.actions[before:] == []:  # the card fits two melds: pick the meld
                meld = self.app.scene.table_melds[action.meld]
                self.click_node_point(inp.picker.visible_point(meld[0]))
        elif isinstance(action, FinishLayoff):
            self.button("done")
        mine = ctl.game.actions[before:]
        assert mine, (f"input for {action} did nothing (prompt: {inp.prompt!r}, legal now: "
                      f"{ctl.legal()}, selected {inp.selected}, state {self.app.screens.state})")
        self.seen[type(mine[0]).__name__] += 1

    def play_hand(self) -> None:
        """Play until the hand is over (the computer moves in between, instantly)."""
        ctl = self.session.controller
        for _ in range(200):
            if ctl.game.hand.over:
                return
            assert ctl.waiting_for_human(), "the table is neither over nor waiting for you"
            self.play_turn()
        raise AssertionError("hand did not end")
