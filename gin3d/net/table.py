"""A table of three players, or four in two teams, over the network (docs/net.md, *Tables of
three and four*).

One player hosts the table (``TableHost``): the others join it with one join code
(``TableGuest``), each over its own TLS link with the join-code handshake of a two-player
match. The host passes every message on. Each hand is played between its two players as a
two-player match of one hand (``tablehand.TableHandSession``: the same fair deal and checks),
its frames passing through the host as opaque text (``tablelink.PairLink``); at its end both
players send the table a record of it (deck and moves), and every player replays the agreed
hands with the engine (``tablegame.TableGame``), so every score is computed, never told. At
the end each player sends the head of its move log: the table finishes only when all agree.

Every message is signed by its player (``tablesig``), so the host cannot alter what it
passes on. A message that breaks the schema, comes from the wrong player, or is a record of
a hand its sender did not play, is refused (nothing changes, every player hears of it in a
``tnote``); two records of one hand that differ, a hand that does not replay, or a hand's
match ending in a cheat verdict, stop the table for everyone (``tend``), saying which player
and hand. A guest whose link is lost dials the host again within the grace time; both ends
then send what the other missed, and the hands under way resume. Past the grace time a
computer player takes the seat, run by a player not at its hands (``taway``), until the
player gets through again and takes it back (``tback``).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from gin3d.engine import RuleSet

from .channel import Link
from .ended import MatchEnded
from .peer import HostedMatch
from .protocol import FrameError, ProtocolError
from .session import CHEATED, Callbacks, Player, Timing
from .tablegame import Record, TableGame, stand_in
from .tablehand import TableHandSession, hand_match_id
from .tablelink import AHEAD, PairInbox, PairLink, is_resume
from .tablesig import TableKeys
from .transport import Identity, Peer, connect_direct

MAX_TABLE_REFUSALS = 20  # refused messages from one player before the table stops
NOTES_KEPT = 100  # notes from the other players kept (a flood of them costs nothing)
LINK_ERRORS = (ConnectionError, OSError, asyncio.IncompleteReadError, EOFError)
BROADCAST = frozenset(
    {"tkey", "tcommit", "topen", "trecord", "tnote", "tdone", "tend", "taway", "tback"}
)
VOID = "dealt again"  # a hand whose player was replaced under way
REDIAL_EVERY = 0.5  # seconds between a guest's tries to reach the host again
DISPUTED = "the table's hands are disputed"


@dataclass
class TablePeer:
    """One player of a table: its links, the seed, the hands it plays, the agreed game."""

    player: Player
    timing: Timing = field(default_factory=Timing)
    evidence_dir: str | None = None
    on_note: Callable[[str], None] | None = None  # every refusal and note, in words
    stand_in: Player | None = None  # plays a gone player's hands when we run its seat

    def __post_init__(self) -> None:
        self.index = 0
        self.players = 0
        self.rules: RuleSet | None = None
        self.links: dict[int, Link] = {}  # host: a link per guest; guest: {0: the host}
        self.inbox = PairInbox()
        self.commits: dict[int, str] = {}
        self.opens: dict[int, bytes] = {}
        self.records: dict[tuple[int, int], Record] = {}
        self.heads: dict[int, str] = {}
        self.refusals: list[str] = []
        self.notes: list[tuple[int, str]] = []  # what other players told the table
        self.refused_from: dict[int, int] = {}
        self.table: TableGame | None = None
        self.ended: MatchEnded | None = None
        self.changed = asyncio.Condition()
        self._tasks: set[asyncio.Task] = set()
        self.sessions: list[TableHandSession] = []
        self.sig = TableKeys()
        self.safety_code = ""
        # after a reconnect the table messages the other end missed are sent again: what
        # each link carried (signed kinds only; a hand's match resends its own frames)
        self.out_b: dict[int, list[dict]] = {}
        self.got_b: dict[int, int] = {}
        self.pairs: dict[tuple[int, int], TableHandSession] = {}  # hands under way
        self.attaching: set[tuple[int, int]] = set()
        self.awaiting_resume: set[tuple[int, int]] = set()  # we came back: until theirs
        self.away: dict[int, int] = {}  # player gone -> the hand from which it is replaced
        self.back: dict[int, int] = {}  # player come back -> the hand from which it plays
        self.pair_links: dict[tuple[int, int], PairLink] = {}  # each hand's current link

    # -- links ---------------------------------------------------------------------------
    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, link: Link, sender: int) -> None:
        """Every message from one link, until it ends; nothing a peer sends raises here."""
        while self.ended is None:
            try:
                msg = await link.recv()
            except FrameError as exc:
                return await self._lost(sender, str(exc), link)
            except ProtocolError as exc:
                await self._refuse(sender, f"a bad message from player {sender}: {exc}")
                continue
            except LINK_ERRORS as exc:
                return await self._lost(sender, str(exc) or type(exc).__name__, link)
            if msg["t"] in BROADCAST:
                self.got_b[sender] = self.got_b.get(sender, 0) + 1
            if msg["t"] != "tresume":  # a stray one: nothing to do
                await self._route(msg, sender)

    async def _route(self, msg: dict, sender: int) -> None:
        raise NotImplementedError  # host and guest route differently

    async def _lost(self, sender: int, why: str, link: Link | None) -> None:
        """The link to ``sender`` died: the host waits for that player to come back, a
        guest dials the host again (``Timing.grace`` both)."""
        raise NotImplementedError

    def _gone(self, sender: int, link: Link | None) -> bool:
        """Forget a dead link; False if it was already replaced (or the table is over)."""
        if link is not None and self.links.get(sender) is not link:
            return False
        gone = self.links.pop(sender, None)
        if gone is not None:
            gone.close()
        return gone is not None and self.ended is None

    async def _send_to(self, to: int, msg: dict) -> None:
        if msg["t"] in BROADCAST:
            self.out_b.setdefault(to, []).append(msg)  # sent again after a reconnect
        link = self.links.get(to)
        if link is None:
            return
        try:
            await link.send(msg)
        except LINK_ERRORS as exc:
            await self._lost(to, str(exc) or type(exc).__name__, link)

    async def _reattach(self, peer: int, link: Link) -> None:
        """A new link to ``peer`` after a lost one: each end says what it got, sends again
        what the other missed, and every hand under way on it resumes (``_resume_hands``)."""
        await link.send({"t": "tresume", "got": self.got_b.get(peer, 0)})
        first = await asyncio.wait_for(link.recv(), self.timing.dead_after)
        if first["t"] != "tresume":
            link.close()
            raise ProtocolError("the other end did not resume the table")
        out = self.out_b.get(peer, [])
        i = first["got"]
        while i < len(out):
            await link.send(out[i])
            i += 1
        self.links[peer] = link  # no await since the last check: nothing is skipped
        self._spawn(self._read(link, peer))

    def _resume_hand(self, hand: int, other: int, first: str | None) -> None:
        """Give a hand under way a new link (its match resends what was lost): when we
        came back (``first`` None: we send our resume first), or when its other player did
        (``first``: that player's resume, already here)."""
        key = (hand, other)
        session = self.pairs.get(key)
        if session is None or key in self.attaching or session.ended is not None:
            return
        self.attaching.add(key)
        self._say(f"hand {hand + 1}: resuming with player {other}")
        if first is None:
            self.awaiting_resume.add(key)
        link = PairLink(hand, other, self._send_pair, self.inbox.fresh(hand, other, first))
        self.pair_links[key] = link

        async def attach() -> None:
            try:
                await session.attach(link)
            except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
                if session.ended is not None:
                    return  # dealt again (we were replaced meanwhile), or the table ended
                detail = f"hand {hand + 1}: player {other} did not resume: {exc}"
                await self._stop(MatchEnded("opponent left", detail))
            finally:
                self.attaching.discard(key)
                self.awaiting_resume.discard(key)

        self._spawn(attach())

    async def _send_all(self, msg: dict, but: int | None = None) -> None:
        """To every link's other end, also one whose link is down now (kept for it)."""
        for to in self._ends():
            if to != but:
                await self._send_to(to, msg)

    def _ends(self) -> list[int]:
        return list(self.links)

    async def _send_pair(self, other: int, hand: int, body: str) -> None:
        raise NotImplementedError

    async def _broadcast(self, msg: dict) -> None:
        """A message of ours to every player, signed."""
        await self._send_all(self.sig.sign(msg))

    # -- what comes in -------------------------------------------------------------------
    async def _take(self, msg: dict) -> None:
        """A table message from player ``msg["p"]`` (already checked to be from them)."""
        p, kind = msg["p"], msg["t"]
        if kind == "tkey":
            if not self.sig.learn(msg):
                await self._refuse(p, f"player {p} announced a second key")
        elif kind == "taway" and p == 0 and msg["player"] not in self.away:
            self._set_away(msg["player"], msg["hand"])
        elif kind == "tback" and p == 0 and msg["player"] in self.away.keys() - self.back:
            self._set_back(msg["player"], msg["hand"])
        elif kind == "tend":
            self.notes.append((p, msg["detail"]))
            await self._stop(MatchEnded(msg["reason"], f"player {p}: {msg['detail']}"))
        elif kind == "tnote":
            self.notes.append((p, msg["reason"]))
            del self.notes[:-NOTES_KEPT]
            self._say(f"player {p}: {msg['reason']}")
        elif kind == "tcommit" and p not in self.commits:
            self.commits[p] = msg["commit"]
        elif kind == "topen" and p not in self.opens:
            self.opens[p] = bytes.fromhex(msg["nonce"])
        elif kind == "trecord":
            await self._take_record(msg)
        elif kind == "tdone" and p not in self.heads:
            self.heads[p] = msg["head"]
        else:
            await self._refuse(p, f"player {p} sent {kind} out of turn")
        async with self.changed:
            self.changed.notify_all()

    async def _take_record(self, msg: dict) -> None:
        p, hand = msg["p"], msg["hand"]
        if (
            hand < self.inbox.oldest
            or hand > self.inbox.oldest + AHEAD
            or (hand, p) in self.records
        ):
            await self._refuse(p, f"player {p} sent a record of hand {hand + 1} out of turn")
            return
        now = {h: seats for h, seats, _ in self.table.next_hands()} if self.table else {}
        if hand in now and p not in self._played_by(hand, now[hand]):
            await self._refuse(p, _not_played(p, hand))
            return
        self.records[(hand, p)] = (msg["deck"], msg["actions"])

    def _deliver(self, hand: int, other: int, body: str) -> str | None:
        key = (hand, other)
        if key in self.pairs and key not in self.attaching and is_resume(body):
            self._resume_hand(hand, other, body)  # its other player came back
            return None
        if key in self.awaiting_resume:
            if not is_resume(body):
                return None  # sent on its old link: the match sends it again after the resume
            self.awaiting_resume.discard(key)
        return self.inbox.put(hand, other, body)

    async def _refuse(self, p: int, reason: str) -> None:
        """Refuse a message: nothing changes, the table hears of it; too many stop it."""
        self.refusals.append(reason)
        self._say(f"refused: {reason}")
        self.refused_from[p] = self.refused_from.get(p, 0) + 1
        await self._broadcast({"t": "tnote", "p": self.index, "reason": f"refused: {reason}"[:300]})
        if self.refused_from[p] >= MAX_TABLE_REFUSALS:
            await self._stop(MatchEnded(CHEATED, f"player {p}: {MAX_TABLE_REFUSALS} refusals"))

    def _say(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)

    async def _stop(self, ended: MatchEnded) -> None:
        """The table ends for us: the others hear why, a hand under way ends with it."""
        if self.ended is None:
            self.ended = ended
            for session in self.sessions:
                session.stop(ended)
            self.inbox.close_all()
            end = {"t": "tend", "p": self.index, "reason": ended.reason[:60]}
            await self._broadcast({**end, "detail": ended.detail[:300]})
        async with self.changed:
            self.changed.notify_all()

    async def _until(self, ready: Callable[[], bool], what: str) -> None:
        """Wait for the table (bounded by ``Timing.stall``); MatchEnded if it stops."""

        def done() -> bool:
            return self.ended is not None or ready()

        try:
            async with self.changed:
                await asyncio.wait_for(self.changed.wait_for(done), self.timing.stall)
        except asyncio.TimeoutError:
            await self._stop(MatchEnded("claimed", f"the table stopped: no {what}"))
        if self.ended is not None:
            raise self.ended

    # -- the game ------------------------------------------------------------------------
    async def run(self) -> MatchEnded:
        """Play the table's game to its end (the links are up); never raises for a peer."""
        try:
            await self._send_all(self.sig.key_message(self.index))
            await self._until(lambda: len(self.sig.keys) == self.players, "keys")
            self.safety_code = self.sig.safety_code(self.players)
            self._say(f"table safety code {self.safety_code}")
            seed = await self._fix_seed()
            table_id = hashlib.sha256(b"gin3d-table|" + seed).hexdigest()
            self.table = TableGame(self.rules, self.players, seed.hex(), table_id)
            while not self.table.over:
                await self._play_round(table_id)
            await self._broadcast({"t": "tdone", "p": self.index, "head": self.table.log.head})
            self.heads[self.index] = self.table.log.head
            await self._until(self._all_heads, "final log heads")
            if len(set(self.heads.values())) != 1:
                raise MatchEnded("logs differ", f"the final move logs differ: {self.heads}")
            self.ended = MatchEnded("finished")
        except MatchEnded as ended:
            await self._stop(ended)
        return self.ended

    def _all_heads(self) -> bool:
        """Every player's final log head is here (a player gone sends none)."""
        last = self.table.next_hands()[-1][0] if self.table is not None else 0
        return all(p in self.heads for p in range(self.players) if not self._replaced(p, last))

    async def _fix_seed(self) -> bytes:
        """Commit-reveal among all players: the first dealer's cut that nobody chose."""
        nonce = secrets.token_bytes(32)
        self.commits[self.index] = hashlib.sha256(b"gin3d-table-commit|" + nonce).hexdigest()
        await self._broadcast({"t": "tcommit", "p": self.index, "commit": self.commits[self.index]})
        await self._until(lambda: len(self.commits) == self.players, "commitments")
        self.opens[self.index] = nonce
        await self._broadcast({"t": "topen", "p": self.index, "nonce": nonce.hex()})
        await self._until(lambda: len(self.opens) == self.players, "opened nonces")
        for p, opened in sorted(self.opens.items()):
            if hashlib.sha256(b"gin3d-table-commit|" + opened).hexdigest() != self.commits[p]:
                raise MatchEnded(CHEATED, f"player {p}'s nonce does not match its commitment")
        return hashlib.sha256(
            b"gin3d-table-seed|" + b"".join(self.opens[p] for p in range(self.players))
        ).digest()

    async def _play_round(self, table_id: str) -> None:
        """The next hand (three players) or round of two hands at once (four): ours played,
        then every hand's two records agreed and replayed."""
        hands = self.table.next_hands()
        tasks = [asyncio.ensure_future(self._settle(table_id, *h)) for h in hands]
        try:
            records = await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
        try:
            self.table.add(records)
        except ValueError as exc:
            raise MatchEnded(CHEATED, f"{DISPUTED}: hand {hands[0][0] + 1} {exc}") from None
        self.inbox.settle(hands[-1][0] + 1)
        for key in [k for k in self.records if k[0] <= hands[-1][0]]:
            del self.records[key]

    async def _settle(self, table_id: str, hand: int, seats: tuple[int, int], dealer: int):
        """One hand of the round, to its agreed record: played if we are at it (or run the
        computer player of a gone player at it), dealt again if its player was replaced."""
        self._say(f"hand {hand + 1}: players {seats[0]} and {seats[1]}")
        while True:
            by = self._played_by(hand, seats)
            if self.index in by and (hand, self.index) not in self.records:
                await self._play_hand(table_id, hand, seats, dealer, by)
                continue
            record = await self._agreed(hand, seats)
            if record is not None:
                return record

    def _played_by(self, hand: int, seats: tuple[int, int]) -> tuple[int, int]:
        """Who plays each seat of ``hand``: the player, or for a player gone before it the
        computer player that ``stand_in`` runs; MatchEnded when that one is gone too."""
        by = []
        for p in seats:
            if self._replaced(p, hand):
                runner = stand_in(self.players, seats, p)
                if self._replaced(runner, hand):
                    raise MatchEnded("opponent left", f"players {p} and {runner} are gone")
                p = runner
            by.append(p)
        return by[0], by[1]

    def _replaced(self, p: int, hand: int) -> bool:
        """Whether player ``p``'s seat is played by the computer at ``hand``."""
        return self.away.get(p, hand + 1) <= hand < self.back.get(p, hand + 1)

    def _set_back(self, p: int, hand: int) -> None:
        self.back[p] = hand
        self._say(f"player {p} plays again from hand {hand + 1}")

    def _set_away(self, gone: int, hand: int) -> None:
        """From ``hand`` on ``gone`` is played by the computer: its hands under way are
        dealt again (their records so far void)."""
        self.away[gone] = hand
        self._say(f"player {gone} is played by the computer from hand {hand + 1}")
        if self.table is None:
            return
        for h, seats, _ in self.table.next_hands():
            if h >= hand and gone in seats:
                for key in [k for k in self.records if k[0] == h]:
                    del self.records[key]
                for key, session in list(self.pairs.items()):
                    if key[0] == h:
                        session.stop(MatchEnded(VOID, f"player {gone} is gone"))
                        self.pair_links[key].close()  # also a match still starting

    async def _play_hand(self, table_id, hand: int, seats, dealer: int, by) -> None:
        """Our hand (``by``: who plays each seat), its record sent; a hand dealt again
        returns with none."""
        seat = by.index(self.index)
        other = by[1 - seat]
        player = self.player if seats[seat] == self.index else self.stand_in
        if player is None:
            raise MatchEnded("opponent left", f"no computer player for player {seats[seat]}")
        session = TableHandSession(
            seat,
            player,
            hand_match_id(table_id, hand, by),
            rules=self.rules,
            callbacks=Callbacks(
                on_refused=lambda r, by_peer: self._say(f"hand {hand + 1}: refused {r}")
            ),
            # the hand's link is the table's: its death is seen there (a closed link), so
            # a slow host passing frames on late must not drop it (nothing would re-attach)
            timing=replace(self.timing, dead_after=max(self.timing.dead_after, self.timing.stall)),
            evidence_dir=self.evidence_dir,
            dealer=dealer,
        )
        self.sessions.append(session)
        key = (hand, other)
        link = PairLink(hand, other, self._send_pair, self.inbox.queue(hand, other))
        self.pairs[key] = session
        self.pair_links[key] = link
        try:
            ended = await self._run_hand(session, link, key)
        finally:
            del self.pairs[key]
            self.pair_links.pop(key, None)
        await session.close()
        if ended.reason == VOID:
            self._say(f"hand {hand + 1} is dealt again: {ended.detail}")
            return
        if ended.reason != "finished":
            raise MatchEnded(ended.reason, f"hand {hand + 1}, player {other}: {ended.detail}")
        deck, actions = session.record()
        self.records[(hand, self.index)] = (deck, actions)
        await self._broadcast(
            {"t": "trecord", "p": self.index, "hand": hand, "deck": deck, "actions": actions}
        )

    async def _run_hand(self, session: TableHandSession, link: PairLink, key) -> MatchEnded:
        """Attach a hand's match to its link and play it; how it ended."""
        self.attaching.add(key)
        try:
            await session.attach(link)
        except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
            if session.ended is not None:  # stopped while waiting: dealt again, table over
                return session.ended
            return MatchEnded("opponent left", f"it did not start: {exc}")
        finally:
            self.attaching.discard(key)
        return await session.run()

    async def _agreed(self, hand: int, seats: tuple[int, int]) -> Record | None:
        """The hand's record once both who play it sent the same one (records of it from
        anyone else are refused); None when we are now to play it (a gone player's)."""
        by = self._played_by(hand, seats)
        for key in [k for k in self.records if k[0] == hand and k[1] not in by]:
            del self.records[key]
            await self._refuse(key[1], _not_played(key[1], hand))

        def ours() -> bool:
            return (
                self.index in self._played_by(hand, seats)
                and (hand, self.index) not in self.records
            )

        def ready() -> bool:
            return ours() or all((hand, p) in self.records for p in self._played_by(hand, seats))

        await self._until(ready, f"record of hand {hand + 1}")
        if ours():
            return None
        a, b = (self.records[(hand, p)] for p in self._played_by(hand, seats))
        if a != b:
            raise MatchEnded(
                CHEATED,
                f"{DISPUTED}: players {seats[0]} and {seats[1]} report different hands {hand + 1}",
            )
        return a


def _unsigned(p: int, kind: str) -> str:
    return f"player {p}'s {kind} is not signed by player {p}"


def _not_played(p: int, hand: int) -> str:
    return f"player {p} sent a record of hand {hand + 1}, which it did not play"


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
        **options,
    ) -> None:
        super().__init__(player, **options)
        if players not in (3, 4):
            raise ValueError("a table has 3 or 4 players")
        self.rules = rules
        self.players = players
        self.door = TableDoor(self._seat_guest, code, listen, port)
        self.code = self.door.code
        self.port = port
        self.full = asyncio.Event()
        self.fingerprints: dict[int, str] = {}  # who sits where: a player coming back
        self.waiting: dict[int, asyncio.TimerHandle] = {}  # players gone: their grace time

    @property
    def failures(self) -> list[str]:
        """Connections that did not authenticate (a wrong code, a stranger)."""
        return self.door.failures

    async def start(self) -> None:
        await self.door.listen_directly()
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
                and (p in self.waiting or p in self.away.keys() - self.back)
            ),
            None,
        )
        if back is None or self.ended is not None:
            peer.link.close()
            return
        try:
            await self._reattach(back, peer.link)
        except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
            peer.link.close()
            self.failures.append(f"player {back} could not resume: {exc}")
            return
        self._say(f"player {back} is back")
        if back in self.waiting:
            self.waiting.pop(back).cancel()
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
        self.waiting[sender] = loop.call_later(grace, lambda: self._spawn(self._not_back(sender)))

    async def _not_back(self, p: int) -> None:
        """Past the grace time: a computer player takes the seat (from the first hand not
        complete here: every record any player holds came through us, so no player has
        settled it), or, before the game began, the table ends."""
        if self.waiting.pop(p, None) is None or self.ended is not None:
            return
        if self.table is None or self.stand_in is None or p in self.away:
            await self._stop(MatchEnded("opponent left", f"player {p} left the table"))
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

    def _complete(self, hand: int, seats: tuple[int, int]) -> bool:
        return all((hand, p) in self.records for p in self._played_by(hand, seats))

    async def play(self) -> MatchEnded:
        await self.full.wait()
        return await self.run()

    async def _route(self, msg: dict, sender: int) -> None:
        kind = msg["t"]
        if kind == "tpair":
            to = msg["p"]
            if to == sender or to >= self.players:
                return await self._refuse(sender, f"player {sender} sent a frame to player {to}")
            if not self.sig.holds(msg, sender, to):
                return await self._refuse(sender, _unsigned(sender, kind))
            if to != self.index:
                return await self._send_to(to, {**msg, "p": sender})
            why = self._deliver(msg["hand"], sender, msg["m"])
            if why is not None:
                await self._refuse(sender, f"player {sender} sent {why}")
        elif kind in BROADCAST and msg["p"] == sender:
            if not self.sig.holds(msg, sender):
                return await self._refuse(sender, _unsigned(sender, kind))
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

    def __init__(self, seat, code: str | None, listen: str, port: int) -> None:
        super().__init__(None, code=code, listen=listen, port=port)
        self._seat = seat

    async def _use(self, peer: Peer) -> None:
        await self._seat(peer)


