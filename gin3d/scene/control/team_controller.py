"""The table of a partnership game: your hand on the table, your partner's beside it.

``PartnershipController`` is a ``TableController`` over a ``driver.TeamTable``: your hand
against the opponent you face this round is played on the table as any two-player hand;
your partner's hand against the other opponent runs at the same time on a second
``GameDriver`` (the same computer seats), told in the HUD's notes and played, animated, on
a small second table left of yours (``inset.InsetView``). Once your hand is over and theirs
is not, ``watch_partner`` (the W key, or a click on the inset) shows theirs on the table,
from over their shoulder, and yours in the inset, until the next deal (W or a click on the
inset again goes back to yours). The round's result screen opens
once both hands are over, not when yours is.
"""

from __future__ import annotations

from ...driver import MOVED, GameDriver
from ...driver.team_table import TeamTable
from ...engine import redact
from ...engine.sheet import ScoreSheet, score_sheet
from ..tabletop.inset import InsetView
from .controller import PlayerNames, TableController

PARTNER_STEPS = 400  # moves the partner's table may make in one pump (a whole hand is ~100)
# the knock's rows a little smaller, so the widest (four groups) ends right of the inset
SPREAD_ROOM = 0.82


class PartnershipController(PlayerNames, TableController):
    """Runs a partnership game on a ``TableScene``; ``names`` at construction are the four
    players' names, by player (0 you, 2 your partner; 1 and 3 the other team)."""

    def __init__(
        self,
        base,
        scene,
        table: TeamTable,
        players: list,
        think: tuple[float, float] = (0.6, 1.2),
        names: tuple[str, str, str, str] = ("You", "Computer", "Partner", "Computer"),
    ) -> None:
        if len(names) != 4 or len(players) != 4:
            raise ValueError("a partnership table needs four players and four names")
        self._done = [False, False]  # each table's hand of this round reported over
        self.watching = False  # your partner's hand is on the table (yours is over)
        # the inset takes the left: chosen before the hand so far is shown (a resumed hand
        # already over puts the stock and the pile aside as it is rebuilt)
        scene.frame_spreads(0.0, SPREAD_ROOM, aside=1)
        super().__init__(base, scene, table, players, think=think, names=names)
        self.partner = GameDriver(table.partner, self.seats, pace=self.queue.seconds)
        self.partner.on_hand_finished.append(lambda g: self._table_done(1))
        self.partner.on_events.append(self._partner_events)
        # after a move at either table (the save keeps both): the hooks of yours
        self.partner.on_applied.append(self._partner_applied)
        factory = scene.factory
        self.inset = InsetView(
            base, self.queue.speed, factory.back_name, factory.style, scene.detail
        )
        self.inset.queue.on_idle.append(self._label_inset)
        self._inset_hand = None  # the hand the inset shows (its events so far given it)
        self._follow_partner()  # their deal
        self._changed()

    def can_skip(self) -> bool:
        """Not at a team table: both tables' hands go on together, each at its pace."""
        return False

    felt_pad = False  # the partner's table (the inset) takes the felt's left

    def score_sheet(self) -> ScoreSheet | None:
        """The game's sheet: a column per team (yours first), a line per round."""
        return score_sheet(self.game.game)

    def sheet_names(self) -> tuple[str, ...]:
        return ("We", "They")  # the partnership pad's own headings

    # -- names and what the HUD tells ---------------------------------------------------
    def seated(self) -> tuple[int, int]:
        """The players at table seats 0 and 1: you and the opponent you face this round,
        or while you watch, your partner and theirs."""
        return self.game.partner.playing if self.watching else self.game.local

    @property
    def team_names(self) -> tuple[str, str]:
        """Each team's players, yours first: "You & Margo", "Walt & Rosie"."""
        n = self.player_names
        return f"{n[0]} & {n[2]}", f"{n[1]} & {n[3]}"

    @property
    def round_over(self) -> bool:
        return self.game.round_over

    @property
    def quiet_seat(self) -> int | None:
        """While you watch your partner, every move is told."""
        return None if self.watching else 0

    def view(self, seat: int = 0):
        """Your view of your hand, or while you watch, your partner's, with the team scores
        (``seat`` is always table seat 0)."""
        return self.game.table_view(partner=self.watching)

    def watching_line(self) -> str:
        """The prompt while you watch your partner's hand ("" while your own is shown)."""
        if not self.watching:
            return ""
        mate, rival = self.names
        return f"Watching {mate} play {rival} - W: your hand"

    def table_line(self, table, stock: bool = False) -> str:
        """One table: who plays whom, (``stock``: the cards in stock and) whose turn; once
        over, how it ended."""
        hand = table.hand
        mate, rival = (self.player_names[p] for p in table.playing)
        head = f"{mate} vs {rival}"
        if not hand.over:
            turn = self.player_names[table.turn]
            count = f"{len(hand.stock)} cards in stock, " if stock else ""
            return f"{head}: {count}{turn} to play"
        if hand.result is None:
            return f"{head}: a drawn hand"
        won = self.player_names[table.playing[hand.winner]]
        return f"{head}: {won} won {hand.result.points}"

    def partner_line(self) -> str:
        """Your partner's table, for the HUD's notes."""
        return f"Partner {self.table_line(self.game.partner, stock=True)}"

    def inset_lines(self) -> str:
        """The inset's label: the table it shows (yours while you watch your partner's),
        then what a click or W does."""
        table = self.game if self.watching else self.game.partner
        if self.watching:
            how = "Your table - click or W to go back to it"
        elif self.can_watch():
            how = "Your partner's table - click or W to watch"
        else:
            how = "Your partner's table"
        return f"{self.table_line(table)}\n{how}"

    def hud_notes(self) -> tuple[str, ...]:
        """The HUD's lines under the scores: the partner's table, and while your hand
        waits for it, that the round ends with it."""
        waiting = self.game.hand.over and not self.game.partner.hand.over
        return (self.partner_line(),) + (
            ("Your hand is over: W to watch your partner's",)
            if waiting and not self.watching
            else ()
        )

    # -- watching your partner's hand ----------------------------------------------------
    def can_watch(self) -> bool:
        """Whether W switches tables now: your hand is over, theirs goes on."""
        return self.game.hand.over and not self.game.partner.hand.over and not self.paused

    def watch_partner(self) -> bool:
        """Show your partner's hand on the table (or yours again); False when not now."""
        if not (self.watching or self.can_watch()):
            return False
        self.watching = not self.watching
        hand = self.game.partner.hand if self.watching else self.game.hand
        self._inset_hand = self.game.hand if self.watching else self.game.partner.hand
        self.inset.rebuild(self._inset_hand.events)
        speed, self.queue.speed = self.queue.speed, 0  # rebuilt at once, not dealt again
        try:
            for e in hand.events:
                self.scene.show_event(redact(e, 0))
            self.queue.finish_all()
        finally:
            self.queue.speed = speed
        self.scene._sync_stacks()  # at once too, not at the next frame's task
        mate, rival = self.names
        told = f"Your partner's table: {mate} vs {rival}" if self.watching else "Your table"
        for fn in list(self.on_message):
            fn(told)
        self._changed()
        return True

    def click_inset(self, mpos: tuple[float, float]) -> bool:
        """A click at ``mpos``: on the inset it switches tables as W does (or says when it
        can); False when the click is not on the inset."""
        if self.inset is None or not self.inset.contains(mpos):
            return False
        if not self.watch_partner():
            mate = self.player_names[2]
            for fn in list(self.on_message):
                fn(f"You can watch {mate}'s table on yours once your hand is over")
        return True

    def _partner_events(self, action, events) -> None:
        """Your partner's moves go on the table (and are told) while you watch, else on
        the inset."""
        if self.watching:
            self.show_events(action, events)
        else:
            self._follow_partner(events)
        self._label_inset()

    def _partner_applied(self, action, events) -> None:
        for fn in list(self.on_applied):
            fn(action, events)

    def _follow_partner(self, events=()) -> None:
        """Your partner's new events on the inset; a hand it does not show yet (a new
        round's) from its deal on, whatever brought it first (their first move can come in
        the deal's own pump)."""
        hand = self.game.partner.hand
        if hand is not self._inset_hand:
            self._inset_hand = hand
            events = hand.events
        self.inset.show_events(events, self.queue.speed)

    def _label_inset(self) -> None:
        """The inset's line and its turn strip, for the hand it shows now; while a move
        plays there, once it has (the queue's ``on_idle``)."""
        inset = getattr(self, "inset", None)  # (the first changes come from __init__)
        if inset is not None and not inset.queue.busy:
            hand = self.game.hand if self.watching else self.game.partner.hand
            inset.set_label(self.inset_lines(), None if hand.over else hand.turn)

    def _changed(self) -> None:
        self._label_inset()
        super()._changed()

    # -- both tables ---------------------------------------------------------------------
    def advance(self) -> None:
        """Your table as any table moves on, then your partner's, each move once the last
        has played (on the inset, or on the table while you watch): a move each time, and
        once your hand is over, all it can."""
        super().advance()
        partner = getattr(self, "partner", None)  # (the first advance comes from __init__)
        if partner is None or self.paused:
            return
        steps = PARTNER_STEPS if self.game.hand.over else 1
        moved = False
        for _ in range(steps):
            inset = getattr(self, "inset", None)
            if inset is None or (self.queue if self.watching else inset.queue).busy:
                break  # each move animates first
            if partner.pump(self._now()) != MOVED:
                break
            moved = True
        if moved:
            self._changed()

    def next_hand(self) -> bool:
        """Deal the next round once both hands are over."""
        if not self.game.round_over:
            return False
        if self.queue.busy:
            return False
        self._done = [False, False]
        self.watching = False  # the next deal is yours, on your table
        if not super().next_hand():
            return False
        self._follow_partner()  # their deal, unless a move of theirs brought it already
        self._changed()
        return True

    def set_shown(self, on: bool) -> None:
        """The inset is shown with the HUD."""
        self.inset.set_shown(on)

    def set_paused(self, paused: bool) -> None:
        if not paused and getattr(self, "partner", None) is not None:
            self.partner.restart_pause()
        super().set_paused(paused)

    def _hand_finished(self, game) -> None:
        self._table_done(0)

    def _table_done(self, table: int) -> None:
        """One table's hand is over; the round's result opens once both are."""
        self._done[table] = True
        if all(self._done) and self.game.round_over:
            super()._hand_finished(self.game)

    def destroy(self) -> None:
        super().destroy()
        self.partner.on_hand_finished.clear()
        self.partner.on_events.clear()
        self.partner.on_applied.clear()
        if self.inset is not None:
            self.inset.destroy()
            self.inset = None  # freed now (the controller may live on a while)
        self.scene.frame_spreads()  # the table is the next game's too
