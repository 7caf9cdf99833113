"""Generate the card atlases (one per style) and textures/cards_atlas.json.

    python -m tools.make_cards [--out textures]

Everything is drawn with numpy signed-distance rasterisation; no fonts or images are used.
"""

from __future__ import annotations

import argparse
import json
import math
import os

import numpy as np

from .raster import (
    Canvas,
    Shape,
    bezier,
    circle_poly,
    ellipse_arc,
    hex_rgb,
    rect_poly,
    roundrect_poly,
    save_png,
    to_rgba8,
)
from .shapes import RANK_LABELS, SUIT_SHAPES, glyph_shape

SUITS = "SHDC"
RANKS = "A23456789TJQK"
CARD_W, CARD_H = 240, 336  # card pixels (exact 5:7 = 2.5:3.5)
SLOT_W, SLOT_H = 256, 372  # atlas slot incl. transparent padding
COLS, ROWS = 8, 11
ATLAS_W, ATLAS_H = 2048, 4096
PAD_X, PAD_Y = (SLOT_W - CARD_W) // 2, (SLOT_H - CARD_H) // 2
CORNER_R = 13.0  # px; the card model uses the same ratio (13/240 of width)
BORDER_GREY = (0.62, 0.62, 0.60)
BACKS = ["back_blue", "back_red", "back_harlequin"]  # Settings -> Card back offers each

WHITE = hex_rgb("fcfbf7")
GOLD = hex_rgb("d9a520")
GOLD_DARK = hex_rgb("7a5a0c")
CREAM = hex_rgb("f7eed4")
INK = hex_rgb("1c1c1c")

CLASSIC = {
    "S": hex_rgb("161616"),
    "H": hex_rgb("c8102e"),
    "D": hex_rgb("c8102e"),
    "C": hex_rgb("161616"),
}
FOUR = {
    "S": hex_rgb("161616"),
    "H": hex_rgb("c8102e"),
    "D": hex_rgb("1a4fb5"),
    "C": hex_rgb("16803a"),
}

STYLES = {
    "classic": dict(
        colors=CLASSIC,
        rank_h=38,
        rank_c=(23, 32),
        suit_h=26,
        suit_c=(23, 72),
        weight=0.085,
        pip_h=44,
        cols=(70, 120, 170),
        rows=(64, 272),
        frame_x=46,
    ),
    "four_colour": dict(
        colors=FOUR,
        rank_h=38,
        rank_c=(23, 32),
        suit_h=26,
        suit_c=(23, 72),
        weight=0.085,
        pip_h=44,
        cols=(70, 120, 170),
        rows=(64, 272),
        frame_x=46,
    ),
    "large_index": dict(
        colors=CLASSIC,
        rank_h=62,
        rank_c=(32, 44),
        suit_h=40,
        suit_c=(32, 106),
        weight=0.09,
        pip_h=36,
        cols=(84, 120, 156),
        rows=(74, 262),
        frame_x=66,
    ),
}


