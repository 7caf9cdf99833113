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
# each felt a player may choose (Settings), as dark as the table shows it in the lamp's light
FELTS = {
    "green": FELT,
    "blue": (0.05, 0.17, 0.29, 1),
    "burgundy": (0.24, 0.06, 0.1, 1),
    "charcoal": (0.11, 0.12, 0.13, 1),
}


def show_splash(base, felt: str = "green") -> NodePath:
    """Draw the title on the player's felt now (two frames, so it reaches the screen whatever
    the buffering); returns its node for the caller to remove once the menu is ready."""
    root = base.aspect2d.attachNewNode("splash")
    base.setBackgroundColor(*FELTS.get(felt, FELT))  # the table sets its own once built
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
