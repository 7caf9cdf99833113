"""Generate the interface's art in textures/: the framed button in its four states, the
panel's frame, the keyboard focus ring, and the players' round portraits (one per computer
level, one for you, one for a network opponent) with the glow that lights the one to move.

    python -m tools.make_ui [--out textures]

Each frame is drawn to be cut nine ways (Panda3D's ``DGG.TEXTUREBORDER`` relief): the
corners keep their shape whatever the widget's size, the edges and the middle stretch, so
one small image dresses every button and panel. The border widths the game cuts them with
are ``BUTTON_BORDER`` / ``PANEL_BORDER`` / ``RING_BORDER`` in ``gin3d/scene/ui/theme.py``
(fractions of the image): the corners are drawn inside them.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from gin3d.scene.ui.theme import BUTTON_STATES as STATE_ORDER

from .raster import hex_rgb, save_png, to_rgba8

BUTTON_SIZE = (128, 64)
PANEL_SIZE = (128, 128)
RING_SIZE = (128, 64)
# top and bottom of the face's gradient, the bevel's light and dark edges, the outline
BUTTON_LOOKS = {
    "normal": ("f6ead0", "d8bd86", "fff8e6", "9c7434", "3a260e", 1.0),
    "hover": ("fff5d8", "f2c866", "ffffff", "c08a2a", "4a2e0c", 1.0),
    "pressed": ("c9a461", "e6cf98", "8a6424", "fff0c8", "2a1a06", 1.0),
    "disabled": ("a8a69c", "8d8b82", "c4c2b8", "6c6a62", "4a4842", 0.8),
}


def rounded_sdf(w: int, h: int, inset: float, r: float) -> np.ndarray:
    """Signed distance in pixels (negative inside) to a rounded rectangle ``inset`` px in
    from the image's edges, corner radius ``r``; row 0 is the top."""
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    hx, hy = w / 2 - inset - r, h / 2 - inset - r
    qx = np.abs(xx - w / 2) - hx
    qy = np.abs(yy - h / 2) - hy
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    return outside + np.minimum(np.maximum(qx, qy), 0) - r


def cover(d: np.ndarray) -> np.ndarray:
    """Anti-aliased coverage of the inside of a distance field."""
    return np.clip(0.5 - d, 0.0, 1.0)


def paint(img: np.ndarray, cov: np.ndarray, rgb, alpha: float = 1.0) -> None:
    """Composite colour ``rgb`` (one colour, or an image of colours) over the premultiplied
    ``img`` where ``cov`` covers it."""
    a = (cov * alpha)[..., None]
    img[..., :3] = img[..., :3] * (1 - a) + np.asarray(rgb, float) * a
    img[..., 3:] = img[..., 3:] * (1 - a) + a


def vertical(h: int, w: int, top, bottom) -> np.ndarray:
    """A top-to-bottom colour gradient, ``h`` x ``w`` x 3."""
    t = np.linspace(0.0, 1.0, h)[:, None, None]
    return np.broadcast_to(
        np.asarray(top, float) * (1 - t) + np.asarray(bottom, float) * t, (h, w, 3)
    )


def button(state: str) -> np.ndarray:
    """A rounded button: dark outline, a bevel (light above, dark below), a soft face."""
    top, bottom, light, dark, line, alpha = (
        v if isinstance(v, float) else hex_rgb(v) for v in BUTTON_LOOKS[state]
    )
    w, h = BUTTON_SIZE
    img = np.zeros((h, w, 4))
    paint(img, cover(rounded_sdf(w, h, 1.0, 14.0)), line, alpha)
    paint(img, cover(rounded_sdf(w, h, 3.5, 11.5)), vertical(h, w, light, dark), alpha)
    paint(img, cover(rounded_sdf(w, h, 6.5, 8.5)), vertical(h, w, top, bottom), alpha)
    if state != "pressed":  # a gloss on the upper half of the face
        yy = np.arange(h)[:, None] + np.zeros((1, w))
        gloss = cover(rounded_sdf(w, h, 8.0, 7.0)) * np.clip((h * 0.48 - yy) / (h * 0.3), 0, 1)
        paint(img, gloss, (1.0, 1.0, 1.0), 0.22 * alpha)
    return to_rgba8(img)


