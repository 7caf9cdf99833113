"""A network table of three, or four in two teams, on the table: ``NetGroupController``.

It is a ``NetTableController`` (your own hand comes move by move from the service, your
moves go back with ``net.play``) that also knows the table: the hands under way (the
``table`` event), and after every agreed hand the engine's group game, which every player
replays itself (``hand_over``: ``ThreePlayerGame`` or ``PartnershipGame``). It shows that
game with the single-player presentation: the driver's ``ThreePlayerTable`` / team table
for the result screens, the player sitting out with their score on the pad, the team
scores, whose turn it is. A hand you sit out (three players) plays on the table as its
public moves come, both hands face down, and is laid out once agreed, every card open, so
you see how it went before its result. Your partner's hand
(four players) plays on the inset as its public moves come (``netwatch.PartnerWatch``), is
told on the pad while it is under way and shown in the round's result.
"""

from __future__ import annotations

from dataclasses import replace

from ...driver.groups import PartnershipTable
from ...driver.three_table import ThreePlayerTable
from ...engine import HandDrawn, HandScored, PartnershipGame, redact
from ...engine.groups import team_of
from ...engine.sheet import ScoreSheet, score_sheet
from .netcontroller import NetTableController
from .netwatch import PartnerWatch
from .perspective import local_view, waiting_view


class NetTeamTable(PartnershipTable):
    """The table of a partnership round that player ``me`` played, for the result screens
    (``players``, ``game``, ``hand``, ``over``, ``winner``, ``totals``)."""

    players = 4

    def __init__(self, game: PartnershipGame, me: int) -> None:
        table = next(t for t in (0, 1) if me in game.seats[t])
        super().__init__(game, table)
        self.rules = game.rules
        self.winner = game.winner

    def totals(self) -> list[int]:
        return self.game.totals()


