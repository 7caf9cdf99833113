"""Generate table/prop textures and the game icon in textures/.

    python -m tools.make_textures [--out textures]

felt.png (256x256; felt_blue.png, felt_burgundy.png, felt_charcoal.png: the same cloth in the
other colours a player may choose) and wood.png (512x512) are seamless (tileable) images made from
FFT-filtered noise. The felt's tile is 16 cm of the table, 160-240 px on screen at 1280x720 to
1920x1080: drawn near 1:1, so a software renderer can sample it without filtering.
"""

from __future__ import annotations

import argparse
import math
import os

import numpy as np

from . import make_cards as mc
from .raster import Canvas, Shape, hex_rgb, rect_poly, roundrect_poly, save_png, to_rgba8

# the score sheet: its red rule under the names, its first blue rule and the step between them
PAD_HEADER_RULE, PAD_FIRST_RULE, PAD_ROW = 58, 82, 24  # pixels from its top


def periodic_noise(rng, n, power, fx=1.0, fy=1.0):
    """Tileable noise: white noise filtered in the frequency domain with 1/f**power."""
    white = rng.standard_normal((n, n))
    ky = np.fft.fftfreq(n)[:, None] * n * fy
    kx = np.fft.fftfreq(n)[None, :] * n * fx
    k = np.sqrt(kx * kx + ky * ky)
    k[0, 0] = 1.0
    f = np.fft.ifft2(np.fft.fft2(white) / k**power).real
    f -= f.mean()
    return f / (f.std() + 1e-12)


# the cloths the player may choose (Settings -> Felt): the same nap, dyed another colour;
# green is felt.png, the table model's own
FELT_COLOURS = {"green": "1f6b3f", "blue": "1d4b7c", "burgundy": "6e1f2d", "charcoal": "34393d"}


def felt_file(name: str) -> str:
    return "felt.png" if name == "green" else f"felt_{name}.png"


def felt(n=256, colour: str = "green") -> np.ndarray:
    rng = np.random.default_rng(1234)
    coarse = periodic_noise(rng, n, 1.6)
    fine = periodic_noise(rng, n, 0.3)
    fibre = periodic_noise(rng, n, 0.8, fx=6.0, fy=1.0)  # slightly streaky nap
    lum = 1.0 + 0.045 * coarse + 0.05 * fine + 0.03 * fibre
    base = np.array(hex_rgb(FELT_COLOURS[colour]))
    rgb = np.clip(base[None, None, :] * lum[..., None], 0, 1)
    return np.round(rgb * 255).astype(np.uint8)


def wood(n=512) -> np.ndarray:
    """Walnut-like grain running along x (u)."""
    rng = np.random.default_rng(4321)
    warp = periodic_noise(rng, n, 2.0, fx=3.0, fy=1.0)
    fine = periodic_noise(rng, n, 0.9, fx=12.0, fy=1.0)
    y = np.arange(n)[:, None] / n
    rings = 14.0 * y + 0.45 * warp + 0.05 * fine  # 14 grain lines per tile (tileable)
    t = rings - np.floor(rings)
    band = np.clip(np.abs(t - 0.5) * 2, 0, 1) ** 3  # sharp late-wood lines
    dark = np.array(hex_rgb("5c3018"))
    light = np.array(hex_rgb("a8683a"))
    mix = np.clip(0.25 + 0.55 * band + 0.08 * fine, 0, 1)[..., None]
    rgb = light * (1 - mix) + dark * mix
    rgb *= (1.0 + 0.06 * periodic_noise(rng, n, 1.2))[..., None]
    return np.round(np.clip(rgb, 0, 1) * 255).astype(np.uint8)


def scorepad(w=256, h=348) -> np.ndarray:
    """A blank ruled score sheet: a header band for the players' names over a red rule, a
    red line between their two columns and blue lines for the hands (the game pencils in
    the scores as they come: ``gin3d/scene/tabletop/score_pad.py``)."""
    cv = Canvas(w, h)
    cv.fill_cov(np.ones((h, w)), hex_rgb("f8f5e8"))
    blue = hex_rgb("7b9bd1")
    red = hex_rgb("d04a4a")
    for y in range(PAD_FIRST_RULE, h - 10, PAD_ROW):
        cv.draw(Shape([rect_poly(14, y - 0.6, w - 14, y + 0.6)]), blue, flip_y=False)
    rule = PAD_HEADER_RULE  # under the names (the pad's binding covers its top 26 px)
    cv.draw(Shape([rect_poly(14, rule - 1.2, w - 14, rule + 1.2)]), red, flip_y=False)
    cv.draw(Shape([rect_poly(w / 2 - 0.8, 30, w / 2 + 0.8, h - 14)]), red, flip_y=False)
    return to_rgba8(cv.rgba)[..., :3]


def warp_into(dst: np.ndarray, src: np.ndarray, cx, cy, angle_deg, scale):
    """Composite premultiplied RGBA src into dst, rotated about its centre, bilinear."""
    h, w = dst.shape[:2]
    sh, sw = src.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    a = math.radians(angle_deg)
    dx, dy = (xx - cx) / scale, (yy - cy) / scale
    sx = math.cos(a) * dx + math.sin(a) * dy + sw / 2 - 0.5
    sy = -math.sin(a) * dx + math.cos(a) * dy + sh / 2 - 0.5
    x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
    fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]
    pad = np.zeros((sh + 2, sw + 2, 4))
    pad[1:-1, 1:-1] = src

    def at(yi, xi):
        return pad[np.clip(yi + 1, 0, sh + 1), np.clip(xi + 1, 0, sw + 1)]

    out = (
        at(y0, x0) * (1 - fx) * (1 - fy)
        + at(y0, x0 + 1) * fx * (1 - fy)
        + at(y0 + 1, x0) * (1 - fx) * fy
        + at(y0 + 1, x0 + 1) * fx * fy
    )
    dst *= 1 - out[..., 3:4]
    dst += out


def icon(n=256) -> np.ndarray:
    cv = Canvas(n, n)
    bg = Shape([roundrect_poly(6, 6, n - 6, n - 6, 40, 12)])
    cv.draw(
        bg,
        hex_rgb("1f6b3f"),
        flip_y=False,
        layers=[(hex_rgb("5a3418"), 0.0, None), (hex_rgb("1f6b3f"), -9.0, None)],
    )
    st = mc.STYLES["classic"]
    cards = [mc.draw_face(13 * 1 + 12, st).rgba, mc.draw_face(0, st).rgba]  # KH, AS
    shadow = [c.copy() for c in cards]
    for s in shadow:
        s[..., :3] = 0
        s *= 0.35
    for card, sh_, ang, x in ((cards[0], shadow[0], -13, 108), (cards[1], shadow[1], 11, 150)):
        warp_into(cv.rgba, sh_, x + 4, 130 + 6, ang, 0.56)
        warp_into(cv.rgba, card, x, 130, ang, 0.56)
    return to_rgba8(cv.rgba)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="textures")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for name, fn in (
        *((felt_file(c), lambda c=c: felt(colour=c)) for c in FELT_COLOURS),
        ("wood.png", wood),
        ("scorepad.png", scorepad),
        ("icon.png", icon),
    ):
        save_png(os.path.join(args.out, name), fn())
        print("wrote", name)


if __name__ == "__main__":
    main()
