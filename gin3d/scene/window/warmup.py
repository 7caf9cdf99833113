"""Draw every kind of thing the game draws once, invisibly, in the frames after the first.

A software renderer (Mesa llvmpipe) compiles a shader the first time it meets a new mix of
render states, and a font page is rebuilt the first time a glyph is drawn: met mid-game,
each is a frame of 100-300 ms (the first glowing card, the first suit symbol in the prompt).
Met here, in the menu's second frame, the game's frames stay even and the first frame of
the menu is not made any slower.

Once the warm-up is drawn, everything made while starting (some 60 000 Python objects:
modules, Panda3D wrappers, the scene) is moved out of the cyclic garbage collector's sight
with ``gc.freeze()``: a full collection scanning all of it took 30-80 ms, a dropped frame
whenever it struck mid-game; now it scans only what the game makes afterwards.
"""

from __future__ import annotations

import gc

from direct.gui.OnscreenText import OnscreenText
from panda3d.core import NodePath

from ..ui import theme
from ..ui.celebration import suit_textures
from ..ui.hud import suitify
from ..ui.palette import dress_banner

TINY = 1e-4  # drawn, but smaller than a pixel: nothing shows


def _warm_nodes(base, scene) -> list:
    """Sub-pixel copies of the game's pieces, each with its own render state."""
    factory = scene.factory
    # the celebration's pips are cut from the card atlas: converting the whole atlas took a
    # frame and left ~33 MB more resident at the first gin or undercut; cut them here
    suit_textures(factory.atlas)
    made: list = []
    root = scene.root.attachNewNode("warm-up")
    root.setScale(TINY)
    made.append(root)
    glow = factory.glow.copyTo(root)  # a glowing card
    tinted_glow = factory.glow.copyTo(root)  # a glow in another colour
    tinted_glow.setColorScale(0.4, 1.0, 0.4, 1)
    tinted = factory.fronts[0].copyTo(root)  # a card in a meld (tinted)
    tinted.setTexture(factory.atlas.texture)
    tinted.setColorScale(1.0, 0.97, 0.86, 1)
    fading = factory.fronts[1].copyTo(root)  # a card fading out
    fading.setTexture(factory.atlas.texture)
    fading.setColorScale(1, 1, 1, 0.5)
    for np in (glow, tinted_glow, tinted, fading):
        np.setPos(0, 0, 0)
    # text: every printable glyph, the suit pictures, and a banner-style text fading out
    chars = "".join(chr(c) for c in range(32, 127))
    for font in theme.fonts():  # both faces: a bold title or banner is met mid-game too
        made.append(
            OnscreenText(
                text=chars, scale=0.05, fg=(1, 1, 1, 0), pos=(0, -0.9), mayChange=False, font=font
            )
        )
    made.append(
        OnscreenText(
            text=suitify("\u2660\u2665\u2666\u2663"),
            scale=TINY,
            fg=(1, 1, 1, 0),
            pos=(0, -0.9),
            mayChange=False,
        )
    )
    banner = OnscreenText(
        text="Gin!",
        scale=TINY,
        fg=(1, 1, 1, 1),
        shadow=(0, 0, 0, 0.9),
        pos=(0, 0.25),
        mayChange=True,  # keeps its TextNode, to be dressed
    )
    dress_banner(banner.textNode)  # as the table's banners are drawn
    banner.setColorScale(1, 1, 1, 0.5)
    made.append(banner)
    return made


def install_warm_up(base, scene, frame: int = 1) -> None:
    """Draw the warm-up pieces in frame ``frame`` (counting from 0, the first frame) only."""
    made: list = []

    def step(task):
        if task.frame < frame:
            return task.cont
        if task.frame == frame:
            made.extend(_warm_nodes(base, scene))
            return task.cont
        for piece in made:
            if isinstance(piece, NodePath) and not isinstance(piece, OnscreenText):
                piece.removeNode()
            else:
                piece.destroy()
        gc.collect()
        gc.freeze()
        return task.done

    base.taskMgr.add(step, "gin3d-warm-up", sort=40)
