"""The player's progress, kept in the user's data folder: tutorial chapters done and
achievements earned (with the day each was earned).

``Progress`` is the file's content; ``ProgressBook`` keeps it and writes it atomically after
each change. Achievements are decided by ``gin3d.achievements.earned`` from the records;
the book only keeps what was earned and when, and says which are new. A book made for a
player who has none yet first counts quietly what their records already earned
(``caught_up``), so an old player's history does not arrive as a flood of new ones. A
damaged file gives an empty record and a message, and is kept aside (``name.bad``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .achievements import BY_ID, Achievement, earned
from .history import HandRecord
from .paths import SetAside, load_or_set_aside, progress_path, write_atomic
from .stats import Stats

FORMAT = "gin3d-progress"
VERSION = 1


@dataclass
class Progress:
    """Chapters done (numbers), achievements earned (id → ISO day) and whether what the
    records held before this file was counted."""

    chapters_done: set[int] = field(default_factory=set)
    earned: dict[str, str] = field(default_factory=dict)
    caught_up: bool = False

    def dumps(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "chapters_done": sorted(self.chapters_done),
                    "earned": dict(sorted(self.earned.items())),
                    "caught_up": self.caught_up,
                },
                indent=1,
            )
            + "\n"
        )

    @classmethod
    def parse(cls, data: Any) -> Progress:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("is not a gin3d progress file")
        if data.get("version") != VERSION:
            raise ValueError(f"has an unknown version ({data.get('version')!r})")
        chapters = data.get("chapters_done", [])
        if not isinstance(chapters, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 < n < 1000 for n in chapters
        ):
            raise ValueError("has a bad list of chapters done")
        got = data.get("earned", {})
        if not isinstance(got, dict) or not all(
            isinstance(v, str) and len(v) <= 40 for v in got.values()
        ):
            raise ValueError("has a bad list of achievements")
        caught_up = data.get("caught_up", False)
        if not isinstance(caught_up, bool):
            raise ValueError("has a bad caught_up flag")
        # an achievement this version does not know (a later version's) is kept as it is
        return cls(set(chapters), dict(got), caught_up)


def load(path: Path | str | None = None) -> tuple[Progress, str | None]:
    """(progress, message or None). A damaged file gives an empty record, kept aside."""
    path = Path(path) if path is not None else progress_path()
    try:
        progress = load_or_set_aside(path, Progress.parse)
    except SetAside as e:
        return Progress(), f"Your progress file {e.why}; progress starts afresh.{e.where}"
    return (Progress() if progress is None else progress), None


class ProgressBook:
    """The progress file in use: marks chapters done, notes achievements as they are earned
    and writes the file after each change. A failed write (a full or read-only disk) keeps
    the progress in memory and says so in ``error``; the next change tries again."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else progress_path()
        self.progress, self.message = load(self.path)
        self.error = ""

    def _save(self) -> None:
        try:
            write_atomic(self.path, self.progress.dumps())
        except OSError as exc:
            self.error = f"Your progress could not be saved ({exc.strerror or exc})."
        else:
            self.error = ""

    def chapter_done(self, number: int) -> bool:
        """Mark a tutorial chapter done; True if it was not done before."""
        if number in self.progress.chapters_done:
            return False
        self.progress.chapters_done.add(number)
        self._save()
        return True

    def is_done(self, number: int) -> bool:
        return number in self.progress.chapters_done

    def catch_up(
        self, stats: Stats, chapters: Iterable[int], hands: Iterable[HandRecord], today: str = ""
    ) -> list[Achievement]:
        """Once, for a player with no progress file yet: note what their records already
        earned, quietly (the caller shows no toast). The earned ones."""
        if self.progress.caught_up:
            return []
        new = self._note(earned(stats, self.progress.chapters_done, chapters, hands), today)
        self.progress.caught_up = True
        self._save()
        return new

    def check(self, stats: Stats, chapters: Iterable[int], today: str = "") -> list[Achievement]:
        """The achievements the records show earned that were not before (noted, with
        ``today`` or the date now, and saved): the ones to announce."""
        new = self._note(earned(stats, self.progress.chapters_done, chapters), today)
        if new:
            self._save()
        return new

    def _note(self, ids: set[str], today: str) -> list[Achievement]:
        day = today or datetime.now(timezone.utc).date().isoformat()
        new = [BY_ID[i] for i in sorted(ids - set(self.progress.earned)) if i in BY_ID]
        for a in new:
            self.progress.earned[a.id] = day
        return sorted(new, key=lambda a: list(BY_ID).index(a.id))

    def earned_on(self, achievement_id: str) -> str | None:
        """The day an achievement was earned, None while it is locked."""
        return self.progress.earned.get(achievement_id)
