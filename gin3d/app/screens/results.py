"""The end of a hand and of a game: what happened, the arithmetic, points counting up."""

from __future__ import annotations

from direct.interval.IntervalGlobal import LerpFunctionInterval
from panda3d.core import TextNode

from ...scene.ui.palette import GOLD
from ...scene.ui.portraits import face_for, picture, trophy
from ...scene.ui.result_story import counted, hand_story
from .base import Screen
from .team_results import box_label, our_team, round_lines, team_labels, team_sheet


def score_rows(session) -> tuple[list[str], list[int], list[int]]:
    """The score line's names, and the scores before the hand just finished and now: the
    two seats, or a three-player game's three players (by player)."""
    game = session.game
    hand = game.hand
    gained = hand.result.points if hand.result is not None else 0
    if getattr(game, "players", 2) == 4:  # a partnership round: the teams
        team, points = game.game.results[-1]
        run = game.game.running()
        before = [r - (points if t == team else 0) for t, r in enumerate(run)]
        return list(team_labels(session.controller)), before, run
    if getattr(game, "players", 2) == 3:
        names = list(session.controller.player_names)
        run = game.game.running()
        winner = None if hand.winner is None else game.local[hand.winner]
    else:
        names = list(session.controller.names)
        run = game.score.running() if hasattr(game.score, "running") else game.totals()
        winner = hand.winner
    before = list(run)
    if winner is not None:
        before[winner] -= gained
    return names, before, list(run)


def hand_sound(game, winner: int) -> str:
    """The sound of a hand won by table seat ``winner``: yours won or lost, or a plain
    click for a three-player hand you sat out."""
    if getattr(game, "watching", False):
        return "click"
    me = getattr(game, "me", 0)  # the local player (a network table's seat may be any)
    return "hand_won" if getattr(game, "local", (0, 1))[winner] == me else "hand_lost"


def three_player_sheet(game) -> list[tuple[str, list[int]]]:
    """The rows of a finished three-player game's sheet, a value per player: hand points,
    the game bonus, the boxes (hands won, when the rules count them) and the total."""
    points, boxes = game.running(), game.boxes()
    rules = game.rules
    bonus = [rules.game_bonus if p == game.winner else 0 for p in range(3)]
    box = [rules.box_bonus * b if rules.three_player_boxes else 0 for b in boxes]
    return [
        ("Hand points", points),
        ("Game bonus", bonus),
        (box_label(boxes, rules.three_player_boxes), box),
        ("Total", game.totals()),
    ]


class ResultScreen(Screen):
    """What both result screens share: points that count up."""

    counter = None  # the count-up playing (finished when the screen is left)

    def _count_up(self, show) -> None:
        """Points count up on the result screens (instant at animation speed 0)."""
        dur = self.services.animation_seconds(1.0)
        show(0.0)
        if dur <= 0:
            show(1.0)
            return
        self.counter = LerpFunctionInterval(
            show, duration=dur, fromData=0.0, toData=1.0, blendType="easeOut"
        )
        self.counter.start()

    def _stop_counter(self) -> None:
        if self.counter is not None:
            self.counter.finish()
            self.counter = None


