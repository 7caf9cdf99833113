"""The table played: the local seat's input (mouse, keys, the prompt and glows it
shows, the keyboard help), the controllers that feed the table for each kind of game
(single-player, three players, partnership, network with its hub, perspective and
session) and the input driver that plays a seat through the real input path. Imports
``media``, ``ui`` and ``tabletop`` of the scene.
"""
