"""The count beside a spread's deadwood ("Deadwood 6"), standing in the spread's own tilted
plane so it faces the camera like the cards do, on a dark card that keeps it readable."""

from __future__ import annotations

from panda3d.core import NodePath, TextNode, TransparencyAttrib

from .cards import CARD_W

LABEL_SCALE = 1.25  # card units (a card is 6.4 wide)
LABEL_FG = (1.0, 0.95, 0.8, 1)
LABEL_CARD = (0.05, 0.07, 0.05, 0.85)


class SpreadLabel:
    """One text label under a spread anchor; hidden until a spread with deadwood is laid."""

    def __init__(self, anchor: NodePath) -> None:
        node = TextNode("deadwood-label")
        node.setAlign(TextNode.ALeft)
        node.setTextColor(*LABEL_FG)
        node.setCardColor(*LABEL_CARD)
        node.setCardAsMargin(0.3, 0.3, 0.15, 0.15)
        node.setCardDecal(True)
        self.text = node
        self.np = anchor.attachNewNode(node)
        self.np.setScale(LABEL_SCALE)
        self.np.setP(-90)  # the text's up (+Z) along the card's up (+Y)
        self.np.setLightOff(1)
        self.np.setTransparency(TransparencyAttrib.MAlpha)
        self.np.setBin("fixed", 10)
        self.np.setDepthWrite(False)
        self.np.hide()

    def show(self, text: str, x: float) -> None:
        """Show ``text`` starting just right of a card whose centre is at ``x``."""
        self.text.setText(text)
        self.np.setPos(x + CARD_W / 2 + 0.8, -0.4, 0.2)
        self.np.show()

    def hide(self) -> None:
        self.np.hide()

    @property
    def shown(self) -> str | None:
        return None if self.np.isHidden() else self.text.getText()