class HandResultScreen(ResultScreen):
    """State ``HandResult``: the hand just finished, over the table (Next hand)."""

    name = "HandResult"

    def enter(self) -> None:
        self.services.announce_achievements()  # the hand is counted in the records by now
        session = self.services.session
        game = session.game
        if getattr(game, "players", 2) == 4:
            self._round_result(session)
            return
        hand = game.hand
        names = session.controller.names
        # at the top, above both spreads (the opponent's hand is laid out by now)
        three = getattr(game, "players", 2) == 3  # three scores, each line a little tighter
        p = self._panel("", width=1.2, height=0.22, pos=(0, 0.76))
        if hand.result is None:
            p.title.setText("Drawn hand")
            p.text(
                "The stock ran down to two cards: nobody scores; the same dealer deals.",
                0.0,
                0.042,
            )
            self.services.play("click")
        else:
            r = hand.result
            winner = hand.winner
            p.title.setText(f"{names[winner]} won the hand")
            for y, line in zip((0.0, -0.065), hand_story(r, hand.knocker, names)):
                p.text(line, y, 0.046, fg=(1, 1, 0.8, 1))
            dead = {hand.knocker: r.knocker_deadwood, 1 - hand.knocker: r.other_deadwood}
            laid = f", {len(r.layoffs)} laid off" if r.layoffs else ""
            # seat order, as on the scores and the game-over sheet
            line = f"Deadwood: {names[0]} {dead[0]} - {names[1]} {dead[1]}{laid}"
            p.text(line, -0.15, 0.036, x=-0.72 if three else -0.62, fg=(0.85, 0.85, 0.8, 1))
            self.services.play(hand_sound(game, winner))
        who, before, run = score_rows(session)
        x = 0.0 if hand.result is None else (0.3 if three else 0.22)  # beside the deadwood
        score = p.text("", -0.15, 0.036 if three else 0.04, x=x, fg=(0.85, 1, 0.85, 1))
        target = (
            f"(to {game.rules.game_target})" if three else f"  (game to {game.rules.game_target})"
        )

        def show(f: float) -> None:
            now = [round(b + (r - b) * f) for b, r in zip(before, run)]
            scores = " - ".join(f"{n} {v}" for n, v in zip(who, now))
            score.setText(f"Score: {scores} {target}")

        self._count_up(show)
        self._next_hand_keys(p, (0.98, -0.145))

    def _next_hand_keys(self, p, pos: tuple[float, float]) -> None:
        p.button("next", "Next hand", self._next_hand, pos, scale=0.055)
        self.services.accept("enter", self._next_hand)
        self.services.accept("n", self._next_hand)
        self._esc("Pause")

    def _round_result(self, session) -> None:
        """A partnership round: both hands, the round by the difference rule, the teams'
        scores counting up."""
        title, lines = round_lines(session.controller)
        p = self._panel(title, width=1.25, height=0.25, pos=(0, 0.75))
        for y, line in zip((0.035, -0.025, -0.085), lines):
            p.text(line, y, 0.036, fg=(1, 1, 0.8, 1) if y > -0.05 else (0.85, 0.85, 0.8, 1))
        who, before, run = score_rows(session)
        score = p.text("", -0.165, 0.04, x=-0.2, fg=(0.85, 1, 0.85, 1))
        target = session.game.rules.partnership_target

        def show(f: float) -> None:
            now = [round(b + (r - b) * f) for b, r in zip(before, run)]
            scores = " - ".join(f"{n} {v}" for n, v in zip(who, now))
            score.setText(f"Teams: {scores}  (to {target})")

        self._count_up(show)
        team = session.game.game.results[-1][0]
        won = "hand_won" if team == our_team(session.controller) else "hand_lost"
        self.services.play("click" if team is None else won)
        self._next_hand_keys(p, (1.0, -0.165))

    def _next_hand(self) -> None:
        if self.services.session is not None and self.services.session.controller.next_hand():
            self.request("Table")

    def exit(self) -> None:
        self._stop_counter()
        self.services.ignore("enter")
        self.services.ignore("n")
        self._close()
        self.services.restore_table_keys()