def card_id(index: int) -> str:
    return RANKS[index % 13] + SUITS[index // 13]


def slot_origin(slot: int):
    col, row = slot % COLS, slot // COLS
    return col * SLOT_W + PAD_X, row * SLOT_H + PAD_Y


def uv_rect(slot: int):
    x, y = slot_origin(slot)
    return [x / ATLAS_W, 1.0 - (y + CARD_H) / ATLAS_H, (x + CARD_W) / ATLAS_W, 1.0 - y / ATLAS_H]


# --- card body --------------------------------------------------------------------------

BODY = Shape([roundrect_poly(0, 0, CARD_W, CARD_H, CORNER_R, 12)])


_BLANK: list = []


def blank_card() -> Canvas:
    """White rounded card with a thin grey border; transparent outside the corners."""
    if not _BLANK:
        cv = Canvas(CARD_W, CARD_H)
        cv.draw(
            BODY,
            WHITE,
            0,
            0,
            1.0,
            flip_y=False,
            layers=[(BORDER_GREY, 0.0, None), (WHITE, -1.6, None)],
        )
        _BLANK.append(cv.rgba)
    cv = Canvas(CARD_W, CARD_H)
    cv.rgba = _BLANK[0].copy()
    return cv


def pip_positions(rank: int, cols, rows):
    """Pip centres (x, y, upside_down) for ranks 2..10 (rank index 1..9)."""
    lx, cx, rx = cols
    top, bot = rows
    mid = (top + bot) / 2
    q = [top + (bot - top) * k / 3 for k in range(4)]
    n = rank + 1
    p = []
    if n in (2, 3):
        p += [(cx, top), (cx, bot)]
        if n == 3:
            p.append((cx, mid))
    elif n in (4, 5):
        p += [(lx, top), (rx, top), (lx, bot), (rx, bot)]
        if n == 5:
            p.append((cx, mid))
    elif n in (6, 7, 8):
        p += [(lx, top), (rx, top), (lx, mid), (rx, mid), (lx, bot), (rx, bot)]
        if n >= 7:
            p.append((cx, (top + mid) / 2))
        if n == 8:
            p.append((cx, (mid + bot) / 2))
    elif n in (9, 10):
        p += [(x, y) for y in q for x in (lx, rx)]
        if n == 9:
            p.append((cx, mid))
        else:
            p += [(cx, (q[0] + q[1]) / 2), (cx, (q[2] + q[3]) / 2)]
    return [(x, y, y > mid + 0.5) for x, y in p]


def draw_index(cv: Canvas, rank: int, suit: str, st: dict, color) -> None:
    """Corner index top-left, plus its 180-degree copy bottom-right."""
    layer = Canvas(CARD_W, CARD_H)
    label = RANK_LABELS[rank]
    h = st["rank_h"]
    sx = 0.86 if label == "10" else 1.0
    g = glyph_shape(label, st["weight"])
    g = Shape(strokes=[s * np.array([sx, 1.0]) for s in g.strokes], stroke_r=g.stroke_r)
    layer.draw(g, color, st["rank_c"][0], st["rank_c"][1], h)
    layer.draw(SUIT_SHAPES[suit], color, st["suit_c"][0], st["suit_c"][1], st["suit_h"], cache=True)
    cv.over(layer)
    cv.over(layer.rot180())


# --- court cards ------------------------------------------------------------------------


def _ol(cv, shape, fill, cx, cy, s, w=1.6, edge=GOLD_DARK):
    """Fill a shape with a dark outline of w pixels (one SDF evaluation)."""
    cv.draw(shape, fill, cx, cy, s, layers=[(edge, w, None), (fill, 0.0, None)])


def _rot(pts, ang):
    c, s = math.cos(ang), math.sin(ang)
    return np.asarray(pts, float) @ np.array([[c, s], [-s, c]])


def _crown(cv, cx, cy, s, color):
    """King's crown, spans local y -8..62 (units ~ pixels at s = 1)."""
    base = rect_poly(-40, -8, 40, 8)
    spikes = np.array([(-40, 8), (-44, 44), (-22, 20), (0, 52), (22, 20), (44, 44), (40, 8)], float)
    _ol(cv, Shape([base, spikes]), GOLD, cx, cy, s, 2.2)
    cv.draw(Shape([rect_poly(-40, -1.5, 40, 1.5)]), GOLD_DARK, cx, cy, s)
    for x, y, r in ((-44, 46, 5.5), (0, 55, 6.5), (44, 46, 5.5)):
        _ol(cv, Shape([circle_poly(x, y, r, 32)]), GOLD, cx, cy, s, 1.4)
    for x in (-26, 0, 26):
        _ol(cv, Shape([circle_poly(x, 0, 4.5, 32)]), color, cx, cy, s, 1.0)
    _ol(cv, Shape([circle_poly(0, 28, 5.5, 32)]), color, cx, cy, s, 1.0)
    for x in (-24, 24):
        _ol(cv, Shape([circle_poly(x, 24, 3.2, 24)]), WHITE, cx, cy, s, 1.0)


def _tiara(cv, cx, cy, s, color, suit):
    """Queen's tiara, spans local y ~ -2..44."""
    band = np.concatenate(
        [ellipse_arc(0, -14, 50, 36, 18, 162, 30), ellipse_arc(0, -14, 40, 24, 162, 18, 30)]
    )
    _ol(cv, Shape([band]), GOLD, cx, cy, s, 2.0)
    for a in range(30, 151, 15):
        x, y = 50 * math.cos(math.radians(a)), -14 + 36 * math.sin(math.radians(a))
        r = 4.5 if a != 90 else 0
        if r:
            _ol(cv, Shape([circle_poly(x, y + 3, r, 24)]), WHITE, cx, cy, s, 1.2)
    _ol(cv, SUIT_SHAPES[suit], color, cx, cy - 24 * s, s * 22, 2.0, GOLD)
    cv.draw(SUIT_SHAPES[suit], GOLD_DARK, cx, cy - 24 * s, s * 22, outline=0.8, grow=2.0)


def _flower(cv, cx, cy, s, color):
    """Queen's rose with leaves, spans local y ~ -46..24."""
    stem = Shape(strokes=[np.array([[0, 0], [0, -46]])], stroke_r=2.4)
    cv.draw(stem, GOLD_DARK, cx, cy, s)
    leaf = np.concatenate(
        [
            bezier((0, 0), (8, 8), (22, 8), (34, 0), 14),
            bezier((34, 0), (22, -8), (8, -8), (0, 0), 14, False)[:-1],
        ]
    )
    for sign in (-1, 1):
        lf = _rot(leaf * np.array([sign, 1.0]), sign * 0.45) + np.array([sign * 2, -34])
        _ol(cv, Shape([lf]), GOLD, cx, cy, s, 1.3)
        vein = Shape(
            strokes=[
                _rot(np.array([[4 * sign, 0], [26 * sign, 0]]), sign * 0.45)
                + np.array([sign * 2, -34])
            ],
            stroke_r=0.6,
        )
        cv.draw(vein, GOLD_DARK, cx, cy, s)
    for k in range(8):
        a = k * math.pi / 4 + math.pi / 8
        pet = Shape([circle_poly(14 * math.cos(a), 14 * math.sin(a), 10, 32)])
        _ol(cv, pet, color, cx, cy, s, 1.4)
    for k in range(5):
        a = k * 2 * math.pi / 5 + math.pi / 2
        pet = Shape([circle_poly(7 * math.cos(a), 7 * math.sin(a), 6, 24)])
        _ol(cv, pet, color, cx, cy, s, 1.2, GOLD)
    _ol(cv, Shape([circle_poly(0, 0, 5, 32)]), GOLD, cx, cy, s, 1.2)


def _cap(cv, cx, cy, s, color):
    """Jack's feathered cap, spans local y ~ -8..60."""
    feather = np.concatenate(
        [
            bezier((-6, 10), (10, 60), (40, 70), (62, 62), 20),
            bezier((62, 62), (40, 52), (16, 36), (6, 8), 20, False)[:-1],
        ]
    )
    _ol(cv, Shape([feather]), GOLD, cx, cy, s, 1.6)
    quill = Shape(strokes=[bezier((0, 10), (16, 48), (38, 60), (60, 61), 16)], stroke_r=0.9)
    cv.draw(quill, GOLD_DARK, cx, cy, s)
    for k in range(6):
        t = 0.2 + 0.13 * k
        p = bezier((0, 10), (16, 48), (38, 60), (60, 61), 101)[int(t * 100)]
        barb = Shape(strokes=[np.array([p, p + np.array([6, -7])])], stroke_r=0.6)
        cv.draw(barb, GOLD_DARK, cx, cy, s)
    crown = np.concatenate([ellipse_arc(0, 0, 38, 34, 0, 180, 40)])
    _ol(cv, Shape([crown]), color, cx, cy, s, 2.0)
    brim = np.concatenate([ellipse_arc(0, 0, 52, 9, 180, 360, 30), [(52, 2), (-52, 2)]])
    _ol(cv, Shape([brim]), color, cx, cy, s, 2.0)
    band = Shape([rect_poly(-38, 0, 38, 9)])
    _ol(cv, band, GOLD, cx, cy, s, 1.5)
    for x in (-26, -9, 9, 26):
        cv.draw(Shape([circle_poly(x, 4.5, 2.6, 24)]), color, cx, cy, s)


def _shield(cv, cx, cy, s, color, suit):
    """Heraldic shield with a white suit symbol, spans local y ~ -30..24."""
    sh = np.concatenate(
        [
            [(-28, 24), (28, 24)],
            ellipse_arc(-28, 24, 56, 54, 0, -60, 16)[1:],
            ellipse_arc(28, 24, 56, 54, 240, 180, 16)[1:],
        ]
    )
    cv.draw(
        Shape([sh]),
        color,
        cx,
        cy,
        s,
        layers=[(GOLD_DARK, 3.4, None), (GOLD, 2.2, None), (color, 0.0, None)],
    )
    cv.draw(SUIT_SHAPES[suit], WHITE, cx, cy - 2 * s, s * 26)


def _sceptres(cv, cx, cy, s):
    for sign in (-1, 1):
        line = np.array([[sign * -44, -30], [sign * 44, 24]])
        cv.draw(
            Shape(strokes=[line], stroke_r=2.2),
            GOLD,
            cx,
            cy,
            s,
            layers=[(GOLD_DARK, 1.2, None), (GOLD, 0.0, None)],
        )
        for t in (0.0, 1.0):
            p = line[0] + (line[1] - line[0]) * t
            _ol(cv, Shape([circle_poly(p[0], p[1], 5 if t else 3.5, 24)]), GOLD, cx, cy, s, 1.2)
        fl = np.array([[sign * 44, 24]]) + circle_poly(0, 0, 8, 4, math.pi / 4) * 0.8
        _ol(cv, Shape([fl]), GOLD, cx, cy, s, 1.2)


def _swords(cv, cx, cy, s, color):
    """Two crossed swords, spans local ~ +-44 x, -40..40 y."""
    for sign in (-1, 1):
        blade = np.array([[-3.4, -6], [3.4, -6], [3.4, 40], [0, 50], [-3.4, 40]])
        guard = rect_poly(-13, -11, 13, -6)
        grip = rect_poly(-2.6, -24, 2.6, -11)
        pommel = circle_poly(0, -27, 4.2, 20)
        for poly, col in ((blade, hex_rgb("d5d8de")), (guard, GOLD), (grip, color), (pommel, GOLD)):
            p = _rot(poly + np.array([0, -10]), sign * 0.62)
            _ol(cv, Shape([p]), col, cx, cy, s, 1.2, INK if col is color else GOLD_DARK)
        ridge = Shape(strokes=[_rot(np.array([[0, -4], [0, 36]]), sign * 0.62)], stroke_r=0.5)
        cv.draw(ridge, hex_rgb("8a8f99"), cx, cy, s)


def draw_court(cv: Canvas, rank: int, suit: str, st: dict, color) -> None:
    fx0 = st["frame_x"]
    fx1 = CARD_W - fx0
    fy0 = 22 if fx0 < 60 else 34
    fy1 = CARD_H - fy0
    fw = fx1 - fx0
    frame = Shape([rect_poly(fx0, fy0, fx1, fy1)])
    cv.draw(
        frame,
        color,
        0,
        0,
        1,
        flip_y=False,
        layers=[(color, 2.0, None), (GOLD, 0.5, None), (CREAM, -1.5, None)],
    )
    # faint diagonal lattice inside the frame
    yy, xx = np.mgrid[fy0:fy1, fx0:fx1] + 0.5
    per = 9.0
    u = np.abs(((xx + yy) % per) - per / 2)
    v = np.abs(((xx - yy) % per) - per / 2)
    lat = np.clip(np.maximum(u, v) - (per / 2 - 0.9) + 0.5, 0, 1) * 0.16
    m = Canvas(CARD_W, CARD_H)
    m.fill_cov(lat, color, fx0, fy0)
    inner = Canvas(CARD_W, CARD_H)
    inner.draw(frame, (1, 1, 1, 1), 0, 0, 1, flip_y=False, grow=-2.5)
    m.rgba *= inner.rgba[..., 3:4]
    cv.over(m)

    half = Canvas(CARD_W, CARD_H)
    s = min(fw / 150.0, (CARD_H / 2 - fy0) / 146.0)
    cx = CARD_W / 2
    top_c = fy0 + (CARD_H / 2 - fy0) * 0.5

    def at(ly):  # local y (up, relative to the half's centre) -> pixel y
        return top_c - ly * s

    if rank == 12:  # king: crown above a shield on crossed sceptres
        _crown(half, cx, at(4), s, color)
        _sceptres(half, cx, at(-40), s)
        _shield(half, cx, at(-38), s, color, suit)
    elif rank == 11:  # queen: tiara above a rose
        _tiara(half, cx, at(22), s, color, suit)
        _flower(half, cx, at(-28), s, color)
        for sign in (-1, 1):
            half.draw(SUIT_SHAPES[suit], color, cx + sign * 46 * s, at(-52), 16 * s)
    else:  # jack: feathered cap above crossed swords
        _cap(half, cx, at(5), s * 0.92, color)
        _swords(half, cx, at(-38), s * 0.8, color)
        _ol(half, SUIT_SHAPES[suit], color, cx, at(-40), 16 * s, 1.6, GOLD)
    # keep the top half inside the frame, then mirror it (rotate 180) like real courts
    half.rgba[CARD_H // 2 :] = 0
    half.rgba *= inner.rgba[..., 3:4]
    cv.over(half)
    cv.over(half.rot180())
    band = Shape([rect_poly(fx0, CARD_H / 2 - 2.5, fx1, CARD_H / 2 + 2.5)])
    cv.draw(band, GOLD, 0, 0, 1, flip_y=False, layers=[(GOLD_DARK, 0.8, None), (GOLD, 0, None)])


# --- whole cards ------------------------------------------------------------------------


def draw_face(index: int, st: dict) -> Canvas:
    suit, rank = SUITS[index // 13], index % 13
    color = st["colors"][suit]
    cv = blank_card()
    shape = SUIT_SHAPES[suit]
    if rank == 0:
        big = 118 if suit == "S" else 100
        if suit == "S":
            layers = [
                (color, 9, None),
                (WHITE, 6, None),
                (GOLD, 4.5, None),
                (WHITE, 3, None),
                (color, 0, None),
            ]
        else:
            layers = [(color, 0, None)]
        cv.draw(shape, color, CARD_W / 2, CARD_H / 2, big, layers=layers, cache=True)
    elif rank <= 9:
        for x, y, flip in pip_positions(rank, st["cols"], st["rows"]):
            cv.draw(shape, color, x, y, st["pip_h"], rot_deg=180 if flip else 0, cache=True)
    else:
        draw_court(cv, rank, suit, st, color)
    draw_index(cv, rank, suit, st, color)
    return cv


def draw_back(name: str) -> Canvas:
    if name == "back_harlequin":
        return draw_harlequin()
    base = hex_rgb("1e3f91") if name == "back_blue" else hex_rgb("a3182b")
    light = tuple(min(1.0, c * 0.45 + 0.6) for c in base)
    cv = blank_card()
    m = 11.0
    inner = Shape([roundrect_poly(m, m, CARD_W - m, CARD_H - m, 7, 8)])
    cv.draw(inner, base, 0, 0, 1, flip_y=False)
    # pattern: supersampled 3x, lattice + guilloche rosette, inside the inner panel
    ss = 3
    x0, y0, x1, y1 = int(m), int(m), int(CARD_W - m), int(CARD_H - m)
    w, h = (x1 - x0) * ss, (y1 - y0) * ss
    yy, xx = np.mgrid[0:h, 0:w]
    px = x0 + (xx + 0.5) / ss - CARD_W / 2
    py = y0 + (yy + 0.5) / ss - CARD_H / 2
    per = 12.0
    lw = 0.9
    u = (px + py) / math.sqrt(2)
    v = (px - py) / math.sqrt(2)
    du = np.abs((u % per) - per / 2)
    dv = np.abs((v % per) - per / 2)
    lattice = (du < lw / 2) | (dv < lw / 2)
    # second lattice: wavy lines, the classic engine-turned look
    wav = np.abs(((u + 2.2 * np.sin(v * 2 * math.pi / per)) % per) - per / 2) < lw * 0.45
    r = np.hypot(px, py)
    th = np.arctan2(py, px)
    ros = np.zeros_like(lattice)
    for radius, amp, lobes in ((28, 9, 12), (52, 10, 16), (76, 8, 20)):
        for k in range(5):
            f = r - (radius + amp * np.sin(lobes * th + k * 2 * math.pi / (lobes * 5)))
            ros |= np.abs(f) < 0.55
    disc = r < 92
    pattern = np.where(disc, ros, lattice | wav)
    ring = (np.abs(r - 92) < 1.6) | (np.abs(r - 97) < 0.8)
    cov = (pattern | ring).astype(np.float64)
    cov = cov.reshape(h // ss, ss, w // ss, ss).mean(axis=(1, 3))
    layer = Canvas(CARD_W, CARD_H)
    layer.fill_cov(cov * 0.85, light, x0, y0)
    panel = Canvas(CARD_W, CARD_H)
    panel.draw(inner, (1, 1, 1, 1), 0, 0, 1, flip_y=False, grow=-5)
    layer.rgba *= panel.rgba[..., 3:4]
    cv.over(layer)
    frame = Shape([roundrect_poly(m + 5, m + 5, CARD_W - m - 5, CARD_H - m - 5, 4, 6)])
    cv.draw(frame, light, 0, 0, 1, flip_y=False, outline=1.4)
    cv.draw(inner, light, 0, 0, 1, flip_y=False, outline=1.0, grow=-1.5)
    # central medallion: a suit-free four-leaf emblem
    emb = Shape([circle_poly(0, 0, 13, 48)])
    cv.draw(emb, light, CARD_W / 2, CARD_H / 2, 1)
    for k in range(4):
        a = k * math.pi / 2
        petal = Shape([circle_poly(16 * math.cos(a), 16 * math.sin(a), 8, 32)])
        cv.draw(petal, light, CARD_W / 2, CARD_H / 2, 1)
    cv.draw(Shape([circle_poly(0, 0, 7, 32)]), base, CARD_W / 2, CARD_H / 2, 1)
    return cv


HARLEQUIN_DARK = hex_rgb("0f3d2c")  # bottle green
HARLEQUIN_LIGHT = hex_rgb("1b5e43")


def draw_harlequin() -> Canvas:
    """A patterned back: harlequin diamonds in two greens, fine gold lines on their edges, a
    gold frame and a gold lozenge in the middle (no suit: the back must not hint at a face)."""
    cv = blank_card()
    m = 11.0
    inner = Shape([roundrect_poly(m, m, CARD_W - m, CARD_H - m, 7, 8)])
    cv.draw(inner, HARLEQUIN_DARK, 0, 0, 1, flip_y=False)
    ss = 3
    x0, y0, x1, y1 = int(m), int(m), int(CARD_W - m), int(CARD_H - m)
    w, h = (x1 - x0) * ss, (y1 - y0) * ss
    yy, xx = np.mgrid[0:h, 0:w]
    px = x0 + (xx + 0.5) / ss - CARD_W / 2
    py = y0 + (yy + 0.5) / ss - CARD_H / 2
    # diamonds 2*dw wide and 2*dh tall, one centred on the card
    dw, dh = 20.0, 28.0
    a = px / dw + py / dh
    b = px / dw - py / dh
    light_cell = (np.floor(a + 0.5) + np.floor(b + 0.5)) % 2 == 0
    edge = np.minimum(np.abs(a - np.round(a - 0.5) - 0.5), np.abs(b - np.round(b - 0.5) - 0.5))
    line = edge < 0.03
    shade = Canvas(CARD_W, CARD_H)
    shade.fill_cov(
        light_cell.reshape(h // ss, ss, w // ss, ss).mean(axis=(1, 3)), HARLEQUIN_LIGHT, x0, y0
    )
    gold = Canvas(CARD_W, CARD_H)
    gold.fill_cov(line.reshape(h // ss, ss, w // ss, ss).mean(axis=(1, 3)) * 0.8, GOLD, x0, y0)
    panel = Canvas(CARD_W, CARD_H)
    panel.draw(inner, (1, 1, 1, 1), 0, 0, 1, flip_y=False, grow=-5)
    for layer in (shade, gold):
        layer.rgba *= panel.rgba[..., 3:4]
        cv.over(layer)
    frame = Shape([roundrect_poly(m + 5, m + 5, CARD_W - m - 5, CARD_H - m - 5, 4, 6)])
    cv.draw(frame, GOLD, 0, 0, 1, flip_y=False, outline=1.6)
    cv.draw(inner, GOLD, 0, 0, 1, flip_y=False, outline=1.0, grow=-1.5)
    lozenge = Shape([[(0, -30), (21, 0), (0, 30), (-21, 0)]])
    cv.draw(lozenge, GOLD_DARK, CARD_W / 2, CARD_H / 2, 1)
    cv.draw(lozenge, GOLD, CARD_W / 2, CARD_H / 2, 0.8)
    cv.draw(Shape([circle_poly(0, 0, 6, 32)]), HARLEQUIN_DARK, CARD_W / 2, CARD_H / 2, 1)
    return cv


def build_atlas(style: str) -> np.ndarray:
    st = STYLES[style]
    atlas = np.zeros((ATLAS_H, ATLAS_W, 4), np.float64)
    cards = [draw_face(i, st) for i in range(52)] + [draw_back(b) for b in BACKS]
    for slot, cv in enumerate(cards):
        x, y = slot_origin(slot)
        atlas[y : y + CARD_H, x : x + CARD_W] = cv.rgba
    return to_rgba8(atlas, BORDER_GREY)


def atlas_json() -> dict:
    cards = {card_id(i): uv_rect(i) for i in range(52)}
    backs = {b: uv_rect(52 + k) for k, b in enumerate(BACKS)}
    return {
        "format": "gin3d-card-atlas-1",
        "atlas_size": [ATLAS_W, ATLAS_H],
        "card_px": [CARD_W, CARD_H],
        "slot_px": [SLOT_W, SLOT_H],
        "grid": [COLS, ROWS],
        "corner_radius_px": CORNER_R,
        "uv_note": "uv = [u0, v0, u1, v1], Panda3D convention (v = 0 at the bottom of the image)",
        "id_order": [card_id(i) for i in range(52)],
        "suits": list(SUITS),
        "ranks": list(RANKS),
        "styles": {s: f"cards_{s}.png" for s in STYLES},
        "cards": cards,
        "backs": backs,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="textures")
    ap.add_argument("--styles", nargs="*", default=list(STYLES))
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for style in args.styles:
        save_png(os.path.join(args.out, f"cards_{style}.png"), build_atlas(style))
        print("wrote", f"cards_{style}.png")
    with open(os.path.join(args.out, "cards_atlas.json"), "w", encoding="utf-8") as f:
        json.dump(atlas_json(), f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
