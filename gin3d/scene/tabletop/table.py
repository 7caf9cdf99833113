"""The table scene: card nodes in zones, and every engine event turned into an animation.

The scene only ever learns what the local seat (seat 0) may see: events arrive redacted, so
an opponent card's face is set when it is shown (discarded, laid out), never before.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from direct.interval.IntervalGlobal import (
    Func,
    LerpColorScaleInterval,
    LerpPosInterval,
    LerpPosQuatScaleInterval,
    LerpScaleInterval,
    Parallel,
    Sequence,
    Wait,
)
from panda3d.core import CardMaker, NodePath, TextNode, TransparencyAttrib

from ...engine import (
    Card,
    CardDealt,
    CardDrawn,
    Discarded,
    HandRevealed,
    HandScored,
    HandStarted,
    Knocked,
    LaidOff,
    UpcardTurned,
    best_melds,
    deadwood,
)
from ..media.quality import choose_detail, choose_filtering
from ..ui.celebration import burst
from ..ui.palette import BANNER_CARD, dress_banner
from . import layout
from .animation import AnimationQueue
from .cards import Atlas, CardFactory, CardNode, ZonePad
from .room import DARKEST, Room
from .spread_label import SpreadLabel
from .stack import StackBody
from .tablemodel import build_lights, build_table, dye_felt

TURN_MARK_Y = (-15.5, 19.5)  # on the felt in front of each seat's hand (seat 0 near, 1 far)
TURN_MARK = (1.0, 0.8, 0.3, 0.7)
# every meld tinted, neighbours alternating warm and cool so two melds side by side stay
# apart; deadwood stays plain white
MELD_TINTS = ((1.0, 0.88, 0.6, 1), (0.72, 0.86, 1.0, 1))
SORTS = ("melds", "rank", "suit", "custom")
UNDERCUT = (0.36, 0.07, 0.06, 1)
# a stock card under another shows only this edge (cm): the one above, at most 0.3 cm off
# (layout.stock_pose), covers the rest of it, which is then not shaded for nothing
STOCK_RING = 0.5


def card_sort_key(mode: str):
    if mode == "rank":
        return lambda c: (c.rank, c.suit)
    return lambda c: (c.suit, c.rank)


class TableScene:
    """Card nodes, zones and the animations that move cards between them."""

    def __init__(
        self,
        base,
        queue: AnimationQueue,
        sounds=None,
        back: str = "back_blue",
        style: str = "classic",
        detail: str = "auto",
        room: bool = True,
    ) -> None:
        """``room=False``: the table alone (a view framed on the felt sees no room)."""
        self.base = base
        self.detail = choose_detail(base, detail)
        self.filtering = choose_filtering(base, self.detail)
        self.queue = queue
        self.sounds = sounds
        self.root = base.render.attachNewNode("table-scene")
        base.setBackgroundColor(*DARKEST, 1)
        self.room_mesh = Room(self.root) if room else None
        self.room = self.room_mesh.np if self.room_mesh is not None else None
        self.table = build_table(base.loader, self.root, self.detail, self.filtering)
        self.felt = "green"  # the model's own cloth (``set_felt`` dyes it)
        self.lights = build_lights(base.render)
        self.factory = CardFactory(base.loader, back=back, style=style, filtering=self.filtering)
        self.anchor_stock = self._anchor("stock", layout.STOCK_POS, scale=layout.PILE_SCALE)
        self.anchor_pile = self._anchor("pile", layout.PILE_POS, scale=layout.PILE_SCALE)
        self.anchor_hand = self._anchor("hand", layout.HAND_POS, (0, layout.HAND_PITCH, 0))
        self.anchor_opp = self._anchor("opponent", layout.OPP_POS)
        self.anchor_melds = [
            self._anchor(f"melds-{s}", p, (0, layout.MELDS_PITCH, 0), layout.MELDS_SCALE[s])
            for s, p in enumerate(layout.MELDS_POS)
        ]
        self.deadwood_labels = [SpreadLabel(a) for a in self.anchor_melds]
        self.pads = {
            z: ZonePad(a, z) for z, a in (("pile", self.anchor_pile), ("stock", self.anchor_stock))
        }
        self.cards = [self.factory.make(self.anchor_stock, i) for i in range(52)]
        self.stock: list[CardNode] = []
        self.pile: list[CardNode] = []
        self.hands: list[list[CardNode]] = [[], []]
        self.table_melds: list[list[CardNode]] = []  # the knocker's melds (layoffs join them)
        self.knocker: int | None = None
        self.spreads: list[list[list[CardNode]]] = [[], []]  # per seat: melds then deadwood
        self.spread_has_deadwood = [False, False]
        self.knock_card: CardNode | None = None
        self.sort_mode = "melds"
        self.custom_order: list[Card] = []
        self.hand_groups: list[list[CardNode]] = []
        self.dealing = False
        self.listeners: list[Callable[[object], None]] = []
        for i, node in enumerate(self.cards):
            self.stock.append(node)
            node.zone = "stock"
            pos, hpr = layout.stock_pose(i)
            node.np.setPosHpr(pos, hpr)
        tex = self.factory.atlas.texture
        self.stacks = [
            (
                StackBody(self.anchor_stock, layout.stock_pose, tex, inset=STOCK_RING),
                lambda: self.stock,
            ),
            (StackBody(self.anchor_pile, layout.pile_pose, tex), lambda: self.pile),
        ]
        self._stack_task = base.taskMgr.add(self._sync_stacks, "table-stacks", sort=45)
        # after the camera moved (the menu's drift, the tutorial's close-ups), before drawing
        self._room_task = base.taskMgr.add(self._fit_room, "table-room", sort=46)
        self.aside = -1  # the stock and the pile go left after a knock (``frame_spreads``)
        self.turn_marks = [self._turn_mark(seat) for seat in (0, 1)]
        self.turn: int | None = None
        self.place_camera()

    def frame_spreads(self, shift: float = 0.0, scale: float = 1.0, aside: int = -1) -> None:
        """Move both spread rows ``shift`` cm to the right and scale them by ``scale`` (the
        tutorial makes room for its narration panel on the left), and say which side of the
        table the stock and the pile are pushed to after a knock (``aside``: -1 left, 1
        right, where a partnership game's inset takes the left); no arguments: back to the
        table's own place and size, the stacks pushed left."""
        self.aside = aside
        for seat, anchor in enumerate(self.anchor_melds):
            x, y, z = layout.MELDS_POS[seat]
            anchor.setPos(x + shift, y, z)
            anchor.setScale(layout.MELDS_SCALE[seat] * scale)

    def _sync_stacks(self, task=None):
        """Each frame (after the intervals moved things): the resting lower parts of the stock
        and the pile are drawn as one mesh each (see ``stack.StackBody``)."""
        if task is not None and not self._drawing():
            return task.cont
        for body, cards in self.stacks:
            body.sync(cards())
        return task.cont if task is not None else None

    def _drawing(self) -> bool:
        """Whether this frame is drawn: a still window skips its frames (see
        ``window/frame_rate.py``), and what only readies a frame can skip them too."""
        return self.base.win.isActive()

    def _fit_room(self, task=None):
        """Each frame: the room draws only what the table does not hide from the camera."""
        if task is not None and not self._drawing():
            return task.cont
        if self.room_mesh is not None:
            self.room_mesh.follow(self.base.camera)
        return task.cont if task is not None else None

    def set_back(self, back: str) -> bool:
        """Another back on every card now (Settings: Card back). Returns whether it changed."""
        if not self.factory.set_back(back):
            return False
        for body, _cards in self.stacks:
            body.redraw()  # their copies of the cards show the old back
        return True

    def set_felt(self, felt: str) -> bool:
        """Another cloth on the table now (Settings: Felt). Returns whether it changed; a
        missing picture is said in the log and the table keeps its cloth."""
        if felt == self.felt:
            return False
        try:
            dye_felt(self.base.loader, self.table, felt, self.filtering)
        except FileNotFoundError as err:
            print(f"gin3d: {err}: the table keeps its {self.felt} felt", flush=True)
            return False
        self.felt = felt
        return True

    def set_style(self, style: str) -> bool:
        """Show the cards in another style now (the Settings screen's Card style: no restart).
        Every style's atlas has the same layout, so only the texture changes; the suit
        pictures in text are cut again from the new aces. Returns whether it changed."""
        if style == self.factory.style:
            return False
        atlas = Atlas.load(self.base.loader, style, self.filtering)
        self.factory.atlas = atlas
        self.factory.style = style
        for node in self.cards:
            node.np.setTexture(atlas.texture)
        for body, _cards in self.stacks:
            body.root.setTexture(atlas.texture)
        from ..ui.hud import register_suit_graphics

        register_suit_graphics(atlas)
        return True

    def _turn_mark(self, seat: int) -> NodePath:
        """A thin lit strip on the felt in front of a hand: shown while that seat is to move."""
        cm = CardMaker(f"turn-mark-{seat}")
        cm.setFrame(-7.5, 7.5, -0.22, 0.22)
        mark = self.root.attachNewNode(cm.generate())
        mark.setPos(0, TURN_MARK_Y[seat], 0.03)
        mark.setP(-90)
        mark.setColor(*TURN_MARK)
        mark.setLightOff(1)
        mark.setTextureOff(1)
        mark.setTransparency(TransparencyAttrib.MAlpha)
        mark.setDepthWrite(False)
        mark.hide()
        return mark

    def mark_turn(self, seat: int | None) -> None:
        """Light the strip by the hand of the seat to move (None: nobody, e.g. in menus)."""
        self.turn = seat if seat in (0, 1) else None
        for s, mark in enumerate(self.turn_marks):
            if s == self.turn:
                mark.show()
            else:
                mark.hide()

    def _anchor(self, name: str, pos, hpr=(0, 0, 0), scale: float = 1.0) -> NodePath:
        np = self.root.attachNewNode(f"anchor-{name}")
        np.setPos(*pos)
        np.setHpr(*hpr)
        np.setScale(scale)
        return np

    def place_camera(self) -> None:
        self.base.camera.setPos(*layout.CAMERA_POS)
        self.base.camera.lookAt(*layout.CAMERA_LOOK)
        self.base.camLens.setNearFar(1.0, 1000.0)
        self.fit_lens()
        self._fit_room()

    def fit_lens(self) -> None:
        """Keep the table framed for any window shape (wide: fixed height; narrower than
        16:9: the 16:9 width stays in view, and a little more when the window is so narrow
        that the widest hand would reach under the HUD's button column on the right)."""
        win = self.base.win
        if win is None:
            return
        w, h = max(1, win.getXSize()), max(1, win.getYSize())
        aspect = w / h
        wide = 16 / 9
        half_v = math.tan(math.radians(layout.CAMERA_VFOV / 2))
        if aspect < wide:  # narrower than 16:9: keep the 16:9 width in view
            half_h = half_v * wide
            room = 1.0 - layout.HUD_COLUMN / max(1.0, aspect)  # screen x where buttons start
            half_h *= max(1.0, layout.HAND_REACH / room)
            half_v = half_h / aspect
        self.base.camLens.setFov(
            math.degrees(2 * math.atan(half_v * aspect)), math.degrees(2 * math.atan(half_v))
        )

    # -- animation helpers --------------------------------------------------------------
    def s(self, t: float) -> float:
        return self.queue.seconds(t)

    def _move(
        self,
        node: CardNode,
        parent: NodePath,
        pos,
        hpr,
        t: float,
        arc: float = 0.0,
        delay: float = 0.0,
    ):
        """An interval moving ``node`` under ``parent`` to pos/hpr (optionally lifted in an arc
        on the way); with speed 0 it is a plain placement. Zones are drawn at different
        scales (the pile, the spread), so a card grows or shrinks to its new zone's size on
        the way."""
        dur = self.s(t)
        if dur <= 0:
            return Func(self._place, node, parent, pos, hpr)
        move = LerpPosQuatScaleInterval(
            node.np, dur, pos, hpr=hpr, scale=1.0, blendType="easeInOut"
        )
        parts = [Func(node.np.wrtReparentTo, parent)]
        if delay:
            parts.insert(0, Wait(self.s(delay)))
        if arc:
            lift = Sequence(
                LerpPosInterval(node.body, dur / 2, (0, 0, arc), blendType="easeOut"),
                LerpPosInterval(node.body, dur / 2, (0, 0, 0), blendType="easeIn"),
            )
            parts.append(Parallel(move, lift))
        else:
            parts.append(move)
        return Sequence(*parts)

    @staticmethod
    def _place(node: CardNode, parent: NodePath, pos, hpr) -> None:
        node.np.reparentTo(parent)
        node.np.setPosHprScale(pos, hpr, (1, 1, 1))
        node.body.setPos(0, 0, 0)

    def _sound(self, name: str):
        return Func(self.play_sound, name)

    def play_sound(self, name: str) -> None:
        if self.sounds is not None:
            self.sounds.play(name)

    # -- zones ----------------------------------------------------------------------------
    def node_for(self, seat: int, card: Card | None) -> CardNode:
        """The node in ``seat``'s hand showing ``card``; an unknown one gets that face."""
        hand = self.hands[seat]
        for node in hand:
            if card is not None and node.card == card:
                return node
        for node in hand:
            if node.card is None:
                if card is not None:
                    node.set_face(card)
                return node
        raise ValueError(f"{card} is not in seat {seat}'s hand on the table")

    def _take_from_hand(self, seat: int, card: Card | None, zone: str) -> CardNode:
        """``card``'s node out of ``seat``'s hand into ``zone``, untinted and not glowing
        (the caller puts it in that zone's list and moves it)."""
        node = self.node_for(seat, card)
        self.hands[seat].remove(node)
        node.np.clearColorScale()
        node.set_glow(False)
        node.zone = zone
        return node

    def hand_cards(self, seat: int = 0) -> list[Card]:
        return [n.card for n in self.hands[seat]]

    def order_hand(self) -> list[list[CardNode]]:
        """The local hand's display groups for the current sort mode (melds tinted)."""
        nodes = self.hands[0]
        known = [n for n in nodes if n.card is not None]
        arr = best_melds([n.card for n in known]) if len(known) <= 11 else None
        melds = sorted(arr.melds, key=lambda m: min(c.rank for c in m)) if arr else []
        meld_of = {c: i for i, meld in enumerate(melds) for c in meld}  # in the order shown
        by_card = {n.card: n for n in known}
        if self.sort_mode == "melds" and arr is not None:
            groups = [
                [by_card[c] for c in sorted(m, key=lambda c: (c.rank, c.suit))] for m in melds
            ]
            dead = sorted(arr.deadwood, key=lambda c: (c.rank, c.suit))
            if dead:
                groups.append([by_card[c] for c in dead])
        elif self.sort_mode == "custom":
            order = [c for c in self.custom_order if c in by_card]
            order += [c for c in by_card if c not in order]
            self.custom_order = order
            groups = [[by_card[c] for c in order]]
        else:
            groups = [[by_card[c] for c in sorted(by_card, key=card_sort_key(self.sort_mode))]]
        unknown = [n for n in nodes if n.card is None]
        if unknown:
            groups.append(unknown)
        for node in nodes:
            i = meld_of.get(node.card)
            if i is None:
                node.np.clearColorScale()
            else:
                node.np.setColorScale(*MELD_TINTS[i % len(MELD_TINTS)])
        self.hand_groups = groups
        return groups

    def hand_layout_interval(self, t: float = 0.25, lift: Card | None = None):
        """Slide the local hand into its arranged order."""
        groups = self.order_hand()
        flat = [n for g in groups for n in g]
        poses = layout.hand_poses([len(g) for g in groups])
        self.hands[0] = flat
        moves = []
        for node, (pos, hpr) in zip(flat, poses):
            if lift is not None and node.card == lift:
                pos = (pos[0], pos[1] + 1.2, pos[2])
            moves.append(self._move(node, self.anchor_hand, pos, hpr, t))
        return Parallel(*moves)

    def relayout_hand(self, t: float = 0.25, lift: Card | None = None) -> None:
        """Re-arrange the local hand now (used for sorting, selection and after changes)."""
        ival = self.hand_layout_interval(t, lift)
        if self.queue.speed <= 0 or t <= 0:
            ival.finish()
        else:
            ival.start()

    def opp_layout_interval(self, t: float = 0.25):
        poses = layout.opponent_poses(len(self.hands[1]))
        return Parallel(
            *[self._move(n, self.anchor_opp, p, h, t) for n, (p, h) in zip(self.hands[1], poses)]
        )

    def stock_top_pose(self):
        return layout.stock_pose(len(self.stock))

    # -- events -------------------------------------------------------------------------
    def show_event(self, event) -> None:
        """Queue the animation for one (redacted) event."""
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)
        for fn in self.listeners:
            self.queue.call(lambda fn=fn, e=event: fn(e))

    def _on_HandStarted(self, e: HandStarted) -> None:
        self.queue.add(self._gather)
        self.queue.add(self._shuffle)

    def _gather(self):
        """Every card back to one face-down deck; zones emptied."""
        for n in self.cards:
            n.set_glow(False)
            n.np.clearColorScale()
        for body, _cards in self.stacks:
            body.forget()
        self.stock = list(self.cards)
        self.pile, self.hands, self.table_melds = [], [[], []], []
        self.spreads = [[], []]
        self.spread_has_deadwood = [False, False]
        for label in self.deadwood_labels:
            label.hide()
        self.knock_card = None
        self.knocker = None
        self.dealing = True
        moves = [self._stacks_aside(False, 0.45)]  # back to their place in play
        for i, n in enumerate(self.stock):
            n.zone = "stock"
            pos, hpr = layout.deck_pose(i)
            moves.append(self._move(n, self.anchor_stock, pos, hpr, 0.45))
        return Sequence(Parallel(*moves), Func(self._forget_faces))

    def _stacks_aside(self, aside: bool, t: float):
        """The stock and the pile pushed aside for the knock's spreads (``aside``), or back
        to their place and size in play."""
        scale = layout.ASIDE_SCALE if aside else layout.PILE_SCALE
        side = -self.aside  # the places aside are the left's: mirrored for the right
        stock, pile = (layout.aside(p, side) for p in (layout.STOCK_ASIDE, layout.PILE_ASIDE))
        places = (
            (self.anchor_stock, stock if aside else layout.STOCK_POS),
            (self.anchor_pile, pile if aside else layout.PILE_POS),
        )
        return Parallel(
            *(
                Parallel(LerpPosInterval(a, self.s(t), pos), LerpScaleInterval(a, self.s(t), scale))
                for a, pos in places
            )
        )

    def clear_table(self) -> None:
        """Gather every card back into one face-down deck, nothing glowing: the table behind
        the menus is an empty one, not the last game's cards (they stayed, the pile lit)."""
        if len(self.stock) == len(self.cards) and not any(n.glowing for n in self.cards):
            return
        self.queue.add(self._gather)
        self.queue.call(lambda: setattr(self, "dealing", False))

    def _forget_faces(self) -> None:
        for n in self.cards:
            n.set_face(None)

    def _shuffle(self):
        if self.queue.speed <= 0:
            return None
        half = self.stock[len(self.stock) // 2 :]
        ivals = []
        for _k in range(2):
            out = Parallel(
                *[LerpPosInterval(n.np, self.s(0.16), n.np.getPos() + (7.2, 0, 0)) for n in half]
            )
            back = Parallel(*[LerpPosInterval(n.np, self.s(0.16), n.np.getPos()) for n in half])
            ivals += [out, back]
        return Sequence(self._sound("shuffle"), *ivals)

    def _on_CardDealt(self, e: CardDealt) -> None:
        def deal():
            node = self.stock.pop()
            seat = e.seat
            self.hands[seat].append(node)
            node.zone = f"hand{seat}"
            if seat == 0:
                node.set_face(e.card)
                idx = len(self.hands[0]) - 1
                pos, hpr = layout.hand_poses([10])[min(idx, 9)]
                return Sequence(
                    self._sound("deal"), self._move(node, self.anchor_hand, pos, hpr, 0.2)
                )
            idx = len(self.hands[1]) - 1
            pos, hpr = layout.opponent_poses(10)[min(idx, 9)]
            return Sequence(self._sound("deal"), self._move(node, self.anchor_opp, pos, hpr, 0.2))

        self.queue.add(deal)
        if e.index >= 19:  # the last cards: arrange both hands (no-upcard deals 21)
            self.queue.add(
                lambda: Parallel(self.hand_layout_interval(0.3), self.opp_layout_interval(0.2))
            )

    def _on_UpcardTurned(self, e: UpcardTurned) -> None:
        def turn():
            node = self.stock.pop()
            node.set_face(e.card)
            node.zone = "pile"
            self.pile.append(node)
            self.dealing = False
            pos, hpr = layout.pile_pose(0)
            return Sequence(
                self._sound("flip"),
                self._move(node, self.anchor_pile, pos, hpr, 0.35),
                self.hand_layout_interval(0.3),
                self.opp_layout_interval(0.2),
            )

        self.queue.add(turn)

    def _on_CardDrawn(self, e: CardDrawn) -> None:
        def draw():
            node = self.stock.pop() if e.source == "stock" else self.pile.pop()
            seat = e.seat
            self.hands[seat].append(node)
            node.zone = f"hand{seat}"
            if seat == 0:
                node.set_face(e.card)
                sound = "draw" if e.source == "stock" else "place"
                return Sequence(self._sound(sound), self.hand_layout_interval(0.35))
            if e.source == "stock":
                node.set_face(None)
            return Sequence(self._sound("draw"), self.opp_layout_interval(0.35))

        self.queue.add(draw)

    def _on_Discarded(self, e: Discarded) -> None:
        def discard():
            node = self._take_from_hand(e.seat, e.card, "pile")
            self.pile.append(node)
            pos, hpr = layout.pile_pose(len(self.pile) - 1)
            rest = self.hand_layout_interval(0.25) if e.seat == 0 else self.opp_layout_interval()
            fly = self._move(node, self.anchor_pile, pos, hpr, 0.4, arc=5.0)
            return Sequence(Parallel(fly, rest), self._sound("place"))

        self.queue.add(discard)

    def _on_Knocked(self, e: Knocked) -> None:
        def knock():
            self.knocker = e.seat
            parts = []
            if e.card is not None:
                node = self._take_from_hand(e.seat, e.card, "pile")
                self.pile.append(node)
                self.knock_card = node
                pos, hpr = layout.pile_pose(len(self.pile) - 1, face_up=False)
                parts.append(self._move(node, self.anchor_pile, pos, hpr, 0.45, arc=3.0))
                parts.append(self._sound("knock"))
            parts.append(self._stacks_aside(True, 0.35))
            groups = [list(m) for m in e.melds] + ([list(e.deadwood)] if e.deadwood else [])
            spread = self._take_for_spread(e.seat, groups)
            self.table_melds = spread[: len(e.melds)]
            self.spreads[e.seat] = spread
            self.spread_has_deadwood[e.seat] = bool(e.deadwood)
            parts.append(Wait(self.s(0.2)))
            parts.append(self._spread_interval(e.seat))
            if e.kind in ("gin", "big_gin"):
                parts.append(self._sound("gin"))
                word = Parallel(
                    self.banner(
                        "Big Gin!" if e.kind == "big_gin" else "Gin!",
                        (1.0, 0.85, 0.3, 1),
                        1.6,
                        0.24,
                    ),
                    self.celebrate(e.kind, 1.6),
                )
            else:
                word = self.banner("Knock!", (1, 0.96, 0.85, 1), 1.2)
            return Parallel(Sequence(*parts), word)

        self.queue.add(knock)

    def _take_for_spread(self, seat: int, groups: list[list[Card]]) -> list[list[CardNode]]:
        return [[self._take_from_hand(seat, c, f"spread{seat}") for c in g] for g in groups]

    def _tint_spread(self, seat: int) -> None:
        """Each meld of a spread in its tint (alternating), the deadwood plain."""
        groups = self.spreads[seat]
        n_melds = len(groups) - (1 if self.spread_has_deadwood[seat] else 0)
        for i, group in enumerate(groups):
            for node in group:
                if i < n_melds:
                    node.np.setColorScale(*MELD_TINTS[i % len(MELD_TINTS)])
                else:
                    node.np.clearColorScale()

    def _spread_interval(self, seat: int, t: float = 0.45):
        self._tint_spread(seat)
        groups = self.spreads[seat]
        poses = layout.spread_poses([len(g) for g in groups], seat, self.spread_has_deadwood[seat])
        flat = [n for g in groups for n in g]
        moves = [
            self._move(n, self.anchor_melds[seat], p, h, t, delay=0.04 * i)
            for i, (n, (p, h)) in enumerate(zip(flat, poses))
        ]
        rest = self.hand_layout_interval(0.3) if seat == 0 else self.opp_layout_interval(0.3)
        label = Func(self._label_deadwood, seat, poses[-1][0][0] if poses else 0.0)
        return Sequence(Parallel(Parallel(*moves), rest), label)

    def _label_deadwood(self, seat: int, last_x: float) -> None:
        """ "Deadwood 6" beside a spread's deadwood (the engine's count); none without any."""
        label = self.deadwood_labels[seat]
        if not self.spread_has_deadwood[seat] or not self.spreads[seat]:
            label.hide()
            return
        label.show(f"Deadwood {deadwood([n.card for n in self.spreads[seat][-1]])}", last_x)

    def _on_LaidOff(self, e: LaidOff) -> None:
        def lay():
            node = self._take_from_hand(e.seat, e.card, f"spread{self.knocker}")
            meld = self.table_melds[e.meld]
            meld.append(node)
            meld.sort(key=lambda n: (n.card.rank, n.card.suit))
            # the hand the card left closes up too (the spread re-lays the knocker's only)
            rest = self.hand_layout_interval(0.3) if e.seat == 0 else self.opp_layout_interval(0.3)
            return Sequence(
                self._sound("place"), Parallel(self._spread_interval(self.knocker, 0.4), rest)
            )

        self.queue.add(lay)

    def _on_HandRevealed(self, e: HandRevealed) -> None:
        def reveal():
            groups = [list(m) for m in e.melds] + ([list(e.deadwood)] if e.deadwood else [])
            self.spreads[e.seat] = self._take_for_spread(e.seat, groups)
            self.spread_has_deadwood[e.seat] = bool(e.deadwood)
            return Sequence(self._sound("flip"), self._spread_interval(e.seat))

        self.queue.add(reveal)

    def _on_HandScored(self, e: HandScored) -> None:
        if e.result.kind == "undercut":
            self.queue.add(
                lambda: Parallel(
                    self.banner("Undercut!", (1, 0.9, 0.75, 1), 1.4, 0.2, UNDERCUT),
                    self.celebrate("undercut", 1.4),
                    self._sound("gin"),
                )
            )

    def celebrate(self, kind: str, t: float = 1.5):
        """The flourish over a gin, Big Gin or undercut banner (``celebration.burst``)."""
        if self.queue.speed <= 0:
            return Sequence()
        return burst(self.base.aspect2d, self.factory.atlas, kind, self.s(t))

    def banner(self, text: str, colour, t: float = 1.0, scale: float = 0.2, card=BANNER_CARD):
        """A word that pops up over the table and fades (Gin!, Knock!, Undercut!); play it in
        parallel. Solid: opaque text on an opaque dark card with a gold edge, so it reads over
        the felt and the cards flying beneath it, until it fades at the end."""
        if self.queue.speed <= 0:
            return Sequence()
        node = TextNode("banner")
        node.setText(text)
        node.setAlign(TextNode.ACenter)
        node.setTextColor(*colour)
        dress_banner(node, card)
        label = self.base.aspect2d.attachNewNode(node)
        label.setPos(0, 0, 0.25)
        label.setTransparency(TransparencyAttrib.MAlpha)
        label.hide()
        dur = self.s(t)
        pop = Sequence(
            Func(label.show),
            LerpScaleInterval(
                label, dur * 0.25, scale, startScale=scale * 0.3, blendType="easeOut"
            ),
            Wait(dur * 0.5),
            LerpColorScaleInterval(label, dur * 0.25, (1, 1, 1, 0)),
            Func(label.removeNode),
        )
        return pop

    # -- what the scene shows (for tests and the HUD) ------------------------------------
    def zones(self) -> dict:
        """Every zone's contents as the scene graph holds them."""
        return {
            "stock": len(self.stock),
            "stock_faces": [n.card for n in self.stock],
            "pile": [n.card for n in self.pile],
            "hand0": [n.card for n in self.hands[0]],
            "hand1": [n.card for n in self.hands[1]],
            "table_melds": [[n.card for n in m] for m in self.table_melds],
            "spread0": [[n.card for n in g] for g in self.spreads[0]],
            "spread1": [[n.card for n in g] for g in self.spreads[1]],
            "parents": {n.slot: n.np.getParent().getName() for n in self.cards},
        }

    def set_sort(self, mode: str) -> None:
        if mode not in SORTS:
            raise ValueError(f"unknown sort {mode!r} (choose from {', '.join(SORTS)})")
        self.sort_mode = mode
        if mode == "custom":
            self.custom_order = [n.card for n in self.hands[0]]
        self.relayout_hand()

    def move_in_hand(self, card: Card, index: int) -> None:
        """Free reordering: put ``card`` at position ``index`` of the local hand."""
        order = [n.card for n in self.hands[0] if n.card is not None]
        if card not in order:
            raise ValueError(f"{card} is not in your hand")
        order.remove(card)
        order.insert(max(0, min(index, len(order))), card)
        self.sort_mode = "custom"
        self.custom_order = order
        self.relayout_hand()

    def destroy(self) -> None:
        self.queue.clear()
        self.base.taskMgr.remove(self._stack_task)
        self.base.taskMgr.remove(self._room_task)
        for body, _cards in self.stacks:
            body.destroy()
        # the task and the stacks' lambdas point back at the scene: without them it is
        # freed at once (a second table, a team game's inset, goes with its game)
        self._stack_task, self._room_task, self.stacks = None, None, []
        for np in self.lights:
            self.base.render.clearLight(np)
            np.removeNode()
        self.root.removeNode()
