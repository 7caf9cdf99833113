"""Peer-to-peer network play: a fair deal nobody can peek at or stack, checked moves, and
matches that survive dropped lines. asyncio and the engine only (no Panda3D); the app talks
to it through ``gin3d.net.api.NetService``. See docs/net.md.
"""

from .protocol import PROTOCOL_VERSION
from .session import CHEATED, CONNECTED, GONE, WAITING, Callbacks, MatchEnded, MatchSession, Timing

__all__ = [
    "CHEATED",
    "CONNECTED",
    "GONE",
    "PROTOCOL_VERSION",
    "WAITING",
    "Callbacks",
    "MatchEnded",
    "MatchSession",
    "Timing",
]