class NetGroupController(NetTableController):
    """The table of a network game of ``players`` (3, or 4 in two teams) where the local
    player is player ``me``; ``names`` are every player's, by player."""

    def __init__(
        self, base, scene, net, me: int, players: int, names: tuple[str, ...], rules
    ) -> None:
        if players not in (3, 4) or len(names) != players:
            raise ValueError("a network table has 3 or 4 players, each named")
        self.rules = rules
        self.me = me
        self.players = players
        self.player_names = tuple(names)
        self.group = None  # the engine's group game after the last agreed hand (a copy)
        self.table = None  # that game from our chair, as the result screens read it
        self.hands_now: list = []  # the hands under way: (table hand, its two players)
        self.playing: tuple[int, int] | None = None  # the players of our hand, seats 0 and 1
        self.hand_number: int | None = None  # the table's number of the hand we play
        self.watch = None  # your partner's table (four players)
        self.on_partner = False  # their hand on the table, yours (over) in the inset
        self._mine: tuple[str, str] = ("", "")  # your hand's two names meanwhile
        super().__init__(base, scene, net, (names[me], "?"))
        if players == 4:
            self.watch = PartnerWatch(base, scene, self.queue.speed, names, self._changed)

    # -- what the table and the result screens read --------------------------------------
    @property
    def game(self):
        """The table's game from our chair (None before the first hand is agreed)."""
        return self.table

    felt_pad = False  # three columns, or the partner's table on the felt's left

    def score_sheet(self) -> ScoreSheet:
        """The table's sheet after the last agreed hand: a column per player (three) or per
        team (four: team 0 first), empty before the first."""
        if self.group is not None:
            return score_sheet(self.group)
        sides, target = (3, self.rules.game_target)
        if self.players == 4:
            sides, target = 2, self.rules.partnership_target
        return ScoreSheet((), (0,) * sides, target)

    def sheet_names(self) -> tuple[str, ...]:
        if self.players == 4:
            n = self.player_names
            return tuple(f"{n[t]} & {n[t + 2]}" for t in (0, 1))
        return self.player_names

    @property
    def team_names(self) -> tuple[str, str] | None:
        """A partnership's two teams, yours first (the pad's score lines)."""
        if self.players != 4:
            return None
        n, mine = self.player_names, team_of(self.me)
        teams = [f"{n[t]} & {n[t + 2]}" for t in (0, 1)]
        return teams[mine], teams[1 - mine]

    @property
    def bench(self) -> tuple[str, int] | None:
        """Three players: who sits the hand under way out, and their score."""
        if self.players != 3 or not self.hands_now:
            return None
        out = next(p for p in range(3) if p not in self.hands_now[0][1])
        return self.player_names[out], self._running()[out]

    def watching_line(self) -> str:
        """The prompt while you sit a hand out, or watch your partner's ("" while you
        play)."""
        if self.on_partner:
            mate, rival = self.names
            return f"Watching {mate} play {rival} - W: your hand"
        if self.players != 3 or not self.hands_now or self.me in self.hands_now[0][1]:
            return ""
        a, b = (self.player_names[p] for p in self.hands_now[0][1])
        return f"You sit out this hand \N{EM DASH} {a} plays {b}"

    def hud_notes(self) -> tuple[str, ...]:
        """Four players: your partner's table while it is under way."""
        if self.players != 4:
            return ()
        for hand, seats in self.hands_now:
            if self.me not in seats:
                if self.watch is not None and self.watch.hand == hand and self.watch.settled:
                    waiting = ("Your hand is over: W to watch your partner's",)
                    return (f"Partner's table: {self.watch.settled}",) + (
                        waiting if self.can_watch() else ()
                    )
                a, b = (self.player_names[p] for p in seats)
                return (f"Partner's table: {a} vs {b}, playing",)
        return ()

    def _running(self) -> list[int]:
        return list(self.group.running()) if self.group is not None else [0] * self.players

    # -- events from the NetService --------------------------------------------------------
    def handle(self, ev) -> None:
        """The table's events, each in its place among our hand's moves."""
        data = ev.data
        if ev.kind == "table":
            hands = list(data.get("hands", []))
            self.feed.then(lambda: self._hands(hands))
        elif ev.kind == "game":
            hand, seats = data["hand"], tuple(data["seats"])
            self.feed.then(lambda: self._our_hand(hand, seats))
            self._fed(data)
        elif ev.kind == "your_turn":
            view = data["view"]
            self.feed.then(lambda: self._your_turn(view))
        elif ev.kind == "hand_over":
            game = data["game"]
            self.feed.finish(lambda: self._agreed(game))
        elif ev.kind == "watch" and self.watch is not None:
            if self.on_partner and data["hand"] != self.watch.hand:
                self._back_to_ours()  # a new round's deal: theirs goes back to the inset
            events = self.watch.show(data, self.queue.speed)  # at once: at its own pace
            if self.on_partner:  # on our table while we watch it
                for e in events:
                    self.scene.show_event(e)
                    self._narrate(e)
        elif ev.kind == "watch":
            self.feed.then(lambda: self._sat_out_moves(data))
        self.advance()

    def _hands(self, hands: list) -> None:
        """The hands under way now; a hand of three we sit out clears the table, its two
        players' names and scores on the pad."""
        new = hands and (not self.hands_now or hands[0][0] != self.hands_now[0][0])
        self.hands_now = hands
        if new and self.players == 3 and self.me not in hands[0][1]:
            seats = hands[0][1]
            self.playing = None
            self.feed.asked = None
            self.names = tuple(self.player_names[p] for p in seats)
            run = self._running()
            view = waiting_view(self.rules)
            scores = (run[seats[0]], run[seats[1]])
            self.feed.current = replace(view, scores=scores, target=self.rules.game_target)
            self.scene.clear_table()
        self._changed()

    def _sat_out_moves(self, data: dict) -> None:
        """Three players: the next public moves of the hand we sit out, on the table as
        they come (its seat 0 nearest, both hands face down until laid out) and told, in
        their place after the table was cleared for it."""
        hands = self.hands_now
        if self.playing is not None or not hands or data["hand"] != hands[0][0]:
            return
        for e in data["events"]:
            self.scene.show_event(e)
            self._narrate(e)

    def _our_hand(self, hand: int, seats: tuple[int, int]) -> None:
        """A move of the hand we play: our seat and opponent's name are this hand's."""
        if hand != self.hand_number:
            self.hand_number = hand
            self.playing = seats
            self.seat = seats.index(self.me)
            self.names = (self.player_names[self.me], self.player_names[seats[1 - self.seat]])

    def _shaped(self, view):
        """Our hand's view with the table's scores, our seat 0."""
        return local_view(self._scored(view))

    def _scored(self, view):
        """A hand's view with the table's scores (its match of one hand knows none): the
        two players', or at four their teams', and the table's target."""
        if self.playing is None:
            return view
        run = self._running()
        if self.players == 4:
            scores = tuple(self._team_running(team_of(p)) for p in self.playing)
            target = view.rules.partnership_target
        else:
            scores = tuple(run[p] for p in self.playing)
            target = view.rules.game_target
        return replace(view, scores=scores, target=target)

    def _team_running(self, team: int) -> int:
        return self.group.running()[team] if self.group is not None else 0

    def _agreed(self, game) -> bool:
        """A hand (or round) agreed by the table, in its place: the table's game as the
        result screens read it, a hand we sat out laid out with every card open; whether
        the game is over."""
        self.group = game
        self.feed.asked = None  # (before the hand sat out is laid out: that ends animations)
        self.playing = None
        if self.players == 3:
            self.table = ThreePlayerTable(game, me=self.me)
            self.names = tuple(self.player_names[p] for p in self.table.local)
            if self.table.watching:
                self._lay_out(self.table.events)
        else:
            self.table = NetTeamTable(game, self.me)
        return self.table.over

    def _hand_finished(self, game) -> None:
        """The driver reports the agreed hand: its result screen, a frame later."""
        self._announce_next_frame()

    def _announce_next_frame(self) -> None:
        """The result screen a frame later: a hand sat out is laid out at once, so its
        result can be due while the previous result's Next hand is still being pressed
        (the screen must reach the table before it opens the next result)."""
        self.base.taskMgr.doMethodLater(0, lambda task: self._announce(), self._announce_task)

    @property
    def _announce_task(self) -> str:
        return f"net-table-result-{id(self)}"

    def _lay_out(self, events) -> None:
        """A whole hand on the table at once (from the near seat's chair)."""
        speed, self.queue.speed = self.queue.speed, 0
        try:
            for e in events:
                self.scene.show_event(redact(e, 0))
            self.queue.finish_all()
        finally:
            self.queue.speed = speed

    def _announce(self) -> None:
        """After the hand's last animation: the result (or game-over) screen."""
        for fn in list(self.on_game_over if self.table.over else self.on_hand_over):
            fn(self.table)
        self._changed()

    # -- your partner's hand on your table (four players) ----------------------------------
    def can_watch(self) -> bool:
        """Your hand is over and your partner's is not: theirs may go on your table."""
        w = self.watch
        return (
            w is not None
            and w.hand is not None
            and not w.told.get("over", True)
            and self.playing is not None
            and self.current.phase == "over"
            and not self.showing_result
        )

    def watch_partner(self) -> bool:
        """W: your partner's hand on your table (their cards face down, each move played
        and told) and yours in the inset; W again, yours back. False when not now."""
        if not (self.on_partner or self.can_watch()):
            return False
        self.on_partner = not self.on_partner
        mine = [e for e in self.current.history]  # our hand, our seat 0
        if self.on_partner:
            self._mine = self.names
            self.names = tuple(self.player_names[p] for p in self.watch.players)
            self.watch.swap(mine, self._my_line(mine))
            self._lay(self.watch.events)
        else:
            self.names = self._mine
            self.watch.swap(None)
            self._lay(mine)
        mate, rival = self.names
        told = f"Your partner's table: {mate} vs {rival}" if self.on_partner else "Your table"
        for fn in list(self.on_message):
            fn(told)
        self._changed()
        return True

    def _my_line(self, events) -> str:
        """Your finished hand, for the inset's line: "You vs Player 2: Player 2 won 25"."""
        me, rival = self.names
        for e in reversed(events):
            if isinstance(e, HandScored):
                return f"{me} vs {rival}: {self.names[e.winner]} won {e.points}"
            if isinstance(e, HandDrawn):
                return f"{me} vs {rival}: a drawn hand"
        return f"{me} vs {rival}"

    def _lay(self, events) -> None:
        """A hand on the table at once, as its events have it so far."""
        self._lay_out(events)
        self.scene._sync_stacks()  # at once too, not at the next frame's task

    def _changed(self) -> None:
        """The inset's second line says what a click on it does now."""
        w = getattr(self, "watch", None)  # (the first changes come from __init__)
        if w is not None:
            w.how = (
                "Your partner's table - click or W to watch"
                if self.can_watch()
                else "Your partner's table - their cards stay theirs"
            )
            w._label()
        super()._changed()

    def _back_to_ours(self) -> None:
        """The next deal is ours, on our table: a partner's hand watched leaves it."""
        if self.on_partner:
            self.on_partner = False
            self.names = self._mine
            self.watch.swap(None)

    def click_inset(self, mpos: tuple[float, float]) -> bool:
        """A click on your partner's table switches tables as W does (once your hand is
        over), or says what it shows; False when the click is not on it."""
        if self.watch is None or not self.watch.contains(mpos):
            return False
        if not self.watch_partner():
            mate = self.player_names[(self.me + 2) % 4]
            for fn in list(self.on_message):
                fn(f"You can watch {mate}'s table on yours once your hand is over")
        return True

    def set_shown(self, on: bool) -> None:
        """Your partner's table is shown with the HUD."""
        if self.watch is not None:
            self.watch.set_shown(on)

    def destroy(self) -> None:
        self.base.taskMgr.remove(self._announce_task)
        super().destroy()
        if self.watch is not None:
            self.watch.destroy()
            self.watch = None

    def next_hand(self) -> bool:
        """Leave the result: on to the hand under way (it may be dealt already), on our
        own table."""
        if not self.showing_result or self.queue.busy or self.table is None or self.table.over:
            return False
        self._back_to_ours()
        self._release()
        return True


__all__ = ["NetGroupController", "NetTeamTable"]
