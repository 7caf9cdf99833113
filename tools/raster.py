"""Tiny numpy vector rasteriser: signed distance fields, anti-aliased compositing, PNG output.

Shapes are lists of polygons in a local coordinate system (y up). They are placed on a
canvas with a centre, a scale (pixels per local unit) and a rotation. Coverage is computed
analytically from the signed distance in pixels, which gives clean anti-aliased edges
without supersampling.
"""

from __future__ import annotations

import math
import os

import numpy as np


def circle_poly(cx: float, cy: float, r: float, n: int = 64, a0: float = 0.0) -> np.ndarray:
    t = a0 + np.arange(n) * (2 * math.pi / n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def ellipse_arc(cx, cy, rx, ry, a0_deg, a1_deg, n=24) -> np.ndarray:
    t = np.radians(np.linspace(a0_deg, a1_deg, n))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], axis=1)


def bezier(p0, p1, p2, p3, n=24, include_start=True) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    if not include_start:
        t = t[1:]
    p0, p1, p2, p3 = (np.asarray(p, float) for p in (p0, p1, p2, p3))
    return ((1 - t) ** 3) * p0 + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + t**3 * p3


def rect_poly(x0, y0, x1, y1) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def roundrect_poly(x0, y0, x1, y1, r, n=10) -> np.ndarray:
    pts = []
    for cx, cy, a in (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    ):
        pts.append(ellipse_arc(cx, cy, r, r, a, a + 90, n))
    return np.concatenate(pts)


