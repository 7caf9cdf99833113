"""The table's atmosphere: background music on every screen, the card room's ambience at the
table, each with its own volume (0: off), faded in and out.

The files (``sounds/music.wav``, ``sounds/ambience.wav``, made by ``tools/make_music.py``) are
seamless loops, streamed from disk (``SM_stream``: nothing is read into memory at start, and
the first one is opened only when it is first played). A missing file is reported once by
``missing`` and otherwise skipped: the game plays silently without it.

Fades are stepped by a plain task on the real clock, never an interval: a running interval
counts as a changing picture (``window/frame_rate.py``) and would make a still screen draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from panda3d.core import AudioManager, AudioSound

from .assets import asset_path, panda_filename

TRACKS = ("music", "ambience")  # sounds/<name>.wav
FADE_S = 1.6  # a fade in or out, from silence to the set volume or back
FADE_TASK = "atmosphere-fade"
# the screens standing at a game's table: the ambience plays there (the menus have only music)
TABLE_SCREENS = frozenset(
    {"Table", "Pause", "Confirm", "HandResult", "GameOver", "Tutorial", "Lesson", "Replay"}
)
# screens opened from the menu and from the table's pause alike: they keep the place they
# were opened from (the ambience heard while its volume is set)
ASIDE_SCREENS = frozenset({"Settings", "Rules"})


@dataclass
class Track:
    """One looping background sound: what the game asked of it (``wanted``, ``volume``) and
    how loud it plays this moment (``level``, on its way to ``volume`` or to silence)."""

    name: str
    manager: AudioManager
    volume: float = 0.0
    wanted: bool = False  # asked to play (at its place, volume above 0, sound allowed)
    level: float = 0.0
    sound: AudioSound | None = None

    def __post_init__(self) -> None:
        self.path = asset_path("sounds", f"{self.name}.wav")
        self.missing = not self.path.exists()

    @property
    def target(self) -> float:
        return self.volume if self.wanted else 0.0

    def open(self) -> AudioSound | None:
        """The stream, opened on first use; None without its file."""
        if self.sound is None and not self.missing:
            fn = panda_filename(self.path)
            self.sound = self.manager.getSound(fn, False, AudioManager.SM_stream)
            self.sound.setLoop(True)
        return self.sound

    def step(self, dt: float) -> bool:
        """Move ``level`` towards the target by ``dt`` of a fade; returns whether it is there."""
        target = self.target
        rate = max(self.volume, 0.05) / FADE_S
        if self.level < target:
            self.level = min(target, self.level + rate * dt)
        else:
            self.level = max(target, self.level - rate * dt)
        self._play_level()
        return self.level == target

    def snap(self) -> None:
        """Go to the target at once (a new volume from Settings, while playing)."""
        self.level = self.target
        self._play_level()

    def _play_level(self) -> None:
        sound = self.open() if self.level > 0 else self.sound
        if sound is None:
            return
        sound.setVolume(self.level)
        playing = sound.status() == AudioSound.PLAYING
        if self.level > 0 and not playing:
            sound.play()
        elif self.level == 0 and playing:
            sound.stop()

    def report(self) -> dict:
        return {"playing": self.wanted and not self.missing, "volume": round(self.volume, 3)}


class Atmosphere:
    """The music and the ambience of the game (``place``: ``menu`` or ``table``)."""

    def __init__(self, base, enabled: bool = True) -> None:
        """``enabled=False``: silent whatever the settings say (tests, tools)."""
        self.base = base
        self.enabled = enabled
        self.place = "menu"
        self.music = Track("music", base.musicManager)
        # its own manager's stream: the music manager plays one sound at a time
        self.ambience = Track("ambience", base.sfxManagerList[0])
        self._last_time: float | None = None
        if self.missing:  # said once; the game goes on without them
            names = ", ".join(f"sounds/{name}.wav" for name in self.missing)
            print(f"gin3d: {names} not found: playing without it", flush=True)

    @property
    def tracks(self) -> tuple[Track, Track]:
        return (self.music, self.ambience)

    @property
    def missing(self) -> list[str]:
        """The tracks whose files are not there (they stay silent)."""
        return [t.name for t in self.tracks if t.missing]

    def set_volumes(self, music: float, ambience: float) -> None:
        """The Settings' volumes (0..1, 0: off), heard at once."""
        playing = [t.level > 0 for t in self.tracks]
        self.music.volume, self.ambience.volume = music, ambience
        self._want()
        for track, was in zip(self.tracks, playing, strict=True):
            if was and track.wanted:
                track.snap()  # a new volume, heard now; starting or stopping fades
        self._fade()

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self._want()
        self._fade()

    def set_place(self, place: str) -> None:
        """``table`` (a game's screens: music and ambience) or ``menu`` (music only)."""
        if place == self.place:
            return
        self.place = place
        self._want()
        self._fade()

    def follow_screen(self, screen: str | None) -> None:
        """The place of a screen by its name (``TABLE_SCREENS`` stand at the table)."""
        if screen and screen not in ASIDE_SCREENS:  # (None: between two screens)
            self.set_place("table" if screen in TABLE_SCREENS else "menu")

    def _want(self) -> None:
        self.music.wanted = self.enabled and self.music.volume > 0
        self.ambience.wanted = self.enabled and self.place == "table" and self.ambience.volume > 0

    def _fade(self) -> None:
        taskmgr = self.base.taskMgr
        if any(t.level != t.target for t in self.tracks) and not taskmgr.hasTaskNamed(FADE_TASK):
            self._last_time = None
            taskmgr.add(self._fade_step, FADE_TASK)

    def _fade_step(self, task):
        now = self.base.clock.getRealTime()
        dt = 0.0 if self._last_time is None else min(now - self._last_time, 0.25)
        self._last_time = now
        done = [track.step(dt) for track in self.tracks]
        return task.done if all(done) else task.cont

    def report(self) -> dict:
        """What the game asked of its music and ambience (the status line's ``audio``), and
        whether an audio device plays it (``out``: False under a null audio library)."""
        return {
            "place": self.place,
            "music": self.music.report(),
            "ambience": self.ambience.report(),
            "out": bool(self.music.manager.isValid()),
            "missing": self.missing,
        }

    def destroy(self) -> None:
        self.base.taskMgr.remove(FADE_TASK)
        for track in self.tracks:
            if track.sound is not None:
                track.sound.stop()
