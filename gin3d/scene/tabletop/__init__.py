"""The 3D table and what lies on it: the felt and rim (``tablemodel``), the room, the
card nodes and the drawn stacks, where each zone's cards go (``layout``), mouse
picking, the spread labels, the animation queue, the ``TableScene`` that turns each
engine event into an animation, and the inset view of a second table. Imports
``media`` and ``ui`` of the scene.
"""
