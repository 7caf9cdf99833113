"""Peer-to-peer network play: a fair deal nobody can peek at or stack, checked moves, and
matches that survive dropped lines. asyncio and the engine only (no Panda3D); the app talks
to it through ``gin3d.net.api.NetService``. See docs/net.md.

The names below load on first use, so importing ``gin3d.net.constants`` (the launcher and the
lobby screens do, at start) does not load asyncio and the rest of the stack.
"""

from __future__ import annotations

from importlib import import_module

_HOME = {
    "PROTOCOL_VERSION": "protocol",
    **dict.fromkeys(("CHEATED", "CONNECTED", "GONE", "WAITING"), "constants"),
    **dict.fromkeys(("Callbacks", "MatchEnded", "MatchSession", "Timing"), "session"),
}

__all__ = sorted(_HOME)


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)
