"""A flourish for the big moments: suit pips burst out from behind the banner and fall away.

Gin, Big Gin and an undercut get one over their banner (``TableScene``); a plain knock does
not. The pips are the card art's own (``Atlas.suit_icons``), a few dozen textured quads on
the 2D overlay moved by intervals: no particle system, nothing left behind once it ends, and
the same burst for the same moment (its own seeded generator). Every pip is a copy of one
unit quad, so a burst adds no vertex buffers to the renderer, however many pips it has.
"""

from __future__ import annotations

import math
import random

from direct.interval.IntervalGlobal import (
    Func,
    LerpColorScaleInterval,
    LerpPosHprInterval,
    Parallel,
    Sequence,
    Wait,
)
from panda3d.core import CardMaker, NodePath, TransparencyAttrib

# (pips, how far they fly in aspect2d units) per kind of moment
BURSTS = {"gin": (28, 0.9), "big_gin": (44, 1.15), "undercut": (24, 0.8)}
_icons: dict[str, list] = {}  # atlas image -> its four suit textures, cut once
_quads: list[NodePath] = []  # the one unit quad every pip draws (one vertex buffer for all)


def _quad() -> NodePath:
    if not _quads:
        cm = CardMaker("pip")
        cm.setFrame(-1, 1, -1, 1)
        _quads.append(NodePath(cm.generate()))
    return _quads[0]


def suit_textures(atlas) -> list:
    key = getattr(atlas, "image_path", id(atlas))
    if key not in _icons:
        _icons[key] = atlas.suit_icons()
    return _icons[key]


def burst(parent: NodePath, atlas, kind: str, seconds: float, centre=(0.0, 0.25)) -> Sequence:
    """The flourish for ``kind`` (gin, big_gin, undercut) over ``seconds``, as an interval;
    its pips are made when it starts and removed when it ends."""
    count, reach = BURSTS[kind]
    rng = random.Random(f"burst:{kind}")
    textures = suit_textures(atlas)
    root = NodePath(f"burst-{kind}")
    moves = []
    quad = _quad()
    for i in range(count):
        pip = quad.copyTo(root)  # the nodes are new, the quad's vertices are shared
        pip.setScale(rng.uniform(0.035, 0.06))
        pip.setTexture(textures[i % 4])
        pip.setTransparency(TransparencyAttrib.MAlpha)
        angle = 2 * math.pi * (i + rng.random() * 0.6) / count
        far = reach * rng.uniform(0.55, 1.0)
        end = (centre[0] + far * math.cos(angle) * 1.6, 0, centre[1] + far * math.sin(angle) - 0.25)
        pip.setPos(centre[0], 0, centre[1])
        fly = seconds * rng.uniform(0.7, 1.0)
        spin = (0, 0, rng.choice((-1, 1)) * rng.uniform(180, 540))
        moves.append(
            Parallel(
                LerpPosHprInterval(pip, fly, end, spin, blendType="easeOut"),
                Sequence(Wait(fly * 0.55), LerpColorScaleInterval(pip, fly * 0.45, (1, 1, 1, 0))),
            )
        )
    return Sequence(
        Func(root.reparentTo, parent),
        Parallel(*moves),
        Func(root.removeNode),
    )
