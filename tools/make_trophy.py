"""Generate the tournament's trophy in textures/: a gold cup with two handles on a wooden
plinth with a gold plate, lit like metal (a bright highlight, a darker band where it
reflects the room) and drawn with numpy alone.

    python -m tools.make_trophy [--out textures]

The cup is a surface of revolution: each row of the picture is a circle of the profile's
radius seen from the front, so the normal at a pixel follows from how far across that circle
it lies and how fast the profile widens there. Everything is drawn at twice the size and
averaged down, which smooths every edge. Nothing random: the same file every time.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from .raster import save_png, to_rgba8

SIZE = 256  # the texture's side, pixels
SS = 2  # drawn this many times larger, then averaged down
LIGHT = np.array([-0.45, -0.55, 0.70])  # from the upper left, in front (x right, y down, z out)
GOLD = np.array([0.93, 0.70, 0.22])
GOLD_DARK = np.array([0.45, 0.28, 0.06])
WOOD = np.array([0.36, 0.20, 0.10])


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def profile(y: np.ndarray) -> np.ndarray:
    """The cup's radius at height ``y`` (in 256ths of the picture, 0 at the top); 0 where
    there is no cup. Bowl, stem with a knot, flared foot."""
    r = np.zeros_like(y)
    t = np.clip((y - 40) / 92, 0, 1)
    bowl = (y >= 40) & (y < 132)
    r[bowl] = 13 + 59 * np.cos(t[bowl] * np.pi / 2) ** 0.75
    stem = (y >= 132) & (y < 176)
    r[stem] = 9 + 8 * np.exp(-(((y[stem] - 152) / 6) ** 2))
    foot = (y >= 176) & (y < 196)
    r[foot] = 11 + 35 * ((y[foot] - 176) / 20) ** 1.6
    return r


def metal(n: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The colour of polished metal of ``base`` colour with normals ``n`` (..., 3)."""
    light = _unit(LIGHT)
    diffuse = np.clip(n @ light, 0, 1)[..., None]
    half = _unit(light + np.array([0.0, 0.0, 1.0]))
    spec = (np.clip(n @ half, 0, 1) ** 40)[..., None]
    # the room's reflection: a dark band across the middle of the curve, bright rims
    band = (0.55 + 0.45 * np.cos(n[..., 0:1] * 5.0)) * 0.5 + 0.5
    colour = base * (0.4 + 0.8 * diffuse) * band
    return np.clip(colour + spec * 0.9, 0, 1)


def star(px: np.ndarray, py: np.ndarray, cx: float, cy: float, r: float) -> np.ndarray:
    """Coverage of a five-pointed star centred on (cx, cy), outer radius ``r``."""
    a = np.arctan2(px - cx, -(py - cy))
    d = np.hypot(px - cx, py - cy)
    k = np.pi / 5
    frac = np.abs((a % (2 * k)) - k) / k  # 0 at a point's axis, 1 between points
    edge = r * (0.42 + 0.58 * (1 - frac) ** 2.2)
    return np.clip((edge - d) * SS * 0.5 + 0.5, 0, 1)


def trophy() -> np.ndarray:
    n = SIZE * SS
    yy, xx = (np.mgrid[0:n, 0:n] + 0.5) / SS  # in the 256-pixel frame
    cx = SIZE / 2
    img = np.zeros((n, n, 4))

    def paint(cov: np.ndarray, rgb: np.ndarray) -> None:
        a = cov[..., None]
        img[..., :3] = img[..., :3] * (1 - a) + rgb * a
        img[..., 3:] = img[..., 3:] * (1 - a) + a

    # the plinth: dark polished wood, lighter on top, with a gold plate
    box = (np.abs(xx - cx) < 58) & (yy >= 194) & (yy < 244)
    shade = 1.0 - 0.35 * (yy - 194) / 50
    wood = (
        WOOD
        * shade[..., None]
        * (0.92 + 0.08 * np.sin(xx * 0.35 + np.sin(yy * 0.2) * 2))[..., None]
    )
    paint(box.astype(float), wood)
    paint(((np.abs(xx - cx) < 58) & (yy >= 194) & (yy < 199)).astype(float), WOOD * 1.5)
    plate = (np.abs(xx - cx) < 34) & (yy >= 210) & (yy < 230)
    flat = np.zeros((n, n, 3))
    flat[..., 2] = 1.0
    flat[..., 0] = -(xx - cx) / 120
    paint(plate.astype(float), metal(_unit(flat), GOLD) * 0.95)
    rim = plate & ~((np.abs(xx - cx) < 32) & (yy >= 212) & (yy < 228))
    paint(rim.astype(float), GOLD_DARK)

    # the handles: a tube bent in an arc either side of the bowl, behind the bowl's edge
    for side in (-1, 1):
        hx, hy = cx + side * 66, 80.0
        dx, dy = (xx - hx) / 30, (yy - hy) / 34
        ring = (np.hypot(dx, dy) - 1.0) * 31  # distance from the arc, pixels
        out = side * (xx - hx) > -6
        cov = np.clip((6.5 - np.abs(ring)) * SS * 0.5, 0, 1) * out
        across = np.clip(ring / 6.5, -1, 1)
        ang = np.arctan2(dy, dx)
        tube = np.stack(
            [np.cos(ang) * across, np.sin(ang) * across, np.sqrt(1 - across**2)], axis=-1
        )
        paint(cov, metal(_unit(tube), GOLD))

    # the cup: a surface of revolution
    r = profile(yy)
    dr = (profile(yy + 0.5) - profile(yy - 0.5)).clip(-6, 6)  # how fast it widens
    u = np.where(r > 0, (xx - cx) / np.maximum(r, 1e-6), 2.0)
    inside = np.clip((1 - np.abs(u)) * r * SS * 0.5, 0, 1) * (r > 0)
    nz = np.sqrt(np.clip(1 - u**2, 0, 1))
    normal = _unit(np.stack([u, -dr * nz, nz + 1e-6], axis=-1))
    paint(inside, metal(normal, GOLD))

    # the mouth: the inside of the bowl seen over its front rim
    mouth = ((xx - cx) / 71) ** 2 + ((yy - 40) / 11) ** 2
    paint(np.clip((1 - mouth) * 40, 0, 1), GOLD_DARK * (0.8 + 0.5 * (yy - 29) / 22)[..., None])
    lip = np.clip((0.08 - np.abs(mouth - 1)) * 40, 0, 1)
    paint(lip, np.clip(GOLD * 1.25, 0, 1))

    # a star on the bowl, pressed into the metal: darker edge, bright face
    paint(star(xx, yy, cx, 86, 21), GOLD_DARK)
    paint(star(xx, yy, cx - 1, 85, 17), np.clip(GOLD * 1.2 + 0.1, 0, 1))

    small = img.reshape(SIZE, SS, SIZE, SS, 4).mean(axis=(1, 3))
    return to_rgba8(small, bleed_rgb=(0.9, 0.7, 0.25))


def images() -> dict[str, np.ndarray]:
    return {"trophy.png": trophy()}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="textures")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for name, img in images().items():
        save_png(os.path.join(args.out, name), img)
        print("wrote", name)


if __name__ == "__main__":
    main()
