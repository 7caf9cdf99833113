"""The player's progress in the running game: chapters marked done, achievements announced.

The records decide (``gin3d.achievements``); this only asks them at the moments a player can
have earned something (a hand or a game just over, a tutorial chapter finished) and shows
what is new as a note at the window's edge (``scene.ui.toast``). On the first start with
this feature the player's existing records are counted quietly: an old player finds their
achievements listed, not announced one after another.
"""

from __future__ import annotations

from functools import cached_property

from ..achievements import Achievement
from ..history import read_hands
from ..progress import ProgressBook
from ..scene.ui.toast import Toasts
from ..stats import load as load_stats
from ..tutorial import load_chapters


class PlayerProgress:
    """The progress book in use, the tutorial's chapter numbers and the notes on screen."""

    def __init__(self, base) -> None:
        self.book = ProgressBook()
        self.toasts = Toasts(base)
        self.messages = [self.book.message] if self.book.message else []
        if not self.book.progress.caught_up:
            stats, message = load_stats()
            if message:
                self.messages.append(message)
            hands, _skipped = read_hands()
            self.book.catch_up(stats, self.chapters, hands)

    @cached_property
    def chapters(self) -> tuple[int, ...]:
        """The tutorial's chapter numbers (read when first needed: not on every start)."""
        return tuple(c.number for c in load_chapters())

    def announce(self) -> list[Achievement]:
        """Ask the records again; announce (and keep) what they show newly earned."""
        stats, _message = load_stats()  # a damaged file is the game's to report, not ours
        new = self.book.check(stats, self.chapters)
        for a in new:
            self.toasts.show(a.title, a.description)
        return new

    def chapter_done(self, number: int) -> None:
        """A tutorial chapter reached its end: mark it (and announce the tutorial finished)."""
        if self.book.chapter_done(number):
            self.announce()

    def done_count(self) -> tuple[int, int]:
        """(chapters done, chapters) for the chapter list."""
        done = sum(1 for n in self.chapters if self.book.is_done(n))
        return done, len(self.chapters)
