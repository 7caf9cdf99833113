"""The 2D interface drawn over the table: the look (``theme``, ``palette``), the in-game
HUD and its portraits, the menu screens' panels and their keyboard focus ring, the
celebration's burst of pips and the hand's result told as a sentence. Imports only
``media`` of the scene.
"""
