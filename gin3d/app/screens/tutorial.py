"""The tutorial's two screens: the chapter list, and one chapter played on the table.

Both are states of the app's one screen FSM (``Tutorial`` and ``Lesson``), so Esc, the help
and every other request go through the same declared transitions as the rest of the game.
What lasts from one chapter to the next (the mode, the chapters) is a ``TutorialBook``, kept
by the flow (``flow.tutorial``): it is opened when the tutorial is and dropped on the way back
to the main menu.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...engine import RuleSet
from ...scene.scripted.tutorial_view import TutorialView
from ...scene.ui.panel import Panel
from ...tutorial import PLAY, WATCH, Chapter, load_chapters
from .base import Screen

DONE = (0.55, 0.9, 0.55, 1)  # the count of chapters done
GREY = (0.75, 0.78, 0.75, 1)
DONE_ON_BUTTON = (0.1, 0.4, 0.12, 1)  # a done chapter's label: green on the light button


@dataclass
class TutorialBook:
    """The tutorial while it is open: its chapters, Watch or Play along, the open chapter."""

    screens: object  # the screen FSM: ``start`` and ``show_menu`` are requests to it
    chapters: list[Chapter]
    rules: Callable[[], RuleSet]
    auto_advance: bool = True
    mode: str = WATCH
    view: TutorialView | None = None
    menu: Panel | None = None
    menu_buttons: dict = field(default_factory=dict)

    def start(self, chapter: Chapter) -> TutorialView | None:
        """Open ``chapter`` on the table (the ``Lesson`` screen); its view."""
        self.screens.request("Lesson", chapter)
        return self.view

    def show_menu(self) -> None:
        """Back to the chapter list."""
        self.screens.request("Tutorial")

    def mode_label(self) -> str:
        return "Mode: Watch" if self.mode == WATCH else "Mode: Play along"

    def toggle_mode(self) -> None:
        self.mode = PLAY if self.mode == WATCH else WATCH
        if self.menu is not None:
            self.menu.buttons["mode"]["text"] = self.mode_label()


class TutorialScreen(Screen):
    """State ``Tutorial``: the chapter list (opening the tutorial's book the first time)."""

    name = "Tutorial"

    def enter(self) -> None:
        self.services.end_game()
        book = self.flow.tutorial
        if book is None:
            book = self.flow.tutorial = TutorialBook(
                self.flow,
                load_chapters(),
                self.services.setup.rules,
                auto_advance=self.services.speed > 0,
            )
        progress = self.services.progress
        done, count = progress.done_count()
        p = self._panel("Tutorial", width=1.25, height=0.9)
        p.text(f"Rules: {book.rules().name}. Choose a chapter, or start at 1.", 0.62, 0.045)
        p.text(f"{done} of {count} chapters done", -0.64, 0.04, fg=DONE if done else GREY)
        for i, ch in enumerate(book.chapters):
            col, row = divmod(i, 9)  # two columns of nine
            tick = "\u2713 " if progress.book.is_done(ch.number) else ""
            b = p.button(
                f"chapter{ch.number}",
                f"{tick}{ch.number}. {ch.title}",
                lambda c=ch: self.request("Lesson", c),
                (-0.6 + col * 1.2, 0.48 - row * 0.115),
                scale=0.04,
                frameSize=(-13.5, 13.5, -0.55, 1.05),
            )
            if tick:
                b["text_fg"] = DONE_ON_BUTTON
        p.button(
            "mode",
            book.mode_label(),
            book.toggle_mode,
            (-0.45, -0.78),
            scale=0.05,
            frameSize=(-7, 7, -0.55, 1.05),
        )
        p.button("back", "Main menu", lambda: self.request("Menu"), (0.55, -0.78), scale=0.05)
        book.menu, book.menu_buttons = p, p.buttons
        self._esc("Menu")

    def exit(self) -> None:
        book = self.flow.tutorial
        if book is not None:
            book.menu, book.menu_buttons = None, {}
        self._close()


class LessonScreen(Screen):
    """State ``Lesson``: one chapter played on the table; Esc goes back to the list."""

    name = "Lesson"

    def enter(self, chapter: Chapter) -> None:
        book = self.flow.tutorial
        book.view = self.services.tutorial_view(
            chapter,
            book.rules(),
            book.mode,
            on_done=lambda go_on: self._lesson_done(chapter, go_on),
            auto_advance=book.auto_advance,
            on_complete=lambda: self.services.progress.chapter_done(chapter.number),
        )
        self._esc("Tutorial")

    def _lesson_done(self, chapter: Chapter, go_on: bool) -> None:
        """The chapter's last step: on to the next chapter, or back to the list (after the
        button's own callback has returned)."""
        later = [c for c in self.flow.tutorial.chapters if c.number > chapter.number]

        def switch(task=None) -> None:
            if go_on and later:
                self.request("Lesson", later[0])
            else:
                self.request("Tutorial")

        self.services.tasks.doMethodLater(0, switch, "tutorial-switch")

    def exit(self) -> None:
        book = self.flow.tutorial
        if book is not None and book.view is not None:
            book.view.destroy()
            book.view = None
        self.services.ignore("escape")