class TableGuest(TablePeer):
    """A player who joins a table by its code; player 1, 2 or 3 as the host seats it."""

    def __init__(self, player: Player, code: str, address: tuple[str, int], **options) -> None:
        super().__init__(player, **options)
        self.code = code
        self.address = address
        self.identity = Identity.generate()
        self.seated = asyncio.Event()
        self.host_fingerprint = ""

    async def start(self) -> None:
        peer = await connect_direct(*self.address, self.identity, self.code)
        self.host_fingerprint = peer.peer_fingerprint
        self.links[0] = peer.link
        self._spawn(self._read(peer.link, 0))

    async def _lost(self, sender: int, why: str, link: Link | None) -> None:
        if self._gone(sender, link):
            self._say(f"lost the table's host ({why}): trying again")
            self._spawn(self._redial())

    async def _redial(self) -> None:
        """Reach the host again (the same identity, so it knows our seat); the table
        messages and every hand under way then resume. Past the grace time the computer
        plays our seat meanwhile: we keep trying (up to ``Timing.stall``) to take it back."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(self.timing.grace, self.timing.stall)
        while self.ended is None and loop.time() < deadline:
            try:
                peer = await connect_direct(
                    *self.address, self.identity, self.code, expect_peer=self.host_fingerprint
                )
                await self._reattach(0, peer.link)
            except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
                self._say(f"the host did not answer ({exc})")
                await asyncio.sleep(REDIAL_EVERY)
                continue
            self._say("back at the table")
            for hand, other in list(self.pairs):
                self._resume_hand(hand, other, None)
            return
        await self._stop(MatchEnded("opponent left", "the table's host is gone"))

    async def play(self) -> MatchEnded:
        try:
            await asyncio.wait_for(self.seated.wait(), self.timing.stall)
        except asyncio.TimeoutError:
            return MatchEnded("opponent left", "the table never filled")
        if self.ended is not None:
            return self.ended
        return await self.run()

    async def _route(self, msg: dict, sender: int) -> None:
        kind = msg["t"]
        if kind == "tseat" and not self.seated.is_set():
            self.index, self.players = msg["you"], msg["players"]
            self.rules = RuleSet.from_dict(msg["rules"])
            self.seated.set()
        elif kind in BROADCAST | {"tpair"} and not self._signed(msg):
            p = msg["p"]
            detail = f"the table's host passed on a {kind} of player {p} that it did not sign"
            await self._stop(MatchEnded(CHEATED, detail))
        elif kind == "tpair" and self.seated.is_set():
            why = self._deliver(msg["hand"], msg["p"], msg["m"])
            if why is not None:
                await self._refuse(msg["p"], f"player {msg['p']} sent {why}")
        elif kind in BROADCAST and self.seated.is_set() and msg["p"] < self.players:
            await self._take(msg)
        else:
            await self._refuse(sender, f"the table's host sent {kind} out of turn")

    def _signed(self, msg: dict) -> bool:
        """Whether a message the host passed on is signed by the player it names (a frame
        of a hand: signed for us). Before we are seated nothing is taken anyway."""
        if not self.seated.is_set() or msg["p"] >= self.players:
            return True  # refused below as out of turn
        for_us = self.index if msg["t"] == "tpair" else None
        return self.sig.holds(msg, msg["p"], for_us)

    async def _send_pair(self, other: int, hand: int, body: str) -> None:
        msg = {"t": "tpair", "p": other, "hand": hand, "m": body}
        await self._send_to(0, self.sig.sign(msg))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for link in self.links.values():
            link.close()
