"""Generate the Panda3D models in models/ (.egg text files).

    python -m tools.make_models [--out models]

Units: 1 unit = 10 cm. Z is up. The table top (felt) surface is z = 0.
Card: 0.63 x 0.88 (x, y), thickness CARD_T, centred at the origin, face up (+Z).
"""

from __future__ import annotations

import argparse
import math
import os

import numpy as np

from .egg import Mesh, write_egg

CARD_W, CARD_H, CARD_T = 0.63, 0.88, 0.004
CARD_R = CARD_W * 13.0 / 240.0  # same corner ratio as the texture art
FELT_W, FELT_H, FELT_R = 11.0, 7.0, 0.5
RIM_W = 0.5  # table outer size: 12 x 8
TEX = "../textures/"


def roundrect(w, h, r, n):
    """Outline points (CCW seen from +Z) and outward 2D normals of a rounded rectangle."""
    pts, nrm = [], []
    for cx, cy, a0 in (
        (w / 2 - r, -h / 2 + r, -90),
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
    ):
        for k in range(n + 1):
            a = math.radians(a0 + 90.0 * k / n)
            nrm.append((math.cos(a), math.sin(a)))
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts), np.array(nrm)


def card_meshes():
    pts, nrm = roundrect(CARD_W, CARD_H, CARD_R, 6)
    z = CARD_T / 2
    front = Mesh("front")
    back = Mesh("back")
    edge = Mesh("edge", rgba=(0.94, 0.93, 0.9, 1))

    def uv(p):
        return ((p[0] + CARD_W / 2) / CARD_W, (p[1] + CARD_H / 2) / CARD_H)

    c = front.vertex((0, 0, z), (0, 0, 1), (0.5, 0.5))
    ids = [front.vertex((p[0], p[1], z), (0, 0, 1), uv(p)) for p in pts]
    for i in range(len(ids)):
        front.tri(c, ids[i], ids[(i + 1) % len(ids)])
    # back: mirrored in u so the art reads correctly after the card is flipped about its Y axis
    c = back.vertex((0, 0, -z), (0, 0, -1), (0.5, 0.5))
    ids = [back.vertex((p[0], p[1], -z), (0, 0, -1), (1 - uv(p)[0], uv(p)[1])) for p in pts]
    for i in range(len(ids)):
        back.tri(c, ids[(i + 1) % len(ids)], ids[i])
    n = len(pts)
    top = [edge.vertex((p[0], p[1], z), (q[0], q[1], 0)) for p, q in zip(pts, nrm, strict=True)]
    bot = [edge.vertex((p[0], p[1], -z), (q[0], q[1], 0)) for p, q in zip(pts, nrm, strict=True)]
    for i in range(n):
        j = (i + 1) % n
        edge.quad(bot[i], bot[j], top[j], top[i])
    return [front, back, edge]


def rim_profile():
    """(d, z) profile of the wooden rim, d = outward distance from the felt edge."""
    prof = [(0.0, 0.0), (0.0, 0.06)]
    for k in range(1, 9):
        a = math.radians(180 - 90 * k / 8)
        prof.append((0.1 + 0.1 * math.cos(a), 0.06 + 0.1 * math.sin(a)))
    prof.append((0.23, 0.175))
    for k in range(0, 11):
        a = math.radians(90 - 90 * k / 10)
        prof.append((0.36 + 0.14 * math.cos(a), 0.04 + 0.14 * math.sin(a)))
    prof.append((0.5, -0.30))
    return np.array(prof)


def lamp_pool(x: float, y: float) -> tuple[float, float, float, float]:
    """The light of a warm lamp hanging over the middle of the felt, baked into its vertex
    colours (the felt is drawn unlit): full in the middle, falling off towards the rim and the
    corners, a little more light on the player's (-y) side."""
    fx, fy = x / FELT_W, y / FELT_H
    r = min(1.0, (fx * fx + fy * fy) * 2.0)
    k = (1.0 - 0.42 * r * r**0.5) * (1.0 - 0.08 * fy)
    k = min(1.0, k)
    return (k, k * 0.98, k * 0.93, 1.0)


