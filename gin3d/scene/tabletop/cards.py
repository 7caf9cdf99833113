"""Card nodes: a thin two-sided card textured from the card atlas, with a pick solid and a glow.

A ``CardNode`` is one physical card on the table. Its face may be unknown to this seat
(``card is None``: the opponent's hidden cards and the stock); the face is set when the card
is seen. Card geometry lies in the XY plane (width X, height Y), face up towards +Z.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
from panda3d.core import (
    BitMask32,
    CollisionNode,
    CollisionPolygon,
    CullBinEnums,
    CullBinManager,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexRewriter,
    GeomVertexWriter,
    NodePath,
    Point3,
    SamplerState,
    Texture,
    TransparencyAttrib,
)

from ...engine import CARDS, Card
from ..media import preload
from ..media.assets import asset_path, panda_filename
from ..media.quality import SHARP, Filtering, apply_filtering, private_texture

CARD_W = 6.4
CARD_H = 8.96
THICK = 0.025
PICK_MASK = BitMask32.bit(4)
CARD_BIN = "cards"  # opaque cards drawn nearest first, so hidden pixels are never shaded
if not CullBinManager.getGlobalPtr().findBin(CARD_BIN) >= 0:
    CullBinManager.getGlobalPtr().addBin(CARD_BIN, CullBinEnums.BT_front_to_back, 25)
CORNER = 0.045  # fraction of the width cut by the rounded-corner approximation


def _outline(scale: float = 1.0) -> list[tuple[float, float]]:
    """The card's outline: an octagon with cut corners, centred on the origin."""
    w, h = CARD_W * scale / 2, CARD_H * scale / 2
    c = CARD_W * scale * CORNER
    return [
        (-w + c, -h),
        (w - c, -h),
        (w, -h + c),
        (w, h - c),
        (w - c, h),
        (-w + c, h),
        (-w, h - c),
        (-w, -h + c),
    ]


def _add_side(
    writers,
    tris: GeomTriangles,
    first: int,
    uv: tuple[float, float, float, float],
    up: bool,
    scale: float,
    colour: tuple[float, float, float, float] | None,
) -> int:
    """Write one side of a card (facing +Z when ``up`` else -Z) from vertex ``first`` on;
    returns the next free vertex index."""
    vw, nw, tw, cw = writers
    outline = _outline(scale)
    w, h = CARD_W * scale / 2, CARD_H * scale / 2
    u0, v0, u1, v1 = uv
    z = THICK / 2 if up else -THICK / 2
    for x, y in outline:
        fx = (x + w) / (2 * w)
        if not up:
            fx = 1 - fx  # the back is seen mirrored
        vw.addData3(x, y, z)
        nw.addData3(0, 0, 1 if up else -1)
        tw.addData2(u0 + fx * (u1 - u0), v0 + (y + h) / (2 * h) * (v1 - v0))
        if cw:
            cw.addData4(*colour)
    for i in range(1, 7):
        if up:
            tris.addVertices(first, first + i, first + i + 1)
        else:
            tris.addVertices(first, first + i + 1, first + i)
    return first + len(outline)


def _mesh(
    name: str,
    sides: list[tuple[tuple[float, float, float, float], bool]],
    scale: float = 1.0,
    colour: tuple[float, float, float, float] | None = None,
) -> GeomNode:
    """One Geom holding the given card sides ((uv, up) each): one draw call for all of them,
    which matters on software renderers, where every draw call has a fixed cost."""
    fmt = GeomVertexFormat.getV3n3cpt2() if colour else GeomVertexFormat.getV3n3t2()
    vdata = GeomVertexData(name, fmt, Geom.UHStatic)
    writers = (
        *(GeomVertexWriter(vdata, n) for n in ("vertex", "normal", "texcoord")),
        GeomVertexWriter(vdata, "color") if colour else None,
    )
    tris = GeomTriangles(Geom.UHStatic)
    first = 0
    for uv, up in sides:
        first = _add_side(writers, tris, first, uv, up, scale, colour)
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode(name)
    node.addGeom(geom)
    return node


