"""The table itself: felt, a wooden rim, lights. Loads ``models/table.egg`` when it exists."""

from __future__ import annotations

import numpy as np
from panda3d.core import (
    AmbientLight,
    DirectionalLight,
    Geom,
    GeomNode,
    GeomTriangles,
    GeomVertexData,
    GeomVertexFormat,
    GeomVertexWriter,
    NodePath,
    PointLight,
    Texture,
    Vec3,
)

from ..media.assets import asset_path, panda_filename
from ..media.quality import (
    SHARP,
    Filtering,
    apply_filtering,
    felt_filtering,
    filter_model,
    private_texture,
)

TABLE_W, TABLE_D = 110.0, 78.0
EGG_SCALE = 10.0  # models/table.egg: 1 unit = 10 cm, felt 11 x 7 units


def _box(name: str, x0, y0, z0, x1, y1, z1, colour, sides: str = "tsnwe") -> GeomNode:
    """An axis-aligned box with flat normals and one colour (for the procedural rim), open
    at the bottom; ``sides`` picks the faces: t(op), s(outh), n(orth), w(est), e(ast)."""
    vdata = GeomVertexData(name, GeomVertexFormat.getV3n3c4(), Geom.UHStatic)
    vw, nw, cw = (GeomVertexWriter(vdata, n) for n in ("vertex", "normal", "color"))
    tris = GeomTriangles(Geom.UHStatic)
    faces = [
        ((0, 0, 1), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
        ((0, -1, 0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)]),
        ((0, 1, 0), [(x1, y1, z0), (x0, y1, z0), (x0, y1, z1), (x1, y1, z1)]),
        ((-1, 0, 0), [(x0, y1, z0), (x0, y0, z0), (x0, y0, z1), (x0, y1, z1)]),
        ((1, 0, 0), [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)]),
    ]
    faces = [f for f, key in zip(faces, "tsnwe") if key in sides]
    for i, (normal, quad) in enumerate(faces):
        shade = 1.0 if normal[2] else 0.8
        for v in quad:
            vw.addData3(*v)
            nw.addData3(*normal)
            cw.addData4(colour[0] * shade, colour[1] * shade, colour[2] * shade, 1)
        tris.addVertices(4 * i, 4 * i + 1, 4 * i + 2)
        tris.addVertices(4 * i, 4 * i + 2, 4 * i + 3)
    return geom_node(name, vdata, tris)


def geom_node(name: str, vdata: GeomVertexData, tris: GeomTriangles) -> GeomNode:
    """One GeomNode drawing ``tris`` of ``vdata`` (the table's and the room's meshes)."""
    geom = Geom(vdata)
    geom.addPrimitive(tris)
    node = GeomNode(name)
    node.addGeom(geom)
    return node


def _felt(name: str, w: float, d: float, steps: int = 16) -> GeomNode:
    """The felt as a grid with a soft vignette baked into the vertex colours."""
    vdata = GeomVertexData(name, GeomVertexFormat.getV3n3c4(), Geom.UHStatic)
    vw, nw, cw = (GeomVertexWriter(vdata, n) for n in ("vertex", "normal", "color"))
    for j in range(steps + 1):
        for i in range(steps + 1):
            fx, fy = i / steps - 0.5, j / steps - 0.5
            r = min(1.0, (fx * fx + fy * fy) * 2.4)
            k = 1.0 - 0.45 * r
            k *= 1.0 + 0.12 * (0.5 - fy)  # the lamp is nearer the player's side
            vw.addData3(fx * w, fy * d, 0)
            nw.addData3(0, 0, 1)
            cw.addData4(0.08 * k, 0.40 * k, 0.22 * k, 1)
    tris = GeomTriangles(Geom.UHStatic)
    row = steps + 1
    for j in range(steps):
        for i in range(steps):
            a = j * row + i
            tris.addVertices(a, a + 1, a + row + 1)
            tris.addVertices(a, a + row + 1, a + row)
    return geom_node(name, vdata, tris)


def _under_everything(felt: NodePath) -> None:
    """The felt is the bottom of everything on the table: drawn first (after the room),
    without depth test or depth writes (it covers most of the screen, so that per-pixel depth
    work is the largest single cost on a software renderer); everything else lies on or
    above it."""
    felt.setBin("background", 0)
    felt.setDepthTest(False)
    felt.setDepthWrite(False)


