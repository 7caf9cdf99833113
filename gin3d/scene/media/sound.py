"""Sound effects: ``sounds/<name>.wav`` from the assets, played by name; missing ones are
reported once by ``missing`` and otherwise skipped (the game plays silently without them)."""

from __future__ import annotations

from collections import Counter

from .assets import asset_path, panda_filename

NAMES = (
    "shuffle",
    "deal",
    "draw",
    "place",
    "flip",
    "knock",
    "gin",
    "click",
    "hand_won",
    "hand_lost",
    "game_won",
)


class Sounds:
    def __init__(self, loader, volume: float = 0.8) -> None:
        self.volume = volume
        self.enabled = True
        self.sfx = {}
        self.missing: list[str] = []
        for name in NAMES:
            path = asset_path("sounds", f"{name}.wav")
            if path.exists():
                self.sfx[name] = loader.loadSfx(panda_filename(path))
            else:
                self.missing.append(name)
        self.played: Counter = Counter()  # how often each name was played (tests, debugging)

    def play(self, name: str) -> None:
        self.played[name] += 1
        sound = self.sfx.get(name)
        if sound is None or not self.enabled:
            return
        sound.setVolume(self.volume)
        sound.play()
