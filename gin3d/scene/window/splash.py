"""The first picture in the window: the title on the felt while the table is being built.

Building the table, the card atlas, the menus and the warm-up takes seconds on a loaded
machine with a software renderer; until the first frame the window was black all that time
(7.5-11.5 s seen), which looks like a hang. This draws a plain frame at once instead.
"""

from __future__ import annotations

from direct.gui.OnscreenText import OnscreenText
from panda3d.core import NodePath

from .logo import title

FELT = (0.05, 0.27, 0.16, 1)


def show_splash(base) -> NodePath:
    """Draw the title on felt green now (two frames, so it reaches the screen whatever the
    buffering); returns its node for the caller to remove once the menu is ready."""
    root = base.aspect2d.attachNewNode("splash")
    base.setBackgroundColor(*FELT)  # the table sets its own once it is built
    title(root, (0, 0.08), 0.2)  # the menu's logo, without its cards (not loaded yet)
    OnscreenText(
        parent=root,
        text="Shuffling the deck...",
        pos=(0, -0.14),
        scale=0.05,
        fg=(0.9, 0.95, 0.85, 1),
    )
    for _ in range(2):
        base.graphicsEngine.renderFrame()
    return root
