"""The player's progress: the Achievements screen and the Statistics' charts.

Both read the records (``gin3d.stats``, ``gin3d.progress``) each time they are entered, and
are reached from the main menu (Achievements) and from Statistics (both).
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG, DirectFrame
from panda3d.core import TextNode

from ... import stats as stats_mod
from ...achievements import ACHIEVEMENTS
from ...scene.ui.charts import bar_chart, line_chart
from ...scene.ui.palette import GOLD
from ...settings import OPPONENT_LEVELS
from .base import Screen
from .settings import LEVEL_NAMES

EARNED_BADGE, LOCKED_BADGE = (0.95, 0.78, 0.3, 1), (0.3, 0.33, 0.3, 1)
LOCKED = (0.6, 0.63, 0.6, 1)
PER_COLUMN = 7
LAST_GAMES = 40  # the line chart's games
WINDOW = 10  # each point: the share of the games won of this many up to it
RULES_NAMES = {"classic": "Classic", "pagat": "Pagat", "oklahoma": "Oklahoma"}


class AchievementsScreen(Screen):
    """State ``Achievements``: every achievement, earned ones lit with the day, locked ones
    greyed with how to earn them."""

    name = "Achievements"

    def enter(self, back: str = "Menu") -> None:
        self.back = back
        book = self.services.progress.book
        got = sum(1 for a in ACHIEVEMENTS if book.earned_on(a.id))
        p = self._panel("Achievements", width=1.5, height=0.92)
        p.text(f"{got} of {len(ACHIEVEMENTS)} earned", 0.66, 0.045, fg=GOLD if got else LOCKED)
        self.rows = []
        for i, a in enumerate(ACHIEVEMENTS):
            col, row = divmod(i, PER_COLUMN)
            x, y = -1.4 + col * 1.42, 0.55 - row * 0.185
            day = book.earned_on(a.id)
            DirectFrame(
                parent=p.frame,
                frameColor=EARNED_BADGE if day else LOCKED_BADGE,
                relief=DGG.FLAT,
                frameSize=(x, x + 0.05, y - 0.075, y + 0.03),
                state=DGG.DISABLED,
            )
            p.text(a.title, y, 0.042, x=x + 0.09, align=TextNode.ALeft, fg=GOLD if day else LOCKED)
            p.text(
                f"Earned {day}" if day else "Locked",
                y,
                0.032,
                x=x + 1.3,
                align=TextNode.ARight,
                fg=(0.6, 0.95, 0.6, 1) if day else LOCKED,
            )
            p.text(
                a.description,
                y - 0.06,
                0.032,
                x=x + 0.09,
                align=TextNode.ALeft,
                fg=(0.95, 0.95, 0.9, 1) if day else LOCKED,
            )
            self.rows.append((a.id, day))
        p.button("back", "Back", self._back, (0, -0.8), scale=0.06)
        self.services.ignore("escape")
        self.services.accept("escape", self._back)

    def _back(self) -> None:
        if self.back == "Stats":
            self.request("Stats", self.flow.back_to)
        else:
            self.request("Menu")


class ChartsScreen(Screen):
    """State ``Charts``: games won and lost by opponent and by rules, and the win rate over
    the recent games (the game keeps no rating to chart)."""

    name = "Charts"

    def enter(self) -> None:
        st, message = stats_mod.load()
        p = self._panel("Charts", width=1.62, height=0.92)
        by_level = [(LEVEL_NAMES.get(n, n), w, lost) for n, w, lost in st.chart(OPPONENT_LEVELS)]
        by_rules = [(RULES_NAMES.get(n, n), w, lost) for n, w, lost in st.rules_chart()]
        later = "Charted from your next finished game." if by_level else "No games finished yet."
        self.charts = [
            bar_chart(
                p.frame,
                "Games won and lost, by opponent",
                by_level,
                (-1.52, 0.66),
                1.45,
                empty="No games finished yet.",
            )
        ]
        below = self.charts[0]["frameSize"][2] + 0.66 - 0.06
        self.charts.append(
            bar_chart(
                p.frame,
                "Games won and lost, by rules",
                by_rules,
                (-1.52, below),
                1.45,
                empty=later,
            )
        )
        line = st.win_rate_line(LAST_GAMES, WINDOW)
        self.charts.append(
            line_chart(
                p.frame,
                f"Win rate over your last {len(line)} games" if line else "Win rate",
                line,
                (0.05, 0.66),
                1.47,
                0.9,
                note=f"Each point: the share you won of the {WINDOW} games up to it "
                "(the game keeps no rating).",
                empty=later,
            )
        )
        if message:
            p.text(message, -0.66, 0.032, fg=(1, 0.7, 0.6, 1))
        p.button("back", "Back", lambda: self.request("Stats", self.flow.back_to), (0, -0.8))
        self.services.ignore("escape")
        self.services.accept("escape", self.request, ["Stats", self.flow.back_to])
