"""The Panda3D side of the game, in six sub-packages; each imports only those before it in
this list (``tests/test_layers.py`` checks it):

- ``media``: the art files, the atlas preload, rendering quality, sound;
- ``ui``: the 2D interface (theme, HUD, portraits, panels, focus ring, celebration);
- ``tabletop``: the 3D table, its cards and stacks, layout, picking, animation;
- ``control``: input and the table's controllers for each kind of game;
- ``scripted``: the tutorial's and the replay's tables;
- ``window``: splash, logo, warm-up, frame-rate cap, first-frame check, status line.
"""