def _quad(
    name: str,
    uv: tuple[float, float, float, float],
    up: bool,
    scale: float = 1.0,
    colour: tuple[float, float, float, float] | None = None,
) -> GeomNode:
    """A card-shaped octagon (cut corners) with atlas UVs; faces +Z when ``up`` else -Z."""
    return _mesh(name, [(uv, up)], scale, colour)


@dataclass
class Atlas:
    """The card atlas texture and each card's UV rectangle (u0, v0, u1, v1)."""

    texture: Texture
    cards: dict[str, tuple[float, float, float, float]]
    backs: dict[str, tuple[float, float, float, float]]

    @classmethod
    def load(cls, loader, style: str = "classic", filtering: Filtering = SHARP) -> Atlas:
        meta_path = asset_path("textures", "cards_atlas.json")
        image = asset_path("textures", f"cards_{style}.png")
        if not meta_path.exists() or not image.exists():
            raise FileNotFoundError(f"card atlas missing: {meta_path.name} / {image.name}")
        meta = json.loads(meta_path.read_text())
        tex = preload.take(style) or private_texture(loader.loadTexture(panda_filename(image)))
        apply_filtering(tex, filtering)  # nearest-mip on software renderers: still crisp
        tex.setWrapU(SamplerState.WM_clamp)
        tex.setWrapV(SamplerState.WM_clamp)
        return cls(
            tex,
            {k: tuple(v) for k, v in meta["cards"].items()},
            {k: tuple(v) for k, v in meta["backs"].items()},
            str(image),
        )

    image_path: str = ""

    def suit_icon_uv(self, suit: int) -> tuple[float, float, float, float]:
        """The middle pip of the suit's three, for suit symbols in text: a plain pip. (The
        ace's was used, but the ace of spades' pip is the ornate one, with a light inner
        outline, and at text size it blurred into a blob much like the club.) The cut is
        64x64 atlas pixels: a 63x53 one made Panda3D's text layout fail (a NaN transform)
        after a window resize."""
        u0, v0, u1, v1 = self.cards["3" + "SHDC"[suit]]
        du, dv = (u1 - u0), (v1 - v0)
        return (u0 + du * 0.3667, v0 + dv * 0.4048, u0 + du * 0.6333, v0 + dv * 0.5952)

    def suit_icons(self, on_card: bool = False) -> list[Texture]:
        """One small texture per suit (S H D C) cut from the aces: the pip on a transparent
        ground in its own colour at full brightness, lifted a little towards white (red, or
        the four-colour deck's blue and green), black pips drawn light: each reads on dark
        panels. (Red used to be picked out by red minus green, which left blue invisible.)
        ``on_card``: instead, the pip as the card prints it (black spades and clubs, the
        deck's own reds, blues and greens) on a small rounded tile of the card's white, so
        it reads in its true colour on dark panels and light buttons alike."""
        w, h = self.texture.getXSize(), self.texture.getYSize()
        ram = self.texture.getRamImageAs("RGBA")
        if not ram:
            raise RuntimeError("the card atlas has no RAM image to cut suit icons from")
        rgba = np.frombuffer(memoryview(ram), np.uint8).reshape(h, w, 4)  # row 0 = bottom
        out = []
        for suit in range(4):
            u0, v0, u1, v1 = self.suit_icon_uv(suit)
            part = rgba[int(v0 * h) : int(v1 * h), int(u0 * w) : int(u1 * w), :3] / 255.0
            if on_card:
                out.append(_tile(rgba[int(v0 * h) : int(v1 * h), int(u0 * w) : int(u1 * w)]))
                continue
            ink = 1.0 - part.min(axis=2)  # the card's white ground is 0, any pip colour ~1
            solid = ink > 0.6
            pip = part[solid].mean(axis=0) if solid.any() else np.zeros(3)
            if pip.max() < 0.35:  # a black pip
                colour = (0.97, 0.97, 0.95)
            else:
                bright = pip / pip.max()
                colour = tuple(bright + (1.0 - bright) * 0.3)
            icon = np.empty(part.shape[:2] + (4,), np.uint8)
            for i, c in enumerate(colour):
                icon[..., i] = int(c * 255)
            # the card's ground (off-white, ink up to ~0.1) stays clear: no faint box
            icon[..., 3] = np.clip((ink - 0.12) * 1.6 * 255, 0, 255).astype(np.uint8)
            tex = Texture(f"suit-{suit}")
            tex.setup2dTexture(
                icon.shape[1], icon.shape[0], Texture.T_unsigned_byte, Texture.F_rgba8
            )
            tex.setRamImageAs(np.ascontiguousarray(icon).tobytes(), "RGBA")
            tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
            out.append(tex)
        return out


