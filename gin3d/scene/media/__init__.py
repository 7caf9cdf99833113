"""What the game loads and how this machine draws and plays it: where the art files are
(``assets``), the card atlas read ahead at launch (``preload``), the rendering fitted
to the renderer (``quality``) and the sound effects (``sound``). Imports nothing else
of the scene.
"""
