"""The resting lower part of a card stack (the stock, the pile) drawn as one mesh.

A software renderer pays a fixed cost for every draw call and for every covered pixel it
tests, and a stack of thirty cards is thirty draw calls of which only the top one or two
are really seen. ``StackBody`` hides the card nodes below the top ones while they lie still
in their places and draws a flattened copy of them instead: the same picture in one call.
The card nodes themselves stay where they are (zones, picking and tests see no difference);
the moment one of them moves, or the stack changes, the copy is rebuilt or dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from panda3d.core import (
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    NodePath,
    Point3,
    Texture,
)

from .cards import CARD_BIN, CardNode

Pose = tuple[tuple[float, float, float], tuple[float, float, float]]


class StackBody:
    """Keeps ``keep_top`` real cards on top of a stack and draws the rest as one mesh."""

    def __init__(
        self,
        anchor: NodePath,
        pose: Callable[[int], Pose],
        texture: Texture,
        keep_top: int = 2,
        cache_size: int = 64,
        inset: float = 0.0,
    ) -> None:
        """``inset`` (cm, 0: off): a card with another of the mesh's cards on it is drawn
        as a ring of that width round its edge; only for a stack so neat that the card
        above always covers the rest (the stock, whose cards lie within 0.3 cm of one
        another; not the pile, turned up to 16 degrees)."""
        if keep_top < 1:
            raise ValueError(f"keep_top must be at least 1, got {keep_top}")
        if inset < 0:
            raise ValueError(f"inset must be 0 or more, got {inset}")
        self.anchor = anchor
        self.pose = pose
        self.keep_top = keep_top
        self.cache_size = cache_size
        self.inset = inset
        self.root = anchor.attachNewNode("stack-body")
        self.root.setBin(CARD_BIN, 0)
        self.root.setTexture(texture)
        self.hidden: list[CardNode] = []
        self.key: tuple | None = None  # the cards the mesh shows now
        self.seen: tuple | None = None  # the stack as the last sync found it
        self.meshes: dict[tuple, NodePath] = {}
        self.rows: dict[tuple, tuple] = {}
        self.enabled = True

    def at_rest(self, node: CardNode, index: int) -> bool:
        """Whether ``node`` lies still in its place as card ``index`` of the stack."""
        if node.np.getParent() != self.anchor or node.glowing:
            return False
        if node.body.getPos() != Point3(0, 0, 0):
            return False
        return node.np.getPos().almostEqual(Point3(*self.pose(index)[0]), 1e-4)

    def sync(self, nodes: Sequence[CardNode]) -> None:
        """Match the stack as it is now: ``nodes`` from the bottom up. Runs every frame, so
        it first checks, cheaply, whether anything changed since the last call."""
        count = len(nodes) - self.keep_top if self.enabled else 0
        lower = list(nodes[: max(0, count)])
        seen = tuple(
            (n.slot, n.card, n.glowing, n.np.getTransform(), n.body.getTransform()) for n in lower
        )
        if seen == self.seen:
            return
        self.seen = seen
        for i, node in enumerate(lower):
            if not self.at_rest(node, i):
                lower = lower[:i]  # a moving card (and all above it) stays a card of its own
                break
        key = tuple((n.slot, n.card, n.np.getTransform()) for n in lower)
        if key == self.key:
            return
        for node in self.hidden:
            node.np.show()
        self.root.getChildren().detach()
        self.hidden = lower
        self.key = key
        if not lower:
            return
        mesh = self.meshes.get(key)
        if mesh is None:
            mesh = self._build(lower)
            if len(self.meshes) >= self.cache_size:
                self.meshes.pop(next(iter(self.meshes)))
            self.meshes[key] = mesh
        mesh.reparentTo(self.root)
        for node in lower:
            node.np.hide()

    def forget(self) -> None:
        """Drop the meshes and rows kept for this hand (a new deal never shows them again):
        without this the cache held every hand's meshes, and the renderer their vertex
        buffers, until it was full."""
        shown = self.meshes.get(self.key) if self.key is not None else None
        self.meshes = {self.key: shown} if shown is not None else {}
        self.rows.clear()

    def _card_rows(
        self, node: CardNode, ring: bool = False
    ) -> tuple[np.ndarray, np.ndarray, object]:
        """The vertex rows (moved to where the card lies) and triangles of one card's faces
        (``ring``: only their edge, ``inset`` wide), kept while the card lies there: a stock
        is rebuilt with one card fewer at every draw, from the same cards in the same
        places."""
        key = (node.slot, node.card, node.np.getTransform(), ring)
        found = self.rows.get(key)
        if found is not None:
            return found
        geom = node.face_np.node().getGeom(0)
        vdata = geom.getVertexData()
        rows = np.frombuffer(vdata.getArray(0).getHandle().getData(), np.float32)
        rows = rows.reshape(vdata.getNumRows(), -1).copy()  # x y z, nx ny nz, u v
        tris = np.frombuffer(
            geom.getPrimitive(0).getVertices().getHandle().getData(), np.uint16
        ).astype(np.uint32)
        if ring:
            rows, tris = ring_faces(rows, tris, self.inset)
        mat = np.array(node.np.getMat(), np.float32).reshape(4, 4)  # row vectors
        rows[:, 0:3] = rows[:, 0:3] @ mat[:3, :3] + mat[3, :3]
        rows[:, 3:6] = rows[:, 3:6] @ mat[:3, :3]
        if len(self.rows) >= 4 * 52:
            self.rows.clear()
        self.rows[key] = found = (rows, tris, vdata.getFormat())
        return found

    def _build(self, nodes: list[CardNode]) -> NodePath:
        """One mesh of the faces of ``nodes`` where they lie, the top card first (so that
        the cards beneath fail the depth test instead of being shaded). The vertices are
        moved with numpy: this runs while cards are dealt, and must not cost a frame."""
        vertices, indices = [], []
        first = 0
        fmt = None
        for i, node in reversed(list(enumerate(nodes))):
            # a card with one of the mesh's cards on it (those lie still) shows only its edge
            rows, tris, fmt = self._card_rows(node, ring=self.inset > 0 and i < len(nodes) - 1)
            vertices.append(rows)
            indices.append(tris + first)
            first += len(rows)
        vdata = GeomVertexData("stack", fmt, Geom.UHStatic)
        vdata.uncleanSetNumRows(first)
        vdata.modifyArray(0).modifyHandle().setData(np.concatenate(vertices).tobytes())
        tris = GeomTriangles(Geom.UHStatic)
        tris.setIndexType(Geom.NT_uint32)
        tris.modifyVertices().modifyHandle().setData(np.concatenate(indices).tobytes())
        geom = Geom(vdata)
        geom.addPrimitive(tris)
        node = GeomNode("stack-mesh")
        node.addGeom(geom)
        return NodePath(node)

    def release(self) -> None:
        """Show every hidden card again and draw no mesh (before moving the stack's cards)."""
        for node in self.hidden:
            node.np.show()
        self.hidden = []
        self.key = self.seen = None
        self.root.getChildren().detach()

    def redraw(self) -> None:
        """Drop every mesh and row kept: the cards' look changed (another back), and the
        copies show the old one. The next sync builds them anew."""
        self.release()
        self.meshes.clear()
        self.rows.clear()

    def destroy(self) -> None:
        self.redraw()
        self.root.removeNode()


OUTLINE = 8  # vertices a card side has (cards._add_side: an octagon drawn as a fan)


def ring_faces(rows: np.ndarray, tris: np.ndarray, inset: float) -> tuple[np.ndarray, np.ndarray]:
    """A card's sides (``rows`` x y z, nx ny nz, u v in the card's own frame; ``tris`` fans
    of ``OUTLINE`` vertices each) as rings: each outline and the same outline moved
    ``inset`` inwards on both axes, joined by quads. The texture coordinates of the inner
    outline follow the side's own (affine) mapping, so the ring shows the very pixels the
    whole side shows there."""
    sides = len(rows) // OUTLINE
    if len(rows) != sides * OUTLINE or len(tris) != sides * (OUTLINE - 2) * 3:
        raise ValueError(f"not {OUTLINE}-vertex card sides: {len(rows)} rows, {len(tris)}")
    out_rows, out_tris = [], []
    step = np.arange(OUTLINE)
    nxt = (step + 1) % OUTLINE
    for k in range(sides):
        outer = rows[k * OUTLINE : (k + 1) * OUTLINE]
        inner = outer.copy()
        inner[:, 0:2] -= inset * np.sign(outer[:, 0:2])
        xy1 = np.hstack([outer[:, 0:2], np.ones((OUTLINE, 1), np.float32)])
        uv_map = np.linalg.lstsq(xy1, outer[:, 6:8], rcond=None)[0]
        inner[:, 6:8] = np.hstack([inner[:, 0:2], np.ones((OUTLINE, 1))]) @ uv_map
        base = 2 * OUTLINE * k
        o, n = base + step, base + OUTLINE + step
        quads = np.stack([o, base + nxt, base + OUTLINE + nxt, n], axis=1)
        faces = quads[:, [0, 1, 2, 0, 2, 3]].reshape(-1, 3)
        first = tris[k * (OUTLINE - 2) * 3 : k * (OUTLINE - 2) * 3 + 3] - k * OUTLINE
        if first[1] != first[0] + 1:  # the side's fan is wound the other way: so is its ring
            faces = faces[:, [0, 2, 1]]
        out_rows += [outer, inner]
        out_tris.append(faces.reshape(-1))
    return np.concatenate(out_rows).astype(np.float32), np.concatenate(out_tris).astype(np.uint32)
