"""The tournament's ladder: the four opponents as rungs, which are won, who is next, the
tries, the trophies, and Play (which resumes the ladder's game in progress).

The ladder itself is the pure ``gin3d.tournament``; the games are played at the normal
table (``GinApp.start_tournament``) and come back here from their game-over sheet.
"""

from __future__ import annotations

import datetime

from panda3d.core import TextNode

from ... import tournament
from ...paths import save_path
from ...players import levels, opponent_name
from ...saves import SaveError, offer_resume, read_save
from ...scene.ui.palette import GOLD
from ...scene.ui.portraits import picture, trophy
from .base import Screen

WON, NEXT, LATER = (0.45, 0.85, 0.5, 1), (1.0, 0.82, 0.3, 1), (0.7, 0.7, 0.66, 1)
PLAIN = (0.9, 0.92, 0.85, 1)
RUNG_STEP = 0.21  # the height of one rung on the panel


def tries_text(n: int) -> str:
    return "1 try" if n == 1 else f"{n} tries"


def day(text: str) -> str:
    """A trophy's date as a player reads it ("7 December 2026"); the text itself if it is
    no date."""
    try:
        d = datetime.date.fromisoformat(text)
    except ValueError:
        return text
    return f"{d.day} {d:%B %Y}"


def saved_game_id() -> str | None:
    """The game id of the saved game in progress (None: no save, or one that cannot be
    read, which Play then treats as no game in progress)."""
    if not save_path().exists():
        return None
    try:
        return read_save().game_id
    except SaveError:
        return None


class TournamentScreen(Screen):
    """State ``Tournament``: the ladder of four opponents, the trophy, Play and Back."""

    name = "Tournament"

    def enter(self) -> None:
        # back from a finished game: its table and HUD go (as on the way to the menu)
        self.services.end_game()
        self.services.clear_table()
        self.ladder, message = tournament.load()
        ladder = self.ladder
        saved = saved_game_id()
        self.resumable = bool(ladder.playing) and saved == ladder.playing
        self.other_game = saved is not None and not self.resumable
        p = self._panel("Tournament", width=1.2, height=0.93)
        climb = f"Climb {ladder.climb}: beat" if ladder.climb > 1 else "Beat"
        p.text(
            f"{climb} all four in turn, each in a whole game to 100 under the tournament "
            "rules (the classic rules, no options).",
            0.66,
            0.038,
            fg=PLAIN,
        )
        names = dict(levels())
        for i, level in reversed(list(enumerate(tournament.RUNGS))):
            self._rung(p, i, level, names.get(level, level), 0.4 - (3 - i) * RUNG_STEP)
        self._trophies(p)
        p.text(
            "Win a game to climb a rung; lose it and try that rung again.",
            -0.42,
            0.038,
            fg=PLAIN,
        )
        if message or self.resumable:
            line = message or f"Your game against {self._opponent()} is in progress."
            p.text(line, -0.53, 0.04, fg=(1, 0.8, 0.6, 1)).setWordwrap(56)
        label = (
            "Resume game"
            if self.resumable
            else ("Climb again" if ladder.finished else f"Play {self._opponent()}")
        )
        p.button(
            "play", label, self._play, (0.4, -0.74), scale=0.065, frameSize=(-4.2, 4.2, -0.55, 1.05)
        )
        p.button("back", "Back", lambda: self.request("Menu"), (-0.55, -0.74), scale=0.06)
        self._esc("Menu")

    def _opponent(self) -> str:
        return opponent_name(tournament.RUNGS[self.ladder.rung])

    def _rung(self, p, i: int, level: str, name: str, y: float) -> None:
        """One rung: its number, the opponent's portrait and name, and where the player is."""
        ladder = self.ladder
        won = i < ladder.won
        nxt = i == ladder.won
        p.text(f"{i + 1}", y - 0.02, 0.07, x=-1.06, fg=GOLD)
        picture(p.frame, level, (-0.88, y), 0.075, lit=won)
        colour = WON if won else (NEXT if nxt else PLAIN)
        p.text(name, y - 0.015, 0.05, x=-0.77, align=TextNode.ALeft, fg=colour)
        tries = ladder.tries[i]
        if won:
            win = next((r for r in reversed(ladder.rounds) if r.rung == i and r.won), None)
            score = f"{win.scores[0]}-{win.scores[1]} " if win is not None else ""
            state, colour = f"Won {score}({tries_text(tries)})", WON
        elif nxt:
            lost = f", {tries_text(tries)} so far" if tries else ""
            state, colour = f"Next opponent{lost}", NEXT
        else:
            state, colour = "Not yet", LATER
        p.text(state, y - 0.015, 0.045, x=-0.05, align=TextNode.ALeft, fg=colour)

    def _trophies(self, p) -> None:
        """The trophy once earned (how many, the last one's date); else what it takes."""
        won = self.ladder.trophies
        x = 0.86
        if not won:
            p.text("The trophy waits", 0.12, 0.04, x=x, fg=LATER)
            p.text("at the top", 0.06, 0.04, x=x, fg=LATER)
            return
        trophy(p.frame, (x, 0.22), 0.2)
        count = "Trophy won" if len(won) == 1 else f"{len(won)} trophies"
        p.text(count, -0.04, 0.045, x=x, fg=GOLD)
        p.text(
            f"the last on {day(won[-1])}" if len(won) > 1 else day(won[-1]),
            -0.1,
            0.038,
            x=x,
            fg=PLAIN,
        )

    def _play(self) -> None:
        """Resume the ladder's game in progress, or start the next rung's game; another
        saved game (there is one save) is replaced only once the player agrees."""
        if self.resumable:
            resume, message = offer_resume()
            if resume is not None:
                self.services.resume_game(resume)
                return
            self.services.tell_on_menu(message)
            self.request("Menu")
            return
        if not self.other_game:
            self.services.start_tournament()
            return
        self.request(
            "Confirm",
            "Replace your game in progress?",
            "Playing the tournament ends the saved game (Resume game on the menu continues it).",
            "Play",
            self.services.start_tournament,
            ("Tournament",),
        )
