"""Start reading the card atlas on a worker thread at launch, while Python imports the rest
(the PNG decode and the engine's table building then overlap), so the menu shows sooner."""

from __future__ import annotations

import threading

from panda3d.core import Texture

from .assets import asset_path, panda_filename

_jobs: dict[str, tuple[threading.Thread, dict]] = {}


def start(style: str = "classic") -> None:
    """Begin reading ``textures/cards_<style>.png`` in the background (idempotent)."""
    if style in _jobs:
        return
    path = asset_path("textures", f"cards_{style}.png")
    box: dict = {}

    def read() -> None:
        tex = Texture(f"cards_{style}")
        if path.exists() and tex.read(panda_filename(path)):
            box["texture"] = tex

    thread = threading.Thread(target=read, name=f"atlas-{style}", daemon=True)
    _jobs[style] = (thread, box)
    thread.start()


def take(style: str) -> Texture | None:
    """The preloaded texture (waiting for the read to end), or None if none was started."""
    job = _jobs.pop(style, None)
    if job is None:
        return None
    thread, box = job
    thread.join()
    return box.get("texture")