class GameOverScreen(ResultScreen):
    """State ``GameOver``: the finished game's sheet (Play again, Main menu)."""

    name = "GameOver"

    def enter(self) -> None:
        self.services.announce_achievements()  # the game is counted in the records by now
        session = self.services.session
        game = session.game
        # the sheet stands on a cleared table: the last hand's cards, which peeked out at
        # its sides, are gathered into the deck (the sheet tells that hand)
        self.services.clear_table()
        if getattr(game, "players", 2) == 3:
            self._three_player_game_over(session)
            return
        if getattr(game, "players", 2) == 4:
            self._partnership_game_over(session)
            return
        names = session.controller.names
        winner = game.winner
        p = self._panel(f"{names[winner]} won the game!", width=1.0, height=0.78)
        self.services.play("game_won" if winner == 0 else "hand_lost")
        rows = game.score.breakdown() if hasattr(game.score, "breakdown") else None
        y = 0.45
        for seat, x in ((0, 0.25), (1, 0.65)):  # each player's portrait over their column
            p.text(names[seat], y, 0.05, x=x, fg=GOLD)
            picture(p.frame, face_for(seat, names[seat]), (x, y + 0.09), 0.05, lit=seat == winner)
        labels = (
            ("points", "Hand points"),
            ("game_bonus", "Game bonus"),
            ("boxes", "Boxes"),
            ("shutout", "Shutout"),
            ("total", "Total"),
        )
        boxes = game.score.boxes() if hasattr(game.score, "boxes") else (0, 0)
        totals = []
        for i, (key, label) in enumerate(labels):
            yy = y - 0.1 * (i + 1)
            p.text(label, yy, 0.045, x=-0.85, align=TextNode.ALeft)
            for seat, x in ((0, 0.25), (1, 0.65)):
                value = rows[seat][key] if rows else (game.totals()[seat] if key == "total" else 0)
                suffix = f" ({boxes[seat]} won)" if key == "boxes" else ""
                cell = p.text(f"{value}{suffix}", yy, 0.045, x=x)
                if key == "total":
                    totals.append((cell, value))
        self._count_up(lambda f: [c.setText(str(round(v * f))) for c, v in totals])
        p.text(
            f"Margin: {game.score.margin if hasattr(game.score, 'margin') else 0}",
            y - 0.68,
            0.055,
            fg=(1, 1, 0.8, 1),
        )
        last = game.hand.result
        if last is not None:  # the last hand's story, as its result would have told it
            story = hand_story(last, game.hand.knocker, names)
            for i, line in enumerate(story):
                p.text(line, y - 0.78 - 0.06 * i, 0.04, fg=(0.85, 1, 0.85, 1))
        p.button("again", "Play again", self._again, (-0.3, -0.62), scale=0.065)
        p.button("menu", "Main menu", lambda: self.request("Menu"), (0.35, -0.62), scale=0.06)
        if session.tournament:  # the ladder's game: what it meant, then back to the ladder
            p.buttons["again"]["text"] = "Ladder"
            p.text(session.verdict, -0.73, 0.045, fg=(1, 0.82, 0.3, 1))
            if session.trophy:
                trophy(p.frame, (-0.5, 0.53), 0.12)
        notes = getattr(session, "notes", None)
        if notes is not None:  # a network match: "Play again" asks the opponent for a rematch
            p.buttons["again"]["text"] = "Rematch"
            note = p.text("", -0.73, 0.04, fg=(0.85, 0.95, 1, 1))
            notes.append(note.setText)
        self._esc("Menu")

    def _three_player_game_over(self, session) -> None:
        """The game-over sheet of a three-player game: a column per player."""
        game = session.game
        names = session.controller.player_names
        winner = game.winner
        p = self._panel(f"{names[winner]} won the game!", width=1.1, height=0.78)
        self.services.play("game_won" if winner == game.me else "hand_lost")
        rows = three_player_sheet(game.game)
        y, columns = 0.45, (-0.12, 0.32, 0.76)
        for player, x in enumerate(columns):
            p.text(names[player], y, 0.042, x=x, fg=GOLD)
            face = face_for(player, names[player])
            picture(p.frame, face, (x, y + 0.09), 0.05, lit=player == winner)
        self._sheet(p, rows, columns, y)
        p.text(f"{counted(len(game.hands), 'hand')} played", y - 0.58, 0.05, fg=(1, 1, 0.8, 1))
        last, hand = game.hand.result, game.hand
        if last is not None and hand.winner is not None:  # the last hand's story
            pair = [names[player] for player in game.local]
            for i, line in enumerate(hand_story(last, hand.knocker, pair)):
                p.text(line, y - 0.68 - 0.06 * i, 0.04, fg=(0.85, 1, 0.85, 1))
        p.button("again", "Play again", self._again, (-0.3, -0.62), scale=0.065)
        p.button("menu", "Main menu", lambda: self.request("Menu"), (0.35, -0.62), scale=0.06)
        self._esc("Menu")

    def _partnership_game_over(self, session) -> None:
        """The game-over sheet of a partnership game: a column per team."""
        game = session.game.game
        teams = team_labels(session.controller)
        winner = game.winner
        p = self._panel(f"{teams[winner]} win the game!", width=1.1, height=0.78)
        self.services.play("game_won" if winner == our_team(session.controller) else "hand_lost")
        y, columns = 0.45, (0.2, 0.66)
        for team, x in enumerate(columns):
            p.text(teams[team], y, 0.042, x=x, fg=GOLD)
        self._sheet(p, team_sheet(game), columns, y)
        p.text(f"{counted(len(game.results), 'round')} played", y - 0.58, 0.05, fg=(1, 1, 0.8, 1))
        _, last = round_lines(session.controller)  # the last round's two hands
        for yy, line in zip((y - 0.68, y - 0.75), last):
            p.text(f"Last round: {line}", yy, 0.04, fg=(0.85, 1, 0.85, 1))
        p.button("again", "Play again", self._again, (-0.3, -0.62), scale=0.065)
        p.button("menu", "Main menu", lambda: self.request("Menu"), (0.35, -0.62), scale=0.06)
        self._esc("Menu")

    def _sheet(self, p, rows, columns, y: float) -> None:
        """A group game's sheet under its column heads at ``y``: a row per line of
        ``rows`` (label, a value per column), the last one's totals counting up."""
        totals = []
        for i, (label, values) in enumerate(rows):
            yy = y - 0.1 * (i + 1)
            p.text(label, yy, 0.045, x=-0.95, align=TextNode.ALeft)
            for value, x in zip(values, columns):
                cell = p.text(str(value), yy, 0.045, x=x)
                if i == len(rows) - 1:
                    totals.append((cell, value))
        self._count_up(lambda f: [c.setText(str(round(v * f))) for c, v in totals])

    def _again(self) -> None:
        if self.services.session.tournament:
            self.request("Tournament")
            return
        self.services.session.again()

    def exit(self) -> None:
        if getattr(self.services.session, "notes", None) is not None:
            self.services.session.notes.clear()
        self._stop_counter()
        self._close()
