"""The room around the table: a dark plank floor with a rug and panelled walls, lit by one
warm lamp hanging over the felt.

Without it the table floated in a black void. It costs next to nothing on a software
renderer: no textures and no lights at draw time (the lamp's pool of light, the table's
shadow on the floor and the darkening towards the edges of the view are baked into vertex
colours), a few thousand triangles in one draw call, drawn before the felt in the background
bin without depth test or depth writes (the floor and walls lie below and beyond everything
else, so the painter's order floor, rug, walls is already right), and without the parts the
table hides.
"""

from __future__ import annotations

import numpy as np
from panda3d.core import (
    Geom,
    GeomEnums,
    GeomNode,
    GeomTriangles,
    GeomVertexArrayFormat,
    GeomVertexData,
    GeomVertexFormat,
    InternalName,
    NodePath,
)

from .tablemodel import geom_node

FLOOR_Z = -76.0  # the floor, 76 cm below the felt
ROOM_X = 300.0  # side walls at x = +-ROOM_X
ROOM_NEAR, ROOM_FAR = -260.0, 250.0  # the wall behind the player, the far wall
WALL_TOP = 120.0
LAMP = np.array([0.0, 0.0, 115.0])  # the lamp over the table
TABLE_HALF = (60.0, 40.0)  # the table's outer half size (rim included)
# what surely hides what lies beneath it: the table top a little inside its rounded outline
HIDING_HALF, HIDING_CORNER = (57.5, 37.5), 8.0
SHADOW_SCALE = (LAMP[2] - FLOOR_Z) / LAMP[2]  # the table's shadow on the floor, that much larger
DARKEST = (0.025, 0.018, 0.014)  # the room's far corners; also the window's clear colour

PLANK = (0.26, 0.15, 0.085)
RUG_FIELD = (0.36, 0.07, 0.06)
RUG_BORDER = (0.42, 0.3, 0.12)
WAINSCOT = (0.22, 0.12, 0.07)
PLASTER = (0.3, 0.2, 0.13)
RUG = (-210.0, -150.0, 210.0, 235.0)  # x0, y0, x1, y1
RUG_EDGE = 16.0


def _format() -> GeomVertexFormat:
    array = GeomVertexArrayFormat()
    array.addColumn(InternalName.getVertex(), 3, GeomEnums.NT_float32, GeomEnums.C_point)
    array.addColumn(InternalName.getColor(), 4, GeomEnums.NT_float32, GeomEnums.C_color)
    return GeomVertexFormat.registerFormat(GeomVertexFormat(array))


def lamp_light(points: np.ndarray) -> np.ndarray:
    """How lit each point is (0..1): the lamp's light falling off with distance (which darkens
    the edges of the view, the farthest parts of the room) and the table's soft shadow on
    the floor beneath it."""
    dist = np.linalg.norm(points - LAMP, axis=1)
    light = 0.1 + 0.9 / (1.0 + (dist / 220.0) ** 2.4)
    on_floor = points[:, 2] < FLOOR_Z + 1.0
    sx, sy = (h * SHADOW_SCALE for h in TABLE_HALF)
    out_x = np.abs(points[:, 0]) - sx
    out_y = np.abs(points[:, 1]) - sy
    outside = np.maximum(np.maximum(out_x, out_y), 0.0)
    shade = 0.4 + 0.6 * np.clip(outside / 45.0, 0.0, 1.0)
    return np.where(on_floor, light * shade, light)


