"""The public moves of a table's hands (docs/net.md, *Watching the other table*): each player
tells the table every public move of the hands it plays (``tplay``: a deal, a draw from the
pile, a discard, never a card taken from the stock), so the players not at a hand can follow
it as it is played; what a player told is checked against the hand once agreed and replayed.

``PublicMoves`` is the part of ``table.TablePeer`` that tells ours and watches the others';
the rest of the table (links, hands, records, verdicts) is ``TablePeer``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .ended import MatchEnded
from .protocol import MAX_TOLD, ProtocolError
from .publicmoves import PublicHand, decode, encode, public_events, told_truly
from .session import Timing
from .tablegame import TableGame


class PublicMoves:
    """Telling the table our hands' public moves, and watching those the others tell."""

    index: int
    players: int
    table: TableGame | None
    timing: Timing
    # each public move of the hand under way that we watch (``watched_from``)
    on_watch: Callable[[int, tuple[int, int], list, PublicHand], None] | None
    watched: dict[tuple[int, int], PublicHand]  # (hand, player) -> what it told of the hand
    unheard: set[tuple[int, int]]  # such a hand refused: no more heard
    _telling: asyncio.Queue | None  # our public moves, sent in order

    def _played_by(self, hand: int, seats: tuple[int, int]) -> tuple[int, int]:
        raise NotImplementedError  # the table's: who plays each seat of a hand

    async def _refuse(self, p: int, reason: str) -> None:
        raise NotImplementedError

    async def _broadcast(self, msg: dict) -> None:
        raise NotImplementedError

    def _spawn(self, coro) -> None:
        raise NotImplementedError

    async def _take_play(self, msg: dict) -> None:
        """Public moves of a hand under way from one of its players: kept if they make
        sense as that hand's next moves (refused if not), the app told of those it shows.
        A hand not under way here (long over, or a move ahead of our table) is let go."""
        p, hand = msg["p"], msg["hand"]
        now = {h: seats for h, seats, _ in self.table.next_hands()} if self.table else {}
        if hand not in now:
            return
        seats = now[hand]
        try:
            by = self._played_by(hand, seats)
        except MatchEnded:
            return
        if p not in by:
            await self._refuse(
                p, f"player {p} told moves of hand {hand + 1}, which it does not play"
            )
            return
        key = (hand, p)
        if key in self.unheard:
            return  # refused once already: the rest of that hand from it is not heard
        told = self.watched.setdefault(key, PublicHand())
        try:
            if msg["n"] != len(told.events):
                raise ProtocolError(f"move {msg['n'] + 1} told after {len(told.events)}")
            events = [decode(text) for text in msg["ev"]]
            told.take(events)
        except ProtocolError as exc:
            self.unheard.add(key)
            await self._refuse(p, f"player {p} told hand {hand + 1} wrongly: {exc}"[:200])
            return
        if self.on_watch is not None and p == self.watched_from(hand, seats):
            self.on_watch(hand, seats, events, told)

    def watched_from(self, hand: int, seats: tuple[int, int]) -> int | None:
        """Whose public moves of ``hand`` we show: at four, the one playing our partner's
        seat at the other table; at three, while we sit it out, the one at its seat 0."""
        if self.index in seats:
            return None
        try:
            by = self._played_by(hand, seats)
        except MatchEnded:
            return None
        if self.players == 4:
            partner = (self.index + 2) % 4
            return by[seats.index(partner)] if partner in seats else None
        return by[0]

    def _tell(self, hand: int, view, told: list[int]) -> None:
        """The public moves of our hand that the table has not been told yet, queued."""
        if self._telling is None:
            self._telling = asyncio.Queue()
            self._spawn(self._tell_table())
        moves = [encode(e) for e in public_events(view.history)]
        while told[0] < len(moves):
            chunk = moves[told[0] : told[0] + MAX_TOLD]
            self._queue_told(
                {"t": "tplay", "p": self.index, "hand": hand, "n": told[0], "ev": chunk}
            )
            told[0] += len(chunk)

    def _queue_told(self, msg: dict) -> None:
        self._telling.put_nowait(msg)

    async def _tell_table(self) -> None:
        """Send our public moves, one after another, as they come."""
        while True:  # (cancelled with the table's other tasks when it closes)
            msg = await self._telling.get()
            try:
                await self._broadcast(msg)
            finally:
                self._telling.task_done()

    async def _told(self) -> None:
        """Until every public move queued so far is sent (before a hand's record)."""
        if self._telling is not None:
            try:
                await asyncio.wait_for(self._telling.join(), self.timing.stall)
            except asyncio.TimeoutError:
                pass  # a link that takes nothing: its loss is seen where it is read

    async def _check_told(self, hands) -> None:
        """What each player told of the round's hands, against the hands replayed: a
        player who told moves it did not play is refused (the table hears of it)."""
        played = dict(zip((h for h, _, _ in hands), self.table.played(), strict=True))
        for (hand, p), told in sorted(self.watched.items()):
            heard = (hand, p) not in self.unheard
            if heard and hand in played and not told_truly(told.events, played[hand].events):
                await self._refuse(p, f"player {p} told moves of hand {hand + 1} it did not play")
        last = hands[-1][0]
        self.watched = {k: v for k, v in self.watched.items() if k[0] > last}
        self.unheard = {k for k in self.unheard if k[0] > last}