def panel() -> np.ndarray:
    """An opaque dark-green panel with a gold frame and a thin inner line."""
    w, h = PANEL_SIZE
    img = np.zeros((h, w, 4))
    paint(img, cover(rounded_sdf(w, h, 1.0, 20.0)), hex_rgb("24180a"))
    paint(
        img,
        cover(rounded_sdf(w, h, 3.0, 18.0)),
        vertical(h, w, hex_rgb("f0d48a"), hex_rgb("9a7230")),
    )
    paint(img, cover(rounded_sdf(w, h, 7.0, 14.0)), hex_rgb("2a1c0c"))
    face = vertical(h, w, hex_rgb("1d3326"), hex_rgb("122219"))
    paint(img, cover(rounded_sdf(w, h, 9.0, 12.0)), face)
    inner = np.abs(rounded_sdf(w, h, 14.0, 8.0)) - 0.6
    paint(img, cover(inner), hex_rgb("c9a24c"), 0.55)
    return to_rgba8(img)


def focus_ring() -> np.ndarray:
    """A bright gold ring with a soft glow either side of it and a clear middle."""
    w, h = RING_SIZE
    img = np.zeros((h, w, 4))
    d = rounded_sdf(w, h, 8.0, 14.0)
    glow = np.clip(1.0 - np.abs(d) / 8.0, 0.0, 1.0) ** 1.5
    paint(img, glow, hex_rgb("ffc83a"), 0.85)
    paint(img, cover(np.abs(d) - 2.2), hex_rgb("fff6d0"))
    return to_rgba8(img)


PORTRAIT_PX = 128
# ground, figure, accessory colours and the accessory drawn on the figure
PORTRAITS = {
    "beginner": ("3f8f6a", "f3d9b8", "e0607e", "bun"),  # Rosie: a bun with a ribbon
    "simple": ("2f5f9e", "e9c9a0", "5a4632", "cap"),  # Walt: a flat cap
    "hard": ("7a2f86", "f0cfae", "2a1830", "bob"),  # Margo: a sharp bob
    "expert": ("7e2a2a", "e6c49c", "d9d9d9", "glasses"),  # Professor Vance: spectacles
    "you": ("1d5a3a", "f2e2c0", "c9a24c", "star"),  # your badge: a gold star
    "guest": ("4f5a66", "d8d8d0", "9aa4ae", "none"),  # someone over the network
}


def disc(cx: float, cy: float, r: float) -> np.ndarray:
    """Signed distance to a circle (pixels, row 0 at the top)."""
    yy, xx = np.mgrid[0:PORTRAIT_PX, 0:PORTRAIT_PX] + 0.5
    return np.hypot(xx - cx, yy - cy) - r