def hidden_from(eye: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Whether the table top hides each point (below it) from ``eye`` (nothing is hidden
    from an eye at or below the felt)."""
    if eye[2] <= 0.0:
        return np.zeros(len(points), bool)
    t = eye[2] / np.maximum(eye[2] - points[:, 2], 1e-6)
    q = eye[:2] + (points[:, :2] - eye[:2]) * t[:, None]  # where the sight line meets z = 0
    (hx, hy), r = HIDING_HALF, HIDING_CORNER
    dx = np.maximum(np.abs(q[:, 0]) - (hx - r), 0.0)
    dy = np.maximum(np.abs(q[:, 1]) - (hy - r), 0.0)
    inside = (np.abs(q[:, 0]) < hx) & (np.abs(q[:, 1]) < hy) & (dx * dx + dy * dy < r * r)
    return (points[:, 2] < -0.5) & inside


class _Builder:
    """Grids of quads with baked vertex colours, gathered into one mesh."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.quads: list[np.ndarray] = []
        self.count = 0

    def grid(self, origin, u, v, nu: int, nv: int, colour) -> None:
        """A quad grid from ``origin`` spanning vectors ``u`` and ``v`` (``nu`` x ``nv``
        cells)."""
        i, j = np.meshgrid(np.arange(nu + 1) / nu, np.arange(nv + 1) / nv)
        pts = (
            np.asarray(origin, float)
            + i.reshape(-1, 1) * np.asarray(u, float)
            + j.reshape(-1, 1) * np.asarray(v, float)
        )
        rgb = np.clip(np.asarray(colour, float) * lamp_light(pts)[:, None], 0.0, 1.0)
        rgb = np.maximum(rgb, DARKEST)
        row = nu + 1
        a = (np.arange(nv)[:, None] * row + np.arange(nu)[None, :]).reshape(-1)
        corners = np.stack([a, a + 1, a + row + 1, a + row], axis=1)
        self.rows.append(np.hstack([pts, rgb, np.ones((len(pts), 1))]))
        self.quads.append(corners + self.count)
        self.count += len(pts)

    def rect(self, x0, y0, x1, y1, z, colour, step: float = 30.0) -> None:
        """A level rectangle facing up, subdivided so the baked light varies smoothly."""
        nu = max(1, int(round((x1 - x0) / step)))
        nv = max(1, int(round((y1 - y0) / step)))
        self.grid((x0, y0, z), (x1 - x0, 0, 0), (0, y1 - y0, 0), nu, nv, colour)

    def node(self, name: str) -> GeomNode:
        """The mesh's vertices, with no triangles yet (``Room.fit`` chooses them)."""
        vdata = GeomVertexData(name, _format(), Geom.UHStatic)
        vdata.uncleanSetNumRows(self.count)
        rows = np.concatenate(self.rows).astype(np.float32)
        vdata.modifyArray(0).modifyHandle().setData(rows.tobytes())
        return geom_node(name, vdata, GeomTriangles(Geom.UHStatic))


def _floor(b: _Builder) -> None:
    """Planks 16 cm wide running across the view, boards of different lengths and tones,
    a dark seam between neighbouring rows."""
    rng = np.random.default_rng(7)
    width, seam = 16.0, 0.9
    y = ROOM_NEAR
    while y < ROOM_FAR:
        x = ROOM_X * -1 - rng.uniform(0, 150)
        while x < ROOM_X:
            length = rng.uniform(110, 240)
            x0, x1 = max(x, -ROOM_X), min(x + length, ROOM_X)
            tone = rng.uniform(0.8, 1.15)
            b.rect(x0, y, x1 - 0.6, y + width - seam, FLOOR_Z, np.multiply(PLANK, tone))
            x += length
        b.rect(-ROOM_X, y + width - seam, ROOM_X, y + width, FLOOR_Z, np.multiply(PLANK, 0.35))
        y += width


def _rug(b: _Builder) -> None:
    """A dark red rug under the table with a gold-brown border."""
    x0, y0, x1, y1 = RUG
    z, e = FLOOR_Z + 0.4, RUG_EDGE
    for rect in (
        (x0, y0, x1, y0 + e),
        (x0, y1 - e, x1, y1),
        (x0, y0 + e, x0 + e, y1 - e),
        (x1 - e, y0 + e, x1, y1 - e),
    ):
        b.rect(*rect, z, RUG_BORDER, step=24.0)
    b.rect(x0 + e, y0 + e, x1 - e, y1 - e, z, RUG_FIELD)


def _walls(b: _Builder) -> None:
    """The far and side walls: dark panelling to 95 cm with a rail, warm plaster above."""
    rail = FLOOR_Z + 95.0
    corners = [(-ROOM_X, ROOM_FAR), (ROOM_X, ROOM_FAR), (ROOM_X, ROOM_NEAR)]
    walls = [((-ROOM_X, ROOM_NEAR), (-ROOM_X, ROOM_FAR))] + list(zip(corners, corners[1:]))
    for (ax, ay), (bx, by) in walls:
        span = (bx - ax, by - ay, 0.0)
        cells = max(1, int(np.hypot(span[0], span[1]) / 30.0))
        for z0, z1, colour in (
            (FLOOR_Z, FLOOR_Z + 10.0, np.multiply(WAINSCOT, 0.55)),  # skirting board
            (FLOOR_Z + 10.0, rail - 4.0, WAINSCOT),
            (rail - 4.0, rail, np.multiply(WAINSCOT, 1.35)),  # the rail
            (rail, WALL_TOP, PLASTER),
        ):
            nv = max(1, int((z1 - z0) / 25.0))
            b.grid((ax, ay, z0), span, (0, 0, z1 - z0), cells, nv, colour)


class Room:
    """The room's one mesh, of which only the quads the table does not hide from the camera
    are drawn: the felt would paint over the others (on a software renderer every pixel
    drawn costs, and from the table's view the table hid 45% of the screen's room pixels).
    ``fit(eye)`` chooses them for where the camera stands; the table calls it each frame
    before drawing, which costs nothing while the camera stays put."""

    def __init__(self, parent: NodePath) -> None:
        b = _Builder()
        for part in (_floor, _rug, _walls):
            part(b)
        self.points = np.concatenate(b.rows)[:, :3]
        self.quads = np.concatenate(b.quads)  # each quad's four corners, in order
        self.np = parent.attachNewNode(b.node("room"))
        self.np.setBin("background", -10)
        self.np.setDepthTest(False)
        self.np.setDepthWrite(False)
        self.np.setLightOff(1)
        self.np.setTextureOff(1)
        self.np.setTwoSided(True)
        self.eye: np.ndarray | None = None
        self.drawn = 0  # quads drawn from the last eye

    def fit(self, eye) -> None:
        """Draw only the quads the table does not hide from ``eye`` (in the room's
        coordinates). The table's outline is convex, so a quad whose four corners it hides
        is hidden whole."""
        eye = np.asarray(eye, float)
        if self.eye is not None and np.abs(eye - self.eye).max() < 1e-4:
            return
        self.eye = eye
        seen = ~hidden_from(eye, self.points)[self.quads].all(axis=1)
        tris = GeomTriangles(Geom.UHStatic)
        tris.setIndexType(Geom.NT_uint32)
        tris.modifyVertices().modifyHandle().setData(
            self.quads[seen][:, [0, 1, 2, 0, 2, 3]].astype(np.uint32).tobytes()
        )
        self.np.node().modifyGeom(0).setPrimitive(0, tris)
        self.drawn = int(seen.sum())

    def follow(self, camera: NodePath) -> None:
        """``fit`` for where ``camera`` stands now."""
        self.fit(tuple(camera.getPos(self.np)))