def _tile(part: np.ndarray) -> Texture:
    """A piece of a card face as a small texture with rounded corners and a grey rim."""
    n_y, n_x = part.shape[:2]
    yy, xx = np.mgrid[0:n_y, 0:n_x] + 0.5
    r = min(n_x, n_y) * 0.22
    qx = np.abs(xx - n_x / 2) - (n_x / 2 - r - 0.5)
    qy = np.abs(yy - n_y / 2) - (n_y / 2 - r - 0.5)
    d = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r
    icon = part.astype(float)
    rim = np.clip(1.5 - np.abs(d + 1.5), 0, 1)[..., None]  # a 3 px grey edge inside
    icon[..., :3] = icon[..., :3] * (1 - rim * 0.45)
    icon[..., 3] = np.clip(0.5 - d, 0, 1) * 255
    tex = Texture("suit-tile")
    tex.setup2dTexture(n_x, n_y, Texture.T_unsigned_byte, Texture.F_rgba8)
    tex.setRamImageAs(np.ascontiguousarray(icon.astype(np.uint8)).tobytes(), "RGBA")
    tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
    return tex


class CardFactory:
    """Makes card nodes sharing one geometry per face (instanced) and one atlas texture.
    Each face's geometry holds the front and the back together: one draw call a card."""

    def __init__(
        self,
        loader,
        back: str = "back_blue",
        style: str = "classic",
        filtering: Filtering = SHARP,
    ) -> None:
        self.atlas = Atlas.load(loader, style, filtering)
        self.style = style
        self.back_name = back
        self.fronts: dict[int | None, NodePath] = {}
        back_uv = self.atlas.backs[back]
        for c in CARDS:
            self.fronts[int(c)] = NodePath(
                _mesh(f"card-{c}", [(self.atlas.cards[str(c)], True), (back_uv, False)])
            )
        self.fronts[None] = NodePath(_mesh("card-unknown", [(back_uv, True), (back_uv, False)]))
        self.glow = NodePath(_quad("glow", (0, 0, 0, 0), True, 1.13, (1.0, 0.85, 0.25, 0.9)))
        self.glow.setTextureOff(1)
        self.glow.setLightOff(1)
        self.glow.setTransparency(TransparencyAttrib.MAlpha)
        self.glow.setDepthWrite(False)
        self.glow.setBin("fixed", 0)
        self.glow.setZ(-THICK)

    def make(self, parent: NodePath, slot: int) -> CardNode:
        return CardNode(self, parent, slot)

    def set_back(self, back: str) -> bool:
        """Show another back (the Settings screen's Card back) on every card now. The card
        nodes are instances of these meshes, so rewriting the texture coordinates of the
        meshes' back sides turns every card over to the new back at once, with no node made
        or lost. Returns whether it changed (``KeyError``: no such back in the atlas)."""
        if back == self.back_name:
            return False
        old, new = self.atlas.backs[self.back_name], self.atlas.backs[back]
        for front in self.fronts.values():
            _move_uvs(front.node(), old, new)
        self.back_name = back
        return True


def _move_uvs(node: GeomNode, old: tuple, new: tuple) -> None:
    """Move the texture coordinates of ``node`` that lie in the atlas rectangle ``old`` to the
    same places in ``new`` (a back's sides; a face's lie elsewhere in the atlas)."""
    ou0, ov0, ou1, ov1 = old
    nu0, nv0, nu1, nv1 = new
    eps = 1e-6
    for i in range(node.getNumGeoms()):
        vdata = node.modifyGeom(i).modifyVertexData()
        rw = GeomVertexRewriter(vdata, "texcoord")
        while not rw.isAtEnd():
            u, v = rw.getData2()
            if ou0 - eps <= u <= ou1 + eps and ov0 - eps <= v <= ov1 + eps:
                fu, fv = (u - ou0) / (ou1 - ou0), (v - ov0) / (ov1 - ov0)
                rw.setData2(nu0 + fu * (nu1 - nu0), nv0 + fv * (nv1 - nv0))
            else:
                rw.setData2(u, v)


