"""Colours more than one screen uses (RGBA), in a module that loads nothing, so even the
splash screen, drawn before the rest is imported, takes them from here."""

GOLD = (1, 0.92, 0.6, 1)  # titles, headings and the players' names
BANNER_CARD = (0.08, 0.1, 0.08, 1)  # the ground of the table's banners (Knock!, Gin!): opaque
BANNER_EDGE = (0.85, 0.68, 0.3, 1)
BANNER_MARGIN = (0.45, 0.45, 0.12, 0.2)  # left, right, bottom, top, in text heights


def dress_banner(node, card=BANNER_CARD) -> None:
    """Give a banner's ``TextNode`` its opaque card and gold edge (the table's banners and
    the warm-up's copy are drawn the same way), in the theme's bold face."""
    from . import theme

    if theme.fonts():  # installed (a bare ShowBase in a test may not have it)
        node.setFont(theme.bold())
    node.setCardColor(*card)
    node.setCardAsMargin(*BANNER_MARGIN)
    node.setCardDecal(True)
    node.setFrameColor(*BANNER_EDGE)
    node.setFrameAsMargin(*BANNER_MARGIN)
    node.setFrameLineWidth(3.0)