def oval(cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
    """Approximate signed distance to an axis-aligned ellipse."""
    yy, xx = np.mgrid[0:PORTRAIT_PX, 0:PORTRAIT_PX] + 0.5
    return (np.hypot((xx - cx) / rx, (yy - cy) / ry) - 1.0) * min(rx, ry)


def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Signed distance to an axis-aligned rectangle."""
    yy, xx = np.mgrid[0:PORTRAIT_PX, 0:PORTRAIT_PX] + 0.5
    qx = np.abs(xx - (x0 + x1) / 2) - (x1 - x0) / 2
    qy = np.abs(yy - (y0 + y1) / 2) - (y1 - y0) / 2
    return np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)


def accessory(kind: str, inside: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """(coverage, alpha) layers of a figure's accessory, clipped to the portrait."""
    if kind == "bun":
        return [(cover(disc(64, 30, 13)) * inside, 1.0), (cover(oval(64, 42, 20, 5)) * inside, 1.0)]
    if kind == "cap":
        cap = np.minimum(oval(64, 46, 25, 15), 0) + np.maximum(box(30, 30, 100, 46), 0)
        return [(cover(cap) * inside, 1.0), (cover(oval(74, 46, 30, 5)) * inside, 1.0)]
    if kind == "bob":
        hair = np.maximum(oval(64, 58, 29, 30), -box(36, 56, 92, 80))
        return [(cover(np.minimum(hair, box(34, 50, 94, 80) + 100)) * inside, 1.0)]
    if kind == "glasses":
        rims = np.minimum(np.abs(disc(54, 60, 8)) - 1.6, np.abs(disc(74, 60, 8)) - 1.6)
        bridge = box(61, 58, 67, 60)
        tie = np.minimum(box(56, 100, 64, 108), box(64, 100, 72, 108))
        return [(cover(np.minimum(rims, bridge)) * inside, 1.0), (cover(tie) * inside, 1.0)]
    if kind == "star":
        yy, xx = np.mgrid[0:PORTRAIT_PX, 0:PORTRAIT_PX] + 0.5
        ang = np.arctan2(yy - 104, xx - 64)
        r = np.hypot(xx - 64, yy - 104)
        edge = 4.5 + 4.0 * np.cos(5 * (ang + np.pi / 2)) ** 2
        return [(cover(r - edge) * inside, 1.0)]
    return []


def portrait(who: str) -> np.ndarray:
    """A stylised head and shoulders on the level's colour, in a round gold frame."""
    ground, skin, extra, kind = PORTRAITS[who]
    n = PORTRAIT_PX
    img = np.zeros((n, n, 4))
    paint(img, cover(disc(64, 64, 62)), hex_rgb("2a1c0c"))
    gold = vertical(n, n, hex_rgb("f3d88e"), hex_rgb("9a7230"))
    paint(img, cover(disc(64, 64, 60)), gold)
    inside = cover(disc(64, 64, 53))
    ground_rgb = np.asarray(hex_rgb(ground))
    paint(img, inside, vertical(n, n, np.minimum(ground_rgb * 1.35, 1), ground_rgb * 0.7))
    coat = np.asarray(hex_rgb(ground)) * 0.45
    paint(img, cover(oval(64, 122, 42, 34)) * inside, coat)  # shoulders
    paint(img, cover(box(57, 76, 71, 92)) * inside, np.asarray(hex_rgb(skin)) * 0.85)  # neck
    paint(img, cover(oval(64, 62, 20, 24)) * inside, hex_rgb(skin))  # head
    for cov, alpha in accessory(kind, inside):
        paint(img, cov, hex_rgb(extra), alpha)
    paint(img, cover(np.abs(disc(64, 64, 53)) - 1.0), hex_rgb("3a260e"), 0.8)
    return to_rgba8(img)


def portrait_glow() -> np.ndarray:
    """The light around the portrait of the player to move: a soft gold halo."""
    n = PORTRAIT_PX
    img = np.zeros((n, n, 4))
    d = disc(64, 64, 44)
    halo = np.clip(1.0 - np.maximum(d, 0) / 18.0, 0.0, 1.0) ** 1.4
    paint(img, halo, hex_rgb("ffc83a"))
    paint(img, cover(np.abs(d) - 2.0), hex_rgb("fff3c4"))  # a bright ring at the frame
    return to_rgba8(img)


def images() -> dict[str, np.ndarray]:
    out = {f"ui_button_{state}.png": button(state) for state in STATE_ORDER}
    out["ui_panel.png"] = panel()
    out["ui_focus.png"] = focus_ring()
    for who in PORTRAITS:
        out[f"portrait_{who}.png"] = portrait(who)
    out["portrait_glow.png"] = portrait_glow()
    return out


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