class CardNode:
    """One physical card: a NodePath with its faces (front and back), glow and a pick
    polygon."""

    def __init__(self, factory: CardFactory, parent: NodePath, slot: int) -> None:
        self.factory = factory
        self.slot = slot
        self.np = parent.attachNewNode(f"card-{slot}")
        self.np.setBin(CARD_BIN, 0)
        self.np.setTexture(factory.atlas.texture)
        self.body = self.np.attachNewNode("body")  # lifted for arcs; the node carries the pose
        self.face_np = factory.fronts[None].instanceTo(self.body)
        self.glow_np = factory.glow.copyTo(self.body)  # own node: shown/tinted per card
        self.glow_np.hide()
        w, h = CARD_W / 2, CARD_H / 2
        solid = CollisionPolygon(
            Point3(-w, -h, 0), Point3(w, -h, 0), Point3(w, h, 0), Point3(-w, h, 0)
        )
        cnode = CollisionNode(f"pick-{slot}")
        cnode.addSolid(solid)
        cback = CollisionPolygon(
            Point3(-w, h, 0), Point3(w, h, 0), Point3(w, -h, 0), Point3(-w, -h, 0)
        )
        cnode.addSolid(cback)
        cnode.setIntoCollideMask(PICK_MASK)
        cnode.setFromCollideMask(BitMask32.allOff())
        self.pick_np = self.body.attachNewNode(cnode)
        self.pick_np.setPythonTag("card_node", self)
        self.card: Card | None = None
        self.zone = "deck"
        self.glowing = False

    def set_face(self, card: Card | None) -> None:
        """Show ``card`` on the front (None: the face is unknown to this seat: the back on
        both sides)."""
        if card is not None and self.card == card:
            return
        self.card = None if card is None else CARDS[int(card)]
        self.face_np.removeNode()
        self.face_np = self.factory.fronts[None if card is None else int(card)].instanceTo(
            self.body
        )

    def set_glow(self, on: bool, colour: tuple[float, float, float, float] | None = None) -> None:
        self.glowing = on
        if on:
            self.glow_np.show()
            if colour:
                self.glow_np.setColorScale(*colour)
            else:
                self.glow_np.clearColorScale()
        else:
            self.glow_np.hide()

    def __repr__(self) -> str:
        return f"CardNode({self.slot}, {self.card}, {self.zone})"


class ZonePad:
    """A flat, pickable spot on the felt (the pile's place, so an empty pile is a target)."""

    def __init__(self, parent: NodePath, zone: str) -> None:
        self.zone = zone
        self.card = None
        self.glowing = False
        self.np = parent.attachNewNode(f"pad-{zone}")
        # a shade of whatever felt lies under it (a green tint showed as a patch on the others)
        shape = NodePath(_quad(f"pad-{zone}", (0, 0, 0, 0), True, 1.08, (0.0, 0.0, 0.0, 0.4)))
        shape.reparentTo(self.np)
        shape.setTextureOff(1)
        shape.setLightOff(1)
        shape.setTransparency(TransparencyAttrib.MAlpha)
        shape.setDepthWrite(False)
        shape.setZ(0.01)
        self.body = self.np
        w, h = CARD_W / 2, CARD_H / 2
        cnode = CollisionNode(f"pick-pad-{zone}")
        cnode.addSolid(
            CollisionPolygon(Point3(-w, -h, 0), Point3(w, -h, 0), Point3(w, h, 0), Point3(-w, h, 0))
        )
        cnode.setIntoCollideMask(PICK_MASK)
        cnode.setFromCollideMask(BitMask32.allOff())
        pick = self.np.attachNewNode(cnode)
        pick.setPythonTag("card_node", self)

    def set_glow(self, on: bool, colour=None) -> None:
        self.glowing = on
