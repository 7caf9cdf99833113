"""A table of three, or four in two teams, as the app plays it: ``NetService.host_table`` and
``join_net_table`` run a ``TableHost`` / ``TableGuest`` on the network thread with the local
human's seat, and ``TableRun`` tells the app what happens there as ``NetEvent``s.

The events (docs/net.md, *The app's API*), in the words of a two-player match where they fit:

- ``table``: who sits where, each time it changes (``players``, ``you`` once seated,
  ``hands``: the hands under way now, each (table hand number, its two players),
  ``joined``: the players seated so far, told at the host; ``lost``: links lost, waiting
  out the grace time, at the host; ``away`` / ``back``: player -> the hand from which the
  computer plays its seat / it plays again).
- ``connected``: everyone is seated and the keys are known (``seat``, ``players``,
  ``rules``, ``safety_code``: the table safety code every player shows; ``names``: the
  name each player announced with its key, "" for none).
- ``game`` (``events``, ``view``, ``hand``: the table's hand number, ``seats``: its two
  players) for each move of a hand the local player plays, and ``your_turn`` from
  ``HumanSeat`` as in a two-player match.
- ``hand_over`` once a hand (three players) or a round of two (four) is agreed by the table
  and replayed here: ``game`` (a copy of the engine's ``ThreePlayerGame`` /
  ``PartnershipGame``, the app's to keep), ``totals``; ``game_over`` (``totals``,
  ``winner``) after the last.
- ``watch`` (``hand``, ``seats``, ``seat``: the hand seat of the player whose hand you
  follow, ``events``: its next public moves, ``stock``, ``turn``, ``over``, ``result``:
  (winner's hand seat, points) once scored) for your partner's hand at a table of four, or
  at three the hand you sit out, as its players tell the table (``publicmoves``).
- ``chat`` (``seat``: the player, ``text``) and ``emote`` (``seat``, ``name``) from the
  other players, as in a two-player match (``seat`` is a table's player here).
- ``note`` (``text``): every note and refusal the table has, in words.
- ``ended`` (``reason``, ``detail``, ``log_head``: the table's move log head, the same at
  every player of a finished game).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .ended import MatchEnded
from .table import TablePeer
from .tablehost import TableHost

SAFETY_NOTE = "table safety code "  # what ``TablePeer.run`` says once every key is known


class TableRun:
    """One table's peer, its hooks turned into events (``emit(kind, **data)``)."""

    def __init__(self, peer: TablePeer, emit: Callable[..., None]) -> None:
        self.peer = peer
        self.emit = emit
        self._told: dict | None = None
        peer.on_note = self._note
        peer.on_hand_event = self._hand_event
        peer.on_round = self._round
        peer.on_watch = self._watch
        peer.on_chat = lambda p, text: self._chat("chat", seat=p, text=text)
        peer.on_emote = lambda p, name: self._chat("emote", seat=p, name=name)
        self._early: list[tuple[str, dict]] | None = []  # chat before ``connected``

    @property
    def hosting(self) -> bool:
        return isinstance(self.peer, TableHost)

    @property
    def done(self) -> bool:
        return self.peer.ended is not None

    def seats(self) -> dict[str, Any]:
        """Who sits where, as the ``table`` event tells it."""
        p = self.peer
        seated = self.hosting or p.seated.is_set()
        hands = p.table.next_hands() if p.table is not None and not p.table.over else []
        return {
            "hands": [(h, seats) for h, seats, _ in hands],
            "players": p.players,
            "you": p.index if seated else None,
            "joined": sorted(p.fingerprints) if self.hosting else [],
            "lost": sorted(p.waiting) if self.hosting else [],
            "away": dict(p.away),
            "back": dict(p.back),
        }

    def tell_seats(self) -> None:
        """A ``table`` event when who sits where changed since the last one."""
        now = self.seats()
        if now != self._told:
            self._told = now
            self.emit("table", **now)

    def _note(self, text: str) -> None:
        self.emit("note", text=text)
        if text.startswith(SAFETY_NOTE):
            p = self.peer
            self.emit(
                "connected",
                route=getattr(p, "route", "") or "direct",
                opponent="",
                seat=p.index,
                players=p.players,
                rules=p.rules,
                safety_code=p.safety_code,
                names=[p.names.get(i, "") for i in range(p.players)],
            )
            early, self._early = self._early or [], None
            for kind, data in early:
                self.emit(kind, **data)
        self.tell_seats()

    def _chat(self, kind: str, **data) -> None:
        """A chat line or emote; one that comes before ``connected`` (a player who knew
        every key before we did) waits for it: the app's table is not there yet."""
        if self._early is not None:
            self._early.append((kind, data))
        else:
            self.emit(kind, **data)

    def _hand_event(
        self, hand: int, seats: tuple[int, int], events: list, view, seat, action
    ) -> None:
        self.emit(
            "game", events=events, view=view, seat=seat, action=action, hand=hand, seats=seats
        )

    def _watch(self, hand: int, seats: tuple[int, int], events: list, told) -> None:
        """Your partner's hand at a table of four; at three, the hand you sit out (told
        from its seat 0)."""
        partner = (self.peer.index + 2) % 4
        seat = seats.index(partner) if self.peer.players == 4 and partner in seats else 0
        self.emit(
            "watch",
            hand=hand,
            seats=seats,
            seat=seat,
            events=list(events),
            stock=told.stock,
            turn=told.turn,
            over=told.over,
            result=told.result,
        )

    def _round(self) -> None:
        table = self.peer.table
        game = copy.deepcopy(table.game)  # the network thread plays on with its own
        self.emit("hand_over", game=game, totals=table.totals(), table=table.log.match_id)
        if table.over:
            self.emit("game_over", totals=table.totals(), winner=game.winner)

    async def run(self) -> None:
        """Play the table to its end; ``ended`` says how."""
        ended = await self.peer.play()
        table = self.peer.table
        head = table.log.head if table is not None else ""
        self.tell_seats()
        self.emit("ended", reason=ended.reason, detail=ended.detail, log_head=head)
        if self.hosting:  # a player away at the end may still come back to see it
            await self.peer.see_off()

    async def leave(self) -> None:
        """The local player leaves: the table stops for everyone, saying who left."""
        await self.peer._stop(MatchEnded("opponent left", f"player {self.peer.index} left"))

    async def close(self) -> None:
        await self.peer.close()
