"""The table's host (player 0): its door (at its address, and with a relay also at the
service, for players behind NAT), seating, passing every message on, a player lost and
coming back, and the computer player taking a seat past the grace time, or from a player
it removes for stalling or cheating (``tableconduct``), and the mute of a chat flooder. The
rest of what a player does is ``table.TablePeer``'s (docs/net.md, *Tables of three and four*).
"""

from __future__ import annotations

import asyncio

from gin3d.engine import RuleSet

from .channel import Link
from .ended import MatchEnded
from .peer import HostedMatch, MatchOptions
from .protocol import ProtocolError
from .session import Player
from .table import BROADCAST, LINK_ERRORS, TablePeer
from .tableconduct import muted_note, parse_claim, removed_note, you_muted_note
from .tablelink import is_resume
from .transport import Peer


class TableHost(TablePeer):
    """Player 0: listens, seats the others as they join with the code, passes messages on."""

    def __init__(
        self,
        player: Player,
        rules: RuleSet,
        players: int,
        code: str | None = None,
        listen: str = "127.0.0.1",
        port: int = 0,
        open_table: bool = False,
        relay: tuple[str, int] | list[tuple[str, int]] | None = None,
        **options,
    ) -> None:
        super().__init__(player, **options)
        if players not in (3, 4):
            raise ValueError("a table has 3 or 4 players")
        if relay is not None and open_table:
            raise ValueError("an open table is joined on the LAN only: no relay")
        self.rules = rules
        self.players = players
        # an open table (on the LAN list): its code is public, the host's fingerprint's;
        # with a relay the door also waits there for each guest (and for one coming back)
        self.door = TableDoor(self._seat_guest, code, listen, port, open_table, relay)
        self.code = self.door.code
        self.port = port
        self.full = asyncio.Event()
        self.fingerprints: dict[int, str] = {}  # who sits where: a player coming back
        self.waiting: dict[int, asyncio.TimerHandle] = {}  # players gone: their grace time
        self.lost_at: dict[int, float] = {}  # when each player's link was last lost
        # a hand's resume passed on to a player whose link is down, given on its return
        # (the last of each hand and sender: it waits for it before its match goes on)
        self.held: dict[int, dict[tuple[int, int], dict]] = {}
        self.seeing_off = False  # the game is over: a player away may still come to see it

    @property
    def failures(self) -> list[str]:
        """Connections that did not authenticate (a wrong code, a stranger)."""
        return self.door.failures

    async def start(self) -> None:
        await self.door.start()
        self.port = self.door.port

    async def _seat_guest(self, peer: Peer) -> None:
        """A guest who passed the door: the next free seat, until the table is full; then
        only a seated player whose link was lost, coming back."""
        if self.full.is_set():
            await self._welcome_back(peer)
            return
        index = len(self.links) + 1
        self.links[index] = peer.link
        self.fingerprints[index] = peer.peer_fingerprint
        self._say(f"seated player {index}")
        if len(self.links) == self.players - 1:
            self.full.set()
            for to in sorted(self.links):
                seat = {"t": "tseat", "you": to, "players": self.players}
                await self._send_to(to, {**seat, "rules": self.rules.to_dict()})
                self._spawn(self._read(self.links[to], to))

    def _ends(self) -> list[int]:
        return sorted(self.fingerprints)  # every seated guest

    async def _welcome_back(self, peer: Peer) -> None:
        """A seated player coming back: within its grace time it simply goes on; once
        replaced by the computer it plays its seat again from a hand nobody has begun."""
        back = next(
            (
                p
                for p, fp in self.fingerprints.items()
                if fp == peer.peer_fingerprint
                and p not in self.links
                and p not in self.removed
                and (p in self.waiting or p in self.away.keys() - self.back or self.seeing_off)
            ),
            None,
        )
        if back is None or (self.ended is not None and not self.seeing_off):
            peer.link.close()
            return
        try:
            await self._reattach(back, peer.link)
        except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
            peer.link.close()
            self.failures.append(f"player {back} could not resume: {exc}")
            return
        if self.ended is not None:  # sent every hand it missed: it replays them to the end
            self._say(f"player {back} is back to see the end")
            return
        self._say(f"player {back} is back")
        held = self.held.pop(back, {})
        if back in self.waiting:
            self.waiting.pop(back).cancel()
            for relayed in held.values():  # its hands' other players came back first
                await self._send_to(back, relayed)
            await self._resend_resumes(back)
            return
        # no player is past our round (its records all come through us); when all of it
        # is here, the others may have begun the next one: the player then waits one more
        hands = self.table.next_hands()
        ahead = all(self._complete(h, seats) for h, seats, _ in hands)
        hand = hands[-1][0] + 1 + (len(hands) if ahead else 0)
        self._set_back(back, hand)
        await self._broadcast({"t": "tback", "p": self.index, "player": back, "hand": hand})
        async with self.changed:
            self.changed.notify_all()

    async def _lost(self, sender: int, why: str, link: Link | None) -> None:
        if not self._gone(sender, link):
            return
        grace = self.timing.grace
        self._say(f"player {sender}'s link was lost ({why}): waiting {grace:.0f} s")
        loop = asyncio.get_running_loop()
        self.lost_at[sender] = loop.time()
        self.waiting[sender] = loop.call_later(grace, lambda: self._spawn(self._not_back(sender)))

    async def _not_back(self, p: int) -> None:
        """Past the grace time: a computer player takes the seat (from the first hand not
        complete here: every record any player holds came through us, so no player has
        settled it), or, before the game began, the table ends."""
        if self.waiting.pop(p, None) is None or self.ended is not None:
            return
        await self._replace(p, f"player {p} left the table")

    async def _replace(self, p: int, gone: str) -> None:
        """The computer plays ``p``'s seat from the first hand not complete here, or (before
        the game began, or ``p`` replaced once already) the table ends (``gone``: why)."""
        if self.table is None or self.stand_in is None or p in self.away:
            await self._stop(MatchEnded("opponent left", gone))
            return
        try:
            hands = self.table.next_hands()
            open_ = [h for h, seats, _ in hands if not self._complete(h, seats)]
            hand = open_[0] if open_ else hands[-1][0] + 1
            self._set_away(p, hand)
        except MatchEnded as ended:
            await self._stop(ended)
            return
        await self._broadcast({"t": "taway", "p": self.index, "player": p, "hand": hand})
        async with self.changed:
            self.changed.notify_all()

    async def _remove(self, p: int, reason: str, why: str) -> None:
        """The verdict on a guest who stopped playing or cheated: every player hears it, the
        computer plays its seat (``_replace``), its messages are no longer heard and it does
        not take its seat back (it may still watch the game to its end)."""
        if p == self.index or p in self.removed or self.ended is not None:
            return
        self.removed[p] = why
        timer = self.waiting.pop(p, None)
        if timer is not None:
            timer.cancel()
        verdict = removed_note(p, why)
        self._say(verdict)
        await self._broadcast({"t": "tnote", "p": self.index, "reason": verdict})
        if p not in self.away:
            await self._replace(p, f"player {p} was removed: {why}")

    async def _claimed(self, by: int, p: int, why: str) -> None:
        """A guest asks that ``p`` be removed: granted when both play a hand under way
        that is not complete here (its opponent owes it a move, or cheated in it)."""
        hands = self.table.next_hands() if self.table is not None else []
        for hand, seats, _ in hands:
            try:
                players = self._played_by(hand, seats)
            except MatchEnded:
                continue
            if by in players and p in players and p != by and not self._complete(hand, seats):
                self._say(f"player {by} asks that player {p} be removed {why}")
                await self._remove(p, "claimed", why)
                return
        self._say(f"player {by}'s claim against player {p} does not hold: {why}")

    async def _mute(self, p: int) -> None:
        """A chat flooder: its lines are no longer passed on; it and the table are told."""
        self._say(muted_note(p))
        await self._send_to(p, self.sig.sign({"t": "tnote", "p": 0, "reason": you_muted_note()}))
        note = self.sig.sign({"t": "tnote", "p": 0, "reason": muted_note(p)})
        for to in self._ends():
            if to != p:
                await self._send_to(to, note)

    def _complete(self, hand: int, seats: tuple[int, int]) -> bool:
        return all((hand, p) in self.records for p in self._played_by(hand, seats))

    async def play(self) -> MatchEnded:
        await self.full.wait()
        return await self.run()

    def _listening(self) -> bool:
        return self.ended is None or self.seeing_off

    async def see_off(self) -> None:
        """After a finished game, keep the door open for each seated player whose link is
        down: one that comes back is sent every hand it missed and replays them to the same
        end. Done when each has sent its final log head, or once it would have stopped
        dialing (``max(grace, stall)`` after its loss, as ``TableGuest._redial``)."""
        if self.ended is None or self.ended.reason != "finished":
            return
        away = [p for p in self.fingerprints if p not in self.links and p not in self.heads]
        if not away:
            return
        loop = asyncio.get_running_loop()
        wait = max(self.timing.grace, self.timing.stall)
        until = max(self.lost_at.get(p, loop.time()) for p in away) + wait
        self._say(f"keeping the table open for player {', '.join(map(str, away))}")
        self.seeing_off = True
        try:
            async with self.changed:
                await asyncio.wait_for(
                    self.changed.wait_for(lambda: all(p in self.heads for p in away)),
                    max(0.0, until - loop.time()),
                )
        except asyncio.TimeoutError:
            pass
        finally:
            self.seeing_off = False
        for p in away:
            if p not in self.heads:
                self._say(f"player {p} did not come back to see the end")
            elif self.heads[p] != self.table.log.head:
                self._say(f"player {p} saw a different end: its log differs")
            else:
                self._say(f"player {p} saw the end")

    async def _route(self, msg: dict, sender: int) -> None:
        kind = msg["t"]
        if sender in self.removed:
            return None  # it watches the game, but is no longer heard at the table
        if kind == "tpair":
            to = msg["p"]
            if to == sender or to >= self.players:
                return await self._refuse(sender, f"player {sender} sent a frame to player {to}")
            if not self.sig.holds(msg, sender, to):
                return await self._refuse(sender, _unsigned(sender, kind))
            if to != self.index:
                relayed = {**msg, "p": sender}
                if to not in self.links and to in self.waiting and is_resume(msg["m"]):
                    self.held.setdefault(to, {})[msg["hand"], sender] = relayed
                    return None
                return await self._send_to(to, relayed)
            why = self._deliver(msg["hand"], sender, msg["m"])
            if why is not None:
                await self._refuse(sender, f"player {sender} sent {why}")
        elif kind in BROADCAST and msg["p"] == sender:
            if not self.sig.holds(msg, sender):
                return await self._refuse(sender, _unsigned(sender, kind))
            claim = parse_claim(msg["reason"]) if kind == "tnote" else None
            if claim is not None:  # for the host alone: its verdict is what the table hears
                return await self._claimed(sender, *claim)
            if kind in ("tchat", "temote"):  # a muted player's lines are not passed on
                if await self._take_chat(msg):
                    await self._send_all(msg, but=sender)
                return None
            await self._send_all(msg, but=sender)
            await self._take(msg)
        else:
            await self._refuse(sender, f"player {sender} sent {kind} as player {msg.get('p')}")

    async def _send_pair(self, other: int, hand: int, body: str) -> None:
        msg = {"t": "tpair", "p": self.index, "hand": hand, "m": body}
        await self._send_to(other, self.sig.sign(msg, other))

    async def close(self) -> None:
        await self.door.close()
        for timer in self.waiting.values():
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for link in self.links.values():
            link.close()


class TableDoor(HostedMatch):
    """The table host's door: a two-player host's listening, limits on strangers (wrong-code
    budgets, handshakes per address, timeouts) and join-code handshake; each guest who
    passes is handed to ``seat`` instead of starting a match."""

    def __init__(
        self,
        seat,
        code: str | None,
        listen: str,
        port: int,
        open_table: bool = False,
        relay: tuple[str, int] | list[tuple[str, int]] | None = None,
    ) -> None:
        super().__init__(
            None,
            code=code,
            listen=listen,
            port=port,
            open_table=open_table,
            options=MatchOptions(relay=relay),
        )
        self._seat = seat

    async def _use(self, peer: Peer) -> None:
        await self._seat(peer)


def _unsigned(p: int, kind: str) -> str:
    return f"player {p}'s {kind} is not signed by player {p}"