def table_meshes():
    felt = Mesh("felt", texture="felt")
    nx, ny = 28, 18
    xs = np.linspace(-FELT_W / 2 - 0.1, FELT_W / 2 + 0.1, nx + 1)
    ys = np.linspace(-FELT_H / 2 - 0.1, FELT_H / 2 + 0.1, ny + 1)
    grid = [
        [felt.vertex((x, y, 0), (0, 0, 1), (x / 1.6, y / 1.6), lamp_pool(x, y)) for x in xs]
        for y in ys
    ]
    for j in range(ny):
        for i in range(nx):
            felt.quad(grid[j][i], grid[j][i + 1], grid[j + 1][i + 1], grid[j + 1][i])

    rim = Mesh("rim", texture="wood")
    path, pn = roundrect(FELT_W, FELT_H, FELT_R, 8)
    path = np.vstack([path, path[:1]])
    pn = np.vstack([pn, pn[:1]])
    prof = rim_profile()
    seg = np.diff(prof, axis=0)
    seg_n = np.stack([-seg[:, 1], seg[:, 0]], 1)  # normals pointing out of the wood
    seg_n /= np.linalg.norm(seg_n, axis=1)[:, None]
    vn = np.vstack([seg_n[:1], seg_n[:-1] + seg_n[1:], seg_n[-1:]])
    vn[0] = (-1, 0)
    vn /= np.linalg.norm(vn, axis=1)[:, None]
    plen = np.concatenate([[0], np.cumsum(np.linalg.norm(seg, axis=1))])
    alen = np.concatenate([[0], np.cumsum(np.linalg.norm(np.diff(path, axis=0), axis=1))])
    rows = []
    for p, q, s in zip(path, pn, alen, strict=True):
        row = []
        for (d, z), (nd, nz), t in zip(prof, vn, plen, strict=True):
            pos = (p[0] + q[0] * d, p[1] + q[1] * d, z)
            row.append(rim.vertex(pos, (q[0] * nd, q[1] * nd, nz), (s / 3.0, t * 1.5)))
        rows.append(row)
    for i in range(len(rows) - 1):
        for k in range(len(prof) - 1):
            rim.quad(rows[i][k], rows[i][k + 1], rows[i + 1][k + 1], rows[i + 1][k])
    return [felt, rim]


def scorepad_meshes():
    w, h, t = 0.7, 0.95, 0.05
    pages = Mesh("pages", rgba=(0.96, 0.95, 0.9, 1))
    pages.box(-w / 2, -h / 2, 0, w / 2, h / 2, t - 0.002, skip=("+z", "-z"))
    top = Mesh("sheet", texture="scorepad")
    ids = [
        top.vertex((x * w / 2, y * h / 2, t), (0, 0, 1), ((x + 1) / 2, (y + 1) / 2))
        for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    top.quad(*ids)
    binding = Mesh("binding", rgba=(0.55, 0.1, 0.12, 1))
    binding.box(-w / 2 - 0.005, h / 2 - 0.07, -0.001, w / 2 + 0.005, h / 2 + 0.005, t + 0.008)
    back = Mesh("backing", rgba=(0.45, 0.38, 0.3, 1))
    back.box(-w / 2, -h / 2, -0.002, w / 2, h / 2, 0.0, skip=("+z",))
    return [pages, top, binding, back]


def tray_meshes():
    w, h, wall, depth, floor = 0.8, 1.05, 0.045, 0.1, 0.015
    tray = Mesh("tray", texture="wood")
    s = 3.0
    tray.box(-w / 2, -h / 2, 0, w / 2, h / 2, floor, s, skip=())
    tray.box(-w / 2, -h / 2, floor, -w / 2 + wall, h / 2, depth, s)
    tray.box(w / 2 - wall, -h / 2, floor, w / 2, h / 2, depth, s)
    tray.box(-w / 2 + wall, h / 2 - wall, floor, w / 2 - wall, h / 2, depth, s)
    tray.box(-w / 2 + wall, -h / 2, floor, w / 2 - wall, -h / 2 + wall, depth * 0.6, s)
    lining = Mesh("lining", rgba=(0.5, 0.1, 0.12, 1))
    ids = [
        lining.vertex((x, y, floor + 0.001), (0, 0, 1), (x, y))
        for x, y in (
            (-w / 2 + wall, -h / 2 + wall),
            (w / 2 - wall, -h / 2 + wall),
            (w / 2 - wall, h / 2 - wall),
            (-w / 2 + wall, h / 2 - wall),
        )
    ]
    lining.quad(*ids)
    return [tray, lining]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="models")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    p = os.path.join
    write_egg(
        p(args.out, "card.egg"),
        card_meshes(),
        {},
        "card",
        f"gin3d card {CARD_W} x {CARD_H} x {CARD_T}; nodes front/back/edge; UV 0..1",
    )
    write_egg(
        p(args.out, "table.egg"),
        table_meshes(),
        {"felt": TEX + "felt.png", "wood": TEX + "wood.png"},
        "table",
        "gin3d table: felt 11 x 7 at z=0, rim to 12 x 8, Z up",
    )
    write_egg(
        p(args.out, "scorepad.egg"),
        scorepad_meshes(),
        {"scorepad": TEX + "scorepad.png"},
        "scorepad",
        "gin3d score pad 0.7 x 0.95",
    )
    write_egg(
        p(args.out, "tray.egg"),
        tray_meshes(),
        {"wood": TEX + "wood.png"},
        "tray",
        "gin3d deck tray 0.8 x 1.05",
    )
    for fn in ("card.egg", "table.egg", "scorepad.egg", "tray.egg"):
        print("wrote", fn)


if __name__ == "__main__":
    main()
