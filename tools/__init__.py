"""Asset generators for gin3d (cards, models, sounds). Run e.g. ``python -m tools.make_cards``."""