def sd_polygon(px: np.ndarray, py: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Exact signed distance (negative inside, even-odd rule) from points to a polygon."""
    a = poly
    b = np.roll(poly, -1, axis=0)
    ex = (b[:, 0] - a[:, 0])[None, :]
    ey = (b[:, 1] - a[:, 1])[None, :]
    wx = px[:, None] - a[None, :, 0]
    wy = py[:, None] - a[None, :, 1]
    ee = ex * ex + ey * ey
    ee = np.where(ee == 0, 1e-12, ee)
    t = np.clip((wx * ex + wy * ey) / ee, 0.0, 1.0)
    dx = wx - ex * t
    dy = wy - ey * t
    d2 = (dx * dx + dy * dy).min(axis=1)
    ay = a[None, :, 1]
    by = b[None, :, 1]
    cond = (ay <= py[:, None]) != (by <= py[:, None])
    xint = a[None, :, 0] + (py[:, None] - ay) * ex / np.where(ey == 0, 1e-12, ey)
    crossings = (cond & (px[:, None] < xint)).sum(axis=1)
    sign = np.where(crossings % 2 == 1, -1.0, 1.0)
    return sign * np.sqrt(d2)


def sd_segments(px, py, segs: np.ndarray) -> np.ndarray:
    """Unsigned distance to a set of segments, segs shape (N, 4): x0, y0, x1, y1."""
    ax, ay, bx, by = (segs[:, i][None, :] for i in range(4))
    ex, ey = bx - ax, by - ay
    wx, wy = px[:, None] - ax, py[:, None] - ay
    ee = np.where(ex * ex + ey * ey == 0, 1e-12, ex * ex + ey * ey)
    t = np.clip((wx * ex + wy * ey) / ee, 0.0, 1.0)
    dx, dy = wx - ex * t, wy - ey * t
    return np.sqrt((dx * dx + dy * dy).min(axis=1))


def polyline_segs(pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, float)
    return np.concatenate([pts[:-1], pts[1:]], axis=1)


class Shape:
    """A filled shape: union of polygons, minus holes, plus stroked polylines (radius r)."""

    def __init__(self, polys=(), strokes=(), stroke_r: float = 0.0, holes=()):
        self.polys = [np.asarray(p, float) for p in polys]
        self.holes = [np.asarray(p, float) for p in holes]
        self.strokes = [np.asarray(s, float) for s in strokes]
        self.stroke_r = stroke_r

    def points(self) -> np.ndarray:
        arrs = self.polys + self.strokes
        return np.concatenate(arrs) if arrs else np.zeros((0, 2))

    def sdf(self, x, y) -> np.ndarray:
        d = np.full(x.shape, 1e9)
        for p in self.polys:
            d = np.minimum(d, sd_polygon(x, y, p))
        if self.strokes:
            segs = np.concatenate([polyline_segs(s) for s in self.strokes])
            d = np.minimum(d, sd_segments(x, y, segs) - self.stroke_r)
        for h in self.holes:
            d = np.maximum(d, -sd_polygon(x, y, h))
        return d


_COV_CACHE: dict = {}


class Canvas:
    """Premultiplied RGBA float canvas, y down, pixel centres at integer + 0.5."""

    def __init__(self, w: int, h: int):
        self.w, self.h = w, h
        self.rgba = np.zeros((h, w, 4), np.float64)

    def draw(
        self,
        shape: Shape,
        color,
        cx=0.0,
        cy=0.0,
        scale=1.0,
        rot_deg=0.0,
        outline: float | None = None,
        flip_y=True,
        grow: float = 0.0,
        layers=None,
        cache: bool = False,
    ):
        """Draw shape in local coords (y up if flip_y) at pixel centre (cx, cy).

        outline: if given, draw only a ring of that pixel width centred on the edge.
        grow: dilate the shape by this many pixels (useful for outlines/halos).
        layers: optional list of (color, grow, outline) drawn in order from one SDF.
        cache: reuse coverage for identical placements (same sub-pixel offset).
        """
        if layers is None:
            layers = [(color, grow, outline)]
        ix, iy = math.floor(cx), math.floor(cy)
        key = (shape, scale, rot_deg, cx - ix, cy - iy, flip_y, tuple((g, o) for _, g, o in layers))
        hit = _COV_CACHE.get(key) if cache else None
        if hit is None:
            hit = self._coverage(shape, cx - ix, cy - iy, scale, rot_deg, flip_y, layers)
            if cache:
                _COV_CACHE[key] = hit
        rx0, ry0, covs = hit
        for (col, _, _), cov in zip(layers, covs, strict=True):
            self.fill_cov(cov, col, rx0 + ix, ry0 + iy)

    def _coverage(self, shape, cx, cy, scale, rot_deg, flip_y, layers):
        c, s = math.cos(math.radians(rot_deg)), math.sin(math.radians(rot_deg))
        fy = -1.0 if flip_y else 1.0
        pts = shape.points()
        lx, ly = pts[:, 0] * scale, pts[:, 1] * scale * fy
        ppx = cx + c * lx - s * ly
        ppy = cy + s * lx + c * ly
        pad = shape.stroke_r * scale + 2 + max(max(g + (o or 0), 0) for _, g, o in layers)
        x0 = int(math.floor(ppx.min() - pad))
        x1 = int(math.ceil(ppx.max() + pad))
        y0 = int(math.floor(ppy.min() - pad))
        y1 = int(math.ceil(ppy.max() + pad))
        yy, xx = np.mgrid[y0:y1, x0:x1]
        gx = xx.ravel() + 0.5 - cx
        gy = yy.ravel() + 0.5 - cy
        lxx = (c * gx + s * gy) / scale
        lyy = (-s * gx + c * gy) / scale * fy
        d0 = shape.sdf(lxx, lyy) * scale
        covs = []
        for _, grow, outline in layers:
            d = d0 - grow
            if outline is not None:
                d = np.abs(d) - outline / 2
            covs.append(np.clip(0.5 - d, 0.0, 1.0).reshape(y1 - y0, x1 - x0))
        return x0, y0, covs

    def fill_cov(self, cov, color, x0=0, y0=0):
        col = np.asarray(color, float)
        if col.shape[0] == 3:
            col = np.append(col, 1.0)
        h, w = cov.shape
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x0 + w, self.w), min(y0 + h, self.h)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        cov = cov[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
        a = cov * col[3]
        dst = self.rgba[cy0:cy1, cx0:cx1]
        src = np.empty(dst.shape)
        src[..., :3] = col[:3] * a[..., None]
        src[..., 3] = a
        dst *= (1.0 - a)[..., None]
        dst += src

    def over(self, other: Canvas, x0=0, y0=0):
        src = other.rgba
        h, w = src.shape[:2]
        dst = self.rgba[y0 : y0 + h, x0 : x0 + w]
        dst *= (1.0 - src[..., 3])[..., None]
        dst += src

    def rot180(self) -> Canvas:
        out = Canvas(self.w, self.h)
        out.rgba = self.rgba[::-1, ::-1].copy()
        return out


def to_rgba8(rgba: np.ndarray, bleed_rgb=(0.6, 0.6, 0.6)) -> np.ndarray:
    """Premultiplied float -> straight-alpha uint8. Fully transparent pixels get bleed_rgb so
    that filtering/mipmaps near transparent edges do not darken."""
    a = rgba[..., 3:4]
    rgb = np.where(a > 1e-6, rgba[..., :3] / np.maximum(a, 1e-6), np.asarray(bleed_rgb))
    out = np.concatenate([np.clip(rgb, 0, 1), np.clip(a, 0, 1)], axis=2)
    return np.round(out * 255.0).astype(np.uint8)


def hex_rgb(h: str):
    h = h.lstrip("#")
    return tuple(int(h[i : i + 2], 16) / 255.0 for i in (0, 2, 4))


def save_png(path: str, img: np.ndarray) -> None:
    """Write an (H, W, 3|4) uint8 array (row 0 = top) to PNG using Panda3D."""
    from panda3d.core import Filename, Texture

    h, w, ch = img.shape
    tex = Texture("tmp")
    fmt = Texture.F_rgba8 if ch == 4 else Texture.F_rgb8
    tex.setup2dTexture(w, h, Texture.T_unsigned_byte, fmt)
    order = [2, 1, 0, 3] if ch == 4 else [2, 1, 0]
    tex.setRamImage(np.ascontiguousarray(img[::-1, :, order]).tobytes())
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if not tex.write(Filename.fromOsSpecific(os.path.abspath(path))):
        raise OSError(f"could not write {path}")
