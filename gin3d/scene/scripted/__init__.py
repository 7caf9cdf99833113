"""Tables whose moves come from a script rather than from players: the tutorial's
lessons (``tutorial_view``) and a recorded hand stepped forwards and back
(``replay_view``). Imports ``ui``, ``tabletop`` and ``control`` of the scene.
"""
