"""Colours more than one screen uses (RGBA), in a module that loads nothing, so even the
splash screen, drawn before the rest is imported, takes them from here."""

GOLD = (1, 0.92, 0.6, 1)  # titles, headings and the players' names
