"""The player's records: statistics (with a chart), hand history, a hand's replay, resume.

The files behind these screens are the pure modules ``gin3d.stats``, ``gin3d.history`` and
``gin3d.saves``.
"""

from __future__ import annotations

from direct.gui.DirectGui import DGG, DirectFrame, OnscreenText
from panda3d.core import TextNode

from ... import stats as stats_mod
from ... import tournament
from ...history import HandRecord, game_sheet, read_hands
from ...recorder import PARTNERSHIPS, THREE_PLAYERS
from ...scene.ui.hud import button, suitify
from ...scene.ui.palette import GOLD
from ...settings import OPPONENT_LEVELS
from .base import Screen
from .settings import LEVEL_NAMES

WON, LOST = (0.35, 0.78, 0.42, 1), (0.85, 0.35, 0.3, 1)
HISTORY_PAGE = 8


CHART_ROW = 0.11  # the height of one bar of the won/lost chart, with its gap


class StatsScreen(Screen):
    """State ``Stats``: the player's statistics by opponent, with a chart."""

    name = "Stats"

    def enter(self, back: str = "Menu") -> None:
        self.flow.back_to = back
        st, message = stats_mod.load()
        p = self._panel("Statistics", width=1.5, height=0.9)
        levels = [lv for lv in OPPONENT_LEVELS if lv in st.levels] + sorted(
            lv for lv in st.levels if lv not in OPPONENT_LEVELS
        )
        heads = (
            "Opponent",
            "Games",
            "Won",
            "Hands",
            "Won",
            "Gins",
            "Big gins",
            "Undercuts",
            "Pts/hand",
            "Best streak",
        )
        xs = (-1.4, -0.72, -0.52, -0.32, -0.1, 0.1, 0.3, 0.55, 0.82, 1.12)
        y = 0.6
        for x, h in zip(xs, heads):
            p.text(h, y, 0.04, x=x, align=TextNode.ALeft, fg=GOLD)
        rows = [(LEVEL_NAMES.get(lv, lv), st.levels[lv]) for lv in levels]
        if len(rows) > 1:
            rows.append(("All", st.total()))
        for i, (name, s) in enumerate(rows):
            yy = y - 0.085 * (i + 1)
            values = (
                name,
                s.games_played,
                s.games_won,
                s.hands_played,
                s.hands_won,
                s.gins,
                s.big_gins,
                s.undercuts,
                f"{s.average_points:.1f}",
                s.best_streak,
            )
            for x, v in zip(xs, values):
                p.text(str(v), yy, 0.042, x=x, align=TextNode.ALeft)
        if not rows:
            p.text("No games finished yet: play one against the computer.", 0.4, 0.048)
        chart_top = y - 0.085 * (len(rows) + 1) - 0.08
        bars = st.chart(OPPONENT_LEVELS)
        self.chart = (  # no box while there is nothing to chart (the line above says so)
            draw_chart(p.frame, bars, (-1.35, chart_top), 2.0, min(0.7, chart_top + 0.62))
            if bars
            else None
        )
        if message:
            p.text(message, -0.66, 0.034, fg=(1, 0.7, 0.6, 1))
        p.button("charts", "Charts", lambda: self.request("Charts"), (-0.6, -0.8), scale=0.06)
        p.button("back", "Back", lambda: self.request(self.flow.back_to), (0, -0.8), scale=0.06)
        p.button(
            "achievements",
            "Achievements",
            lambda: self.request("Achievements", "Stats"),
            (0.7, -0.8),
            scale=0.06,
        )
        self._esc(back)