def build_table(
    loader, parent: NodePath, detail: str = "full", filtering: Filtering = SHARP
) -> NodePath:
    """The table under ``parent``; its top surface is at z = 0. ``full`` loads the textured
    ``models/table.egg`` (its textures sampled as ``filtering`` says); ``light`` (or a
    missing model) builds a vertex-coloured one."""
    egg = asset_path("models", "table.egg")
    # packaged builds hold it converted as table.egg.bam, which the loader finds for table.egg
    if detail == "full" and (egg.exists() or egg.with_name("table.egg.bam").exists()):
        model = loader.loadModel(panda_filename(egg))
        model.reparentTo(parent)
        model.setScale(EGG_SCALE)  # the felt top is z = 0 in the model too
        filter_model(model, filtering)
        felt = model.find("**/felt")
        if not felt.isEmpty():
            for texture in felt.findAllTextures():
                apply_filtering(texture, felt_filtering(filtering))
            _under_everything(felt)
            felt.setLightOff(1)  # the lamp's pool of light is baked into its vertex colours
        return model
    table = parent.attachNewNode("table")
    _under_everything(table.attachNewNode(_felt("felt", TABLE_W, TABLE_D)))
    wood = (0.36, 0.2, 0.1)
    w, d, r = TABLE_W / 2, TABLE_D / 2, 5.0
    # the rim stands on the felt (its inner walls start at z = 0: the felt hides nothing);
    # below the felt only the outer skirt shows
    for name, box in (
        ("rim-s", (-w - r, -d - r, 0.0, w + r, -d, 1.4)),
        ("rim-n", (-w - r, d, 0.0, w + r, d + r, 1.4)),
        ("rim-w", (-w - r, -d, 0.0, -w, d, 1.4)),
        ("rim-e", (w, -d, 0.0, w + r, d, 1.4)),
    ):
        table.attachNewNode(_box(name, *box, wood))
    table.attachNewNode(
        _box("rim-skirt", -w - r, -d - r, -1.5, w + r, d + r, 0.0, wood, sides="snwe")
    )
    # the shading is baked into the vertex colours: no lighting work for the biggest surfaces
    table.setLightOff(1)
    return table


def build_lights(render: NodePath) -> list[NodePath]:
    """A warm key light over the table, a soft fill and an ambient."""
    amb = AmbientLight("ambient")
    amb.setColor((0.42, 0.42, 0.45, 1))
    key = DirectionalLight("key")
    key.setColor((0.62, 0.58, 0.52, 1))
    lamp = PointLight("lamp")
    lamp.setColor((0.35, 0.33, 0.3, 1))
    lamp.setAttenuation(Vec3(1, 0.0, 0.00006))
    nps = [render.attachNewNode(amb), render.attachNewNode(key), render.attachNewNode(lamp)]
    nps[1].setHpr(20, -62, 0)
    nps[2].setPos(0, -5, 70)
    for light in nps:
        render.setLight(light)
    return nps


def felt_texture_path(felt: str):
    """The cloth's picture: ``textures/felt.png`` (green, the model's own) or
    ``textures/felt_<name>.png`` (tools/make_textures.py makes each)."""
    return asset_path("textures", "felt.png" if felt == "green" else f"felt_{felt}.png")


def _mean_colour(texture: Texture) -> np.ndarray:
    rgb = np.frombuffer(memoryview(texture.getRamImageAs("RGB")), np.uint8)
    return rgb.reshape(-1, 3).mean(axis=0) / 255.0


def dye_felt(loader, table: NodePath, felt: str, filtering: Filtering = SHARP) -> None:
    """Lay the cloth ``felt`` on a table made by ``build_table``: the textured model's felt
    gets that picture; the light table's vertex-coloured felt is tinted to its colour. A
    missing picture leaves the table as it is (``FileNotFoundError`` says which)."""
    node = table.find("**/felt")
    if node.isEmpty():
        return
    path = felt_texture_path(felt)
    if felt == "green":
        node.clearTexture()
        node.clearColorScale()
        return
    if not path.exists():
        raise FileNotFoundError(f"felt missing: {path.name}")
    texture = private_texture(loader.loadTexture(panda_filename(path)))
    if node.findAllTextures().getNumTextures():  # the model: its picture replaced
        apply_filtering(texture, felt_filtering(filtering))
        node.setTexture(texture, 1)
        return
    green = private_texture(loader.loadTexture(panda_filename(felt_texture_path("green"))))
    tint = _mean_colour(texture) / np.maximum(_mean_colour(green), 1e-3)
    node.setColorScale(*(float(c) for c in tint), 1)
