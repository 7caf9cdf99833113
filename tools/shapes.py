"""Vector suit symbols and a hand-drawn stroke font for card indices (no font files)."""

from __future__ import annotations

import numpy as np

from .raster import Shape, bezier, circle_poly, ellipse_arc


def _normalise(polys, height=1.0):
    allp = np.concatenate(polys)
    y0, y1 = allp[:, 1].min(), allp[:, 1].max()
    x0, x1 = allp[:, 0].min(), allp[:, 0].max()
    s = height / (y1 - y0)
    c = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    return [(p - c) * s for p in polys]


def _heart_outline(n=110):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
    return np.stack([x, y], 1) / 32.0


def _stem(top_y, bot_y, top_w, bot_w):
    left = bezier(
        (-top_w, top_y), (-top_w, bot_y + 0.1), (-bot_w * 0.5, bot_y), (-bot_w, bot_y), 16
    )
    right = bezier((bot_w, bot_y), (bot_w * 0.5, bot_y), (top_w, bot_y + 0.1), (top_w, top_y), 16)
    return np.concatenate([left, right])


def heart() -> Shape:
    return Shape(_normalise([_heart_outline()]))


def spade() -> Shape:
    body = _heart_outline() * np.array([1.0, -1.0]) + np.array([0.0, 0.12])
    stem = _stem(-0.05, -0.62, 0.045, 0.2)
    return Shape(_normalise([body, stem]))


def diamond() -> Shape:
    h, w = 0.5, 0.37
    k = 0.08
    pts = np.concatenate(
        [
            bezier((0, h), (w * 0.35, h * 0.55 - k * 0), (w * 0.6, h * 0.3), (w, 0), 16),
            bezier((w, 0), (w * 0.6, -h * 0.3), (w * 0.35, -h * 0.55), (0, -h), 16, False),
            bezier((0, -h), (-w * 0.35, -h * 0.55), (-w * 0.6, -h * 0.3), (-w, 0), 16, False),
            bezier((-w, 0), (-w * 0.6, h * 0.3), (-w * 0.35, h * 0.55), (0, h), 16, False)[:-1],
        ]
    )
    return Shape(_normalise([pts]))


def club() -> Shape:
    r = 0.215
    polys = [
        circle_poly(0, 0.27, r, 72),
        circle_poly(-0.25, -0.07, r, 72),
        circle_poly(0.25, -0.07, r, 72),
        np.array([[0, 0.2], [-0.2, -0.05], [0, -0.18], [0.2, -0.05]]),
        _stem(0.0, -0.52, 0.05, 0.19),
    ]
    return Shape(_normalise(polys))


SUIT_SHAPES = {"S": spade(), "H": heart(), "D": diamond(), "C": club()}

# --- stroke font --------------------------------------------------------------------------
# Glyphs live in a box of height 1 (y up, baseline at 0). Each glyph: (width, [polylines]).


def _g(width, *lines):
    return width, [np.asarray(line, float) for line in lines]


def _glyphs():
    g = {}
    g["A"] = _g(0.64, [(0, 0), (0.32, 1), (0.64, 0)], [(0.12, 0.33), (0.52, 0.33)])
    g["2"] = _g(
        0.6,
        np.concatenate(
            [ellipse_arc(0.3, 0.71, 0.28, 0.29, 165, -38, 28), [(0.02, 0.0), (0.62, 0.0)]]
        ),
    )
    g["3"] = _g(
        0.6,
        ellipse_arc(0.29, 0.755, 0.255, 0.245, 155, -90, 28),
        ellipse_arc(0.29, 0.265, 0.3, 0.265, 90, -155, 30),
    )
    g["4"] = _g(0.62, [(0.47, 0), (0.47, 1), (0.0, 0.3), (0.64, 0.3)])
    g["5"] = _g(
        0.6,
        np.concatenate(
            [
                [(0.56, 1.0), (0.09, 1.0), (0.05, 0.55)],
                ellipse_arc(0.3, 0.32, 0.3, 0.32, 135, -150, 30),
            ]
        ),
    )
    g["6"] = _g(
        0.6,
        ellipse_arc(0.3, 0.3, 0.3, 0.3, 0, 360, 40),
        bezier((0.0, 0.3), (0.0, 0.82), (0.2, 1.0), (0.52, 0.98), 20),
    )
    g["7"] = _g(0.6, [(0.0, 1.0), (0.6, 1.0), (0.2, 0.0)])
    g["8"] = _g(
        0.6,
        ellipse_arc(0.3, 0.765, 0.24, 0.235, 0, 360, 40),
        ellipse_arc(0.3, 0.27, 0.3, 0.27, 0, 360, 40),
    )
    g["9"] = _g(
        0.6,
        ellipse_arc(0.3, 0.7, 0.3, 0.3, 0, 360, 40),
        bezier((0.6, 0.7), (0.6, 0.18), (0.4, 0.0), (0.08, 0.02), 20),
    )
    g["10"] = _g(
        0.78, [(0.0, 0.8), (0.13, 1.0), (0.13, 0.0)], ellipse_arc(0.56, 0.5, 0.22, 0.5, 0, 360, 44)
    )
    g["1"] = _g(0.3, [(0.05, 0.8), (0.2, 1.0), (0.2, 0.0)])
    g["0"] = _g(0.56, ellipse_arc(0.28, 0.5, 0.28, 0.5, 0, 360, 44))
    g["J"] = _g(
        0.56,
        [(0.18, 1.0), (0.62, 1.0)],
        np.concatenate([[(0.46, 1.0)], ellipse_arc(0.23, 0.3, 0.23, 0.3, 0, -180, 24)]),
    )
    g["Q"] = _g(0.68, ellipse_arc(0.34, 0.5, 0.34, 0.5, 0, 360, 48), [(0.4, 0.22), (0.7, -0.06)])
    g["K"] = _g(
        0.6, [(0.0, 0.0), (0.0, 1.0)], [(0.6, 1.0), (0.02, 0.36)], [(0.2, 0.58), (0.62, 0.0)]
    )
    return g


GLYPHS = _glyphs()
RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def glyph_shape(label: str, weight: float = 0.085) -> Shape:
    """Stroke glyph centred on the origin, height 1 (plus stroke radius)."""
    width, lines = GLYPHS[label]
    off = np.array([width / 2, 0.5])
    return Shape(strokes=[ln - off for ln in lines], stroke_r=weight)


def glyph_width(label: str) -> float:
    return GLYPHS[label][0]
