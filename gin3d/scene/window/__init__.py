"""The game window around the play: the splash and the title logo shown before the
table is built, the warm-up frames after the first, the frame-rate cap, the
first-frame check of packaged builds and the status line the player's-eye tests
read. Imports ``media``, ``ui`` and ``tabletop`` of the scene.
"""