class HistoryScreen(Screen):
    """State ``History``: the hands played, newest first, a page at a time."""

    name = "History"

    def enter(self, page: int = 0) -> None:
        records, skipped = read_hands()
        records = records[::-1]  # newest first
        pages = max(1, (len(records) + HISTORY_PAGE - 1) // HISTORY_PAGE)
        page = max(0, min(page, pages - 1))
        p = self._panel("Hand history", width=1.2, height=0.9)
        shown = records[page * HISTORY_PAGE : (page + 1) * HISTORY_PAGE]
        if not shown:
            p.text("No hands played yet.", 0.3, 0.05)
        for i, r in enumerate(shown):
            when = r.finished_at.replace("T", " ")[:16]
            label = f"{when}   {_versus(r)}   {r.summary()}"
            p.button(
                f"hand{i}",
                label,
                lambda r=r, page=page: self.request("Replay", r, page),
                (0, 0.55 - i * 0.11),
                scale=0.042,
                frameSize=(-26, 26, -0.55, 1.05),
                text_align=TextNode.ACenter,
            )
        p.text(f"Page {page + 1} of {pages}", -0.42, 0.04, fg=(0.85, 0.9, 0.85, 1))
        if skipped:
            p.text(f"{skipped} damaged entries were skipped.", -0.5, 0.035, fg=(1, 0.7, 0.6, 1))
        if page > 0:
            p.button(
                "prev",
                "Newer",
                lambda: self.request("History", page - 1),
                (-0.6, -0.62),
                scale=0.05,
            )
        if page + 1 < pages:
            p.button(
                "next", "Older", lambda: self.request("History", page + 1), (0.6, -0.62), scale=0.05
            )
        p.button("back", "Back", lambda: self.request("Menu"), (0, -0.76), scale=0.06)
        self._esc("Menu")


class ReplayScreen(Screen):
    """State ``Replay``: a finished hand shown again on the table, step by step."""

    name = "Replay"
    replay_view = None  # the hand on the table while the replay shows

    def enter(self, record: HandRecord, page: int = 0) -> None:
        self._close()
        self.services.end_game()
        view = self.replay_view = self.services.replay_view(record)
        # the game's score sheet up to this hand, kept in the history with its hands
        self.sheet = game_sheet(record, read_hands()[0])
        self.sheet_view = self.services.score_sheet_view()
        top = self._panel("", width=1.25, height=0.15, pos=(0, 0.82))
        top.title.setPos(0, -0.005)
        top.title.setScale(0.05)
        names = record.shown_names()
        self.replay_info = top.text(
            f"Replay of hand {record.hand_number + 1}: {names[0]} near, {names[1]} far, "
            "both hands face up",
            0.075,
            0.036,
            fg=GOLD,
        )
        self.replay_step = top.text("", -0.095, 0.034, fg=(0.85, 0.95, 0.85, 1))
        # the step buttons stand at the right edge, clear of both hands
        self.replay_bar = DirectFrame(parent=self.services.right_edge, frameColor=(0, 0, 0, 0))
        steps = [
            ("Start", view.start),
            ("< Back", view.back),
            ("Next >", view.forward),
            ("End", view.end),
            ("Close", lambda: self.request("History", page)),
        ]
        if self.sheet is not None:
            steps.append(("Scores (Tab)", self._toggle_sheet))
        for i, (label, fn) in enumerate(steps):
            button(
                self.replay_bar,
                label,
                lambda fn=fn: (fn(), self._refresh_replay()),
                (-0.2, 0, 0.26 - i * 0.12 - (0.06 if i >= 4 else 0)),
                scale=0.05,
                frameSize=(-2.8, 2.8, -0.55, 1.05),
            )
        keys = [
            ("arrow_left", view.back),
            ("arrow_right", view.forward),
            ("home", view.start),
            ("end", view.end),
        ]
        if self.sheet is not None:
            keys.append(("tab", self._toggle_sheet))
        for key, fn in keys:
            self.services.accept(key, lambda fn=fn: (fn(), self._refresh_replay()))
        self._refresh_replay()
        self._esc(None)
        self.services.accept("escape", self.request, ["History", page])

    def _refresh_replay(self) -> None:
        if self.panel is None or self.replay_view is None:
            return  # "Close" already left the replay
        r = self.replay_view.replay
        self.panel.title.setText(suitify(r.caption()))
        self.replay_step.setText(f"Step {r.step} of {r.length}   (arrow keys step, Esc closes)")

    def _toggle_sheet(self) -> None:
        """The game's score sheet up to the hand replayed, over the table, or away again."""
        if self.sheet_view.shown:
            self.sheet_view.hide()
        elif self.sheet is not None and self.replay_view is not None:
            self.sheet_view.show(self.replay_view.replay.record.shown_names(), self.sheet)

    def exit(self) -> None:
        for key in ("arrow_left", "arrow_right", "home", "end", "tab"):
            self.services.ignore(key)
        self.sheet_view.hide()
        self.replay_bar.destroy()
        self.replay_view.destroy()
        self.replay_view = None
        self._close()


class ResumeScreen(Screen):
    """State ``Resume``: on start, a game in progress: resume it or start over."""

    name = "Resume"

    def enter(self, resume) -> None:
        p = self._panel("Welcome back", width=1.0, height=0.42)
        p.text("You have a game in progress:", 0.14, 0.05)
        ladder = tournament.peek()  # a damaged file is the ladder screen's to tell
        line = resume.describe()
        if ladder is not None and resume.record.game_id and ladder.playing == resume.record.game_id:
            line = f"{ladder.title()}: {line}"
        p.text(line, 0.04, 0.046, fg=GOLD)
        p.button(
            "resume",
            "Resume",
            lambda: self.services.resume_game(resume),
            (0.35, -0.24),
            scale=0.065,
        )
        p.button(
            "new",
            "New game",
            lambda: self.request(
                "Confirm",
                "Start over?",
                "Your game in progress will be deleted.",
                "Delete it",
                self._discard_resume,
                ("Resume", resume),
            ),
            (-0.35, -0.24),
            scale=0.06,
        )
        self._esc("Menu")

    def _discard_resume(self) -> None:
        from ...saves import delete_save

        delete_save()
        self.request("Menu")


def draw_chart(parent, rows, origin, width: float, height: float) -> DirectFrame:
    """A bar per level: games won (green) then lost (red), scaled to the most games; the box
    as tall as its bars need, ``height`` at most (one level's bar sat at the top of a box
    sized for five)."""
    height = min(height, 0.08 + CHART_ROW * len(rows))
    root = DirectFrame(
        parent=parent,
        frameColor=(0, 0, 0, 0.25),
        frameSize=(0, width + 0.45, -height, 0.08),
        pos=(origin[0], 0, origin[1]),
    )
    OnscreenText(
        parent=root,
        text="Games won and lost",
        pos=(0.02, 0.01),
        scale=0.04,
        fg=GOLD,
        align=TextNode.ALeft,
    )
    if not rows:
        return root
    most = max(w + lost for _, w, lost in rows) or 1
    bar_h = min(0.07, (height - 0.06) / len(rows) * 0.7)
    step = (height - 0.06) / len(rows)
    x0 = 0.55
    for i, (level, won, lost) in enumerate(rows):
        y = -0.06 - i * step - bar_h
        OnscreenText(
            parent=root,
            text=LEVEL_NAMES.get(level, level),
            pos=(0.02, y + 0.02),
            scale=0.038,
            fg=(1, 1, 1, 1),
            align=TextNode.ALeft,
        )
        w_won = width * won / most
        w_lost = width * lost / most
        if won:
            DirectFrame(
                parent=root,
                frameColor=WON,
                relief=DGG.FLAT,
                frameSize=(x0, x0 + w_won, y, y + bar_h),
            )
        if lost:
            DirectFrame(
                parent=root,
                frameColor=LOST,
                relief=DGG.FLAT,
                frameSize=(x0 + w_won, x0 + w_won + w_lost, y, y + bar_h),
            )
        OnscreenText(
            parent=root,
            text=f"{won} won, {lost} lost",
            pos=(x0 + w_won + w_lost + 0.03, y + 0.02),
            scale=0.034,
            fg=(0.9, 0.9, 0.9, 1),
            align=TextNode.ALeft,
        )
    return root


def _versus(r: HandRecord) -> str:
    """Who a hand in the list was played by: "You vs Walt"; a three-player hand's two
    players (you may have sat at either seat); a partnership round's two teams."""
    kind = {
        THREE_PLAYERS: " (three players)",
        PARTNERSHIPS: " (partnerships)",
        "lan": " (LAN)",
        "online": " (online)",
    }.get(r.opponent_level or "", "")
    return f"{r.versus()}{kind}"
