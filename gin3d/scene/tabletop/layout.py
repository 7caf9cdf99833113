"""Where cards go: pure arithmetic for every zone of the table (no Panda3D objects).

Units are centimetres on a table centred at the origin, Z up, the local player at -Y.
Positions are relative to each zone's anchor node (see ``table.TableScene``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARD_W, THICK

HAND_STEP = 4.3  # distance between neighbouring cards in the local hand
HAND_GAP = 2.6  # extra space between groups (melds, deadwood)
OPP_STEP = 2.6
SPREAD_STEP = 2.6  # overlap of cards inside a laid-out meld
SPREAD_GAP = 2.4

# the stock and the pile are drawn larger than life (their anchors are scaled), so the pile's
# top card reads at a glance: its index is 12 px or more at 1280x720
PILE_SCALE = 2.2
# once a hand is knocked the stock and the pile are done with: they are pushed aside to the
# table's left, life size, clear of the two spread rows over the middle band (left where
# they were, the far row hid their top half and your row their bottom half)
ASIDE_SCALE = 1.0
STOCK_ASIDE = (-49.0, 1.5, 0.0)
PILE_ASIDE = (-41.0, 1.5, 0.0)
STOCK_POS = (-8.8, 1.5, 0.0)
PILE_POS = (8.8, 1.5, 0.0)
HAND_POS = (0.0, -28.5, 6.4)
HAND_PITCH = 42.0  # degrees the hand plane is tilted up towards the camera
OPP_POS = (0.0, 24.0, 0.3)
# the knock spread: two rows across the middle of the table, seat 0 (local) nearer, each
# raised, tilted up to face the camera and scaled so a card's index reads (14 px or more at
# 1280x720); the far row is scaled more, so both rows look the same size
MELDS_POS = ((0.0, -13.5, 5.2), (0.0, 11.5, 5.2))
MELDS_PITCH = 40.0
MELDS_SCALE = (1.25, 1.5)
DEADWOOD_GAP = 2.2  # extra space (card units) that sets the deadwood apart from the melds
CAMERA_POS = (0.0, -58.0, 44.0)
CAMERA_LOOK = (0.0, -1.5, 0.0)
CAMERA_VFOV = 48.5  # degrees, at 16:9 and wider
# the HUD's action buttons take this much of the right edge (aspect2d units); the widest
# hand (11 cards in three groups) reaches this far right (screen units, -1..1, at 16:9) plus
# a margin: narrower windows widen the view so the two never meet
HUD_COLUMN = 0.36
HAND_REACH = 0.78


def aside(pos: tuple[float, float, float], side: int) -> tuple[float, float, float]:
    """A place aside on the left (``side`` 1) or mirrored to the right (``side`` -1)."""
    x, y, z = pos
    return (x * side, y, z)


def group_xs(sizes: Sequence[int], step: float, gap: float) -> list[float]:
    """x of each card when cards come in consecutive groups of ``sizes``, centred on 0."""
    xs: list[float] = []
    x = 0.0
    for g, n in enumerate(sizes):
        if g and n:
            x += gap
        for _ in range(n):
            xs.append(x)
            x += step
    if not xs:
        return xs
    mid = (xs[0] + xs[-1]) / 2
    return [v - mid for v in xs]


def hand_poses(
    sizes: Sequence[int], step: float = HAND_STEP, gap: float = HAND_GAP
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(pos, hpr) for the local hand: a gentle fan, left to right, later cards on top."""
    xs = group_xs(sizes, step, gap)
    n = len(xs)
    out = []
    for i, x in enumerate(xs):
        spread = x / max(1.0, step * 6)
        out.append(((x, -spread * spread * 1.2, i * THICK * 2.0), (-spread * 3.0, 0.0, 0.0)))
    return out if n else []


def opponent_poses(n: int) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(pos, hpr) for the opponent's face-down hand, fanned towards the opponent."""
    xs = group_xs([n], OPP_STEP, 0)
    return [
        ((x, -abs(x) * 0.04, i * THICK * 1.5), (180.0 - x * 0.9, 0.0, 180.0))
        for i, x in enumerate(xs)
    ]


def stock_pose(i: int) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The i-th card from the bottom of the face-down stock: a neat stack."""
    jitter = ((i * 7919) % 13 - 6) * 0.012
    return (jitter, -jitter, (i + 0.5) * THICK), (jitter * 8, 0.0, 180.0)


def pile_pose(
    i: int, face_up: bool = True
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The i-th card of the discard pile: slightly untidy, every card a little turned."""
    a = ((i * 2654435761) % 1000) / 1000.0 - 0.5
    b = ((i * 40503 + 17) % 1000) / 1000.0 - 0.5
    return (a * 0.9, b * 0.7, (i + 0.5) * THICK * 1.2), (a * 16.0, 0.0, 0.0 if face_up else 180.0)


def spread_poses(
    groups: Sequence[int], seat: int, deadwood_last: bool = False
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(pos, hpr) for a laid-out hand: melds in a row, a gap between them, all face up; with
    ``deadwood_last`` the last group (the deadwood) sits further apart and a little askew."""
    xs = group_xs(groups, SPREAD_STEP, SPREAD_GAP + CARD_W - SPREAD_STEP)
    out = [((x, 0.0, i * THICK), (0.0, 0.0, 0.0)) for i, x in enumerate(xs)]
    if deadwood_last and len(groups) > 1 and groups[-1]:
        n = groups[-1]
        shift = DEADWOOD_GAP / 2
        for k, ((x, y, z), hpr) in enumerate(out):
            if k < len(out) - n:
                out[k] = ((x - shift, y, z), hpr)
            else:
                out[k] = ((x + shift, y - 0.4, z), (-3.0 + 3.0 * (k % 3), 0.0, 0.0))
    return out


def deck_pose(i: int) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """A card of the gathered deck before the deal (same place as the stock)."""
    return stock_pose(i)
