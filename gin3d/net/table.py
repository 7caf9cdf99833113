"""A table of three players, or four in two teams, over the network (docs/net.md, *Tables of
three and four*).

One player hosts the table (``tablehost.TableHost``): the others join it with one join code
(``tableguest.TableGuest``), each over its own TLS link with the join-code handshake of a two-player
match. The host passes every message on. Each hand is played between its two players as a
two-player match of one hand (``tablehand.TableHandSession``: the same fair deal and checks),
its frames passing through the host as opaque text (``tablelink.PairLink``); at its end both
players send the table a record of it (deck and moves), and every player replays the agreed
hands with the engine (``tablegame.TableGame``), so every score is computed, never told. At
the end each player sends the head of its move log: the table finishes only when all agree.

Every message is signed by its player (``tablesig``), so the host cannot alter what it
passes on. A message that breaks the schema, comes from the wrong player, or is a record of
a hand its sender did not play, is refused (nothing changes, every player hears of it in a
``tnote``). One player who floods the chat is muted, one who stops playing or is caught
cheating is removed and the computer plays its seat (``tableconduct``); two records of one
hand that differ, or a hand that does not replay, stop the table for everyone (``tend``),
saying which player and hand. A guest whose link is lost dials the host again within the
grace time; both ends then send what the other missed, and the hands under way resume.
Past the grace time a computer player takes the seat, run by a player not at its hands
(``taway``), until the player gets through again and takes it back (``tback``).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from gin3d.engine import RuleSet

from .channel import Link
from .directory import clean_name
from .ended import MatchEnded
from .protocol import EMOTES, MAX_CHAT, FrameError, ProtocolError
from .publicmoves import PublicHand
from .session import CHEATED, Callbacks, Player, Timing
from .tableconduct import (
    STALLED_HAND,
    ChatGuard,
    cheated_why,
    claim_when_stalled,
    muted_note,
    stalled_why,
)
from .tablegame import Record, TableGame, stand_in
from .tablehand import TableHandSession, hand_match_id
from .tablelink import PairInbox, PairLink, is_resume
from .tablesig import TableKeys
from .tablewatch import PublicMoves

MAX_TABLE_REFUSALS = 20  # refused messages from one player before it is removed (the
# host: the table stops), and no more refusals are told of
RECORDS_AHEAD = 100  # records kept for the hands from the oldest unsettled one to this many
# more: a player back after an absence is sent the record of every hand it missed at once
NOTES_KEPT = 100  # notes from the other players kept (a flood of them costs nothing)
LINK_ERRORS = (ConnectionError, OSError, asyncio.IncompleteReadError, EOFError)
BROADCAST = frozenset(
    {"tkey", "tcommit", "topen", "trecord", "tnote", "tdone", "tend", "taway", "tback", "tplay"}
    | {"tchat", "temote"}
)
CHAT_KEPT = 100  # chat lines kept (the app shows the last few)
PATIENCE = 2  # stall times a player waits, without progress, for what others owe each other
# (a hand's record): the hand's players and the host judge a staller first
VOID = "dealt again"  # a hand whose player was replaced under way
DISPUTED = "the table's hands are disputed"


@dataclass
class TablePeer(PublicMoves):
    """One player of a table: its links, the seed, the hands it plays, the agreed game."""

    player: Player
    timing: Timing = field(default_factory=Timing)
    evidence_dir: str | None = None
    on_note: Callable[[str], None] | None = None  # every refusal and note, in words
    stand_in: Player | None = None  # plays a gone player's hands when we run its seat
    name: str = ""  # the name we go by at the table (sent with our key)
    # the app's view of the table: each move of a hand we play at our own seat (table hand,
    # its players, redacted events, our view, the hand's seat that moved and its move: None
    # for a deal), and each round once agreed and replayed
    on_hand_event: Callable[[int, tuple[int, int], list, Any, Any, Any], None] | None = None
    on_round: Callable[[], None] | None = None
    # each public move of the hand under way that we watch (``watched_from``): table hand,
    # its players, the new events and the hand they build so far (``publicmoves``)
    on_watch: Callable[[int, tuple[int, int], list, PublicHand], None] | None = None
    on_chat: Callable[[int, str], None] | None = None  # (player, text) of every chat line
    on_emote: Callable[[int, str], None] | None = None  # (player, emote)

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
        self.names: dict[int, str] = {}  # the name each player announced with its key
        # after a reconnect the table messages the other end missed are sent again: what
        # each link carried (signed kinds only; a hand's match resends its own frames)
        self.out_b: dict[int, list[dict]] = {}
        self.got_b: dict[int, int] = {}
        self.pairs: dict[tuple[int, int], TableHandSession] = {}  # hands under way
        self.attaching: set[tuple[int, int]] = set()
        self.awaiting_resume: set[tuple[int, int]] = set()  # we came back: until theirs
        # the last resume each hand sent: a hand still starting sends it again when the
        # table link it went on comes back (it may have been lost with the old one)
        self.resumes: dict[tuple[int, int], str] = {}
        self.away: dict[int, int] = {}  # player gone -> the hand from which it is replaced
        self.back: dict[int, int] = {}  # player come back -> the hand from which it plays
        self.pair_links: dict[tuple[int, int], PairLink] = {}  # each hand's current link
        # what the players of each hand under way told of it: (hand, player) -> the hand
        self.watched: dict[tuple[int, int], PublicHand] = {}
        self.unheard: set[tuple[int, int]] = set()  # such a hand refused: no more heard
        self._telling: asyncio.Queue | None = None  # our public moves, sent in order
        self.chat: list[tuple[int, str]] = []  # (player, text), ours too, the last CHAT_KEPT
        self.chat_guard = ChatGuard()  # each other player's chat budget and mute
        self.removed: dict[int, str] = {}  # host: players removed by its verdict, and why
        self.progress = 0  # counts what moves the table on (see ``_until``)

    # -- links ---------------------------------------------------------------------------
    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, link: Link, sender: int) -> None:
        """Every message from one link, until it ends; nothing a peer sends raises here."""
        while self._listening():
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

    def _listening(self) -> bool:
        """Whether the links are still read: until the table ends."""
        return self.ended is None

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
        out = self.out_b.setdefault(peer, [])  # the list that later sends add to
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
        link = PairLink(hand, other, self._send_hand, self.inbox.fresh(hand, other, first))
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

    async def _send_hand(self, other: int, hand: int, body: str) -> None:
        """A frame of our hand with ``other`` (its resume kept for ``_resend_resumes``)."""
        if is_resume(body):
            self.resumes[(hand, other)] = body
        await self._send_pair(other, hand, body)

    async def _resend_resumes(self, back: int | None = None) -> None:
        """A table link came back (to ``back``, or to the host: every hand goes through
        it): each hand still starting on it sends its resume again. Sent while the link
        was down or dying, the first one was lost, and the other player's match, waiting
        for it, would never start (a resume it already has makes it resume once more).
        Until the other's resume comes, its other frames (a ping on the old link) are
        dropped: its match sends them again once resumed."""
        for hand, other in sorted(self.attaching):
            body = self.resumes.get((hand, other))
            if body is not None and back in (None, other):
                self.awaiting_resume.add((hand, other))
                await self._send_pair(other, hand, body)

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
            elif msg.get("name", "").strip():
                self.names[p] = clean_name(msg["name"])
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
        elif kind == "tplay":
            await self._take_play(msg)
        elif kind in ("tchat", "temote"):
            await self._take_chat(msg)
        elif kind == "tdone" and p not in self.heads:
            self.heads[p] = msg["head"]
        else:
            await self._refuse(p, f"player {p} sent {kind} out of turn")
        if kind not in ("tnote", "tchat", "temote"):  # a note or a line moves nothing on
            self.progress += 1
        async with self.changed:
            self.changed.notify_all()

    async def _take_record(self, msg: dict) -> None:
        p, hand = msg["p"], msg["hand"]
        if (
            hand < self.inbox.oldest
            or hand > self.inbox.oldest + RECORDS_AHEAD
            or (hand, p) in self.records
        ):
            await self._refuse(p, f"player {p} sent a record of hand {hand + 1} out of turn")
            return
        now = {h: seats for h, seats, _ in self.table.next_hands()} if self.table else {}
        if hand in now and p not in self._played_by(hand, now[hand]):
            await self._refuse(p, _not_played(p, hand))
            return
        self.records[(hand, p)] = (msg["deck"], msg["actions"])

    # -- chat --------------------------------------------------------------------------
    async def send_chat(self, text: str) -> None:
        """A line of chat to everyone at the table (spaces tidied, at most MAX_CHAT)."""
        text = " ".join(str(text).split())[:MAX_CHAT]
        if text:
            self._keep_chat(self.index, text)
            await self._broadcast({"t": "tchat", "p": self.index, "text": text})

    async def send_emote(self, name: str) -> None:
        if name not in EMOTES:
            raise ValueError(f"unknown emote {name!r}")
        await self._broadcast({"t": "temote", "p": self.index, "name": name})

    async def _mute(self, p: int) -> None:
        """Player ``p`` was just muted here: said here (the host also tells the table)."""
        self._say(muted_note(p))

    def _keep_chat(self, p: int, text: str) -> None:
        self.chat.append((p, text))
        del self.chat[:-CHAT_KEPT]

    async def _take_chat(self, msg: dict) -> bool:
        """Another player's chat line or emote: shown (True), unless its player floods the
        table: then it is muted (``tableconduct.ChatGuard``), a flood never refused."""
        p = msg["p"]
        heard = self.chat_guard.take(p)
        if heard == "muted":
            await self._mute(p)
        if heard != "shown":
            return False
        if msg["t"] == "tchat":
            self._keep_chat(p, msg["text"])
            if self.on_chat is not None:
                self.on_chat(p, msg["text"])
        elif self.on_emote is not None:
            self.on_emote(p, msg["name"])
        return True

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
        """Refuse a message: nothing changes, the table hears of it; at MAX_TABLE_REFUSALS
        its player is removed as a cheater, and later ones are not told (a flood of them
        costs nothing)."""
        count = self.refused_from[p] = self.refused_from.get(p, 0) + 1
        if count > MAX_TABLE_REFUSALS:
            return
        self.refusals.append(reason)
        self._say(f"refused: {reason}")
        await self._broadcast({"t": "tnote", "p": self.index, "reason": f"refused: {reason}"[:300]})
        if count == MAX_TABLE_REFUSALS:
            await self._misbehaved(
                p, CHEATED, f"for sending {MAX_TABLE_REFUSALS} messages that were refused"
            )

    async def _misbehaved(self, p: int, reason: str, why: str) -> None:
        """Player ``p`` stopped playing or cheated (``reason``: "claimed" or CHEATED): the
        host removes it (``_remove``; a guest asks the host); the host itself cannot be
        removed, so then the table stops."""
        if p == 0 and self.index != 0:
            await self._stop(MatchEnded(reason, f"player 0, the host, cannot be replaced: {why}"))
        else:
            await self._remove(p, reason, why)

    async def _remove(self, p: int, reason: str, why: str) -> None:
        """The host judges, a guest asks the host (their own ``_remove``); a peer that is
        neither (a test's) has nobody to ask: the table stops."""
        await self._stop(MatchEnded(reason, f"player {p} {why}"))

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

    async def _until(
        self,
        ready: Callable[[], bool],
        what: str,
        owing: Callable[[], list[int]] = list,
    ) -> None:
        """Wait for the table; MatchEnded if it stops. Before the game ``Timing.stall``
        bounds the wait. During it, the clock starts again whenever the table moves on
        (``progress``: a move told, a record, a verdict): a table of people playing waits
        as long as they play. After a stall time without progress, the host removes the
        players who owe what we wait for (``owing``: as far as it can tell); anyone else
        waits up to PATIENCE stall times (the players of a hand and the host judge a staller
        first, and their verdict moves the table on), then the table stops."""

        def done() -> bool:
            return self.ended is not None or ready()

        seen, idle, judged = -1, 0, False
        while not done():
            if self.progress != seen:
                seen, idle, judged = self.progress, 0, False
            elif self.table is None or idle >= PATIENCE:
                await self._stop(MatchEnded("claimed", f"the table stopped: no {what}"))
                break
            elif self.index == 0 and idle and not judged and owing():
                judged = True
                for p in owing():
                    await self._misbehaved(p, "claimed", f"for not playing (sent no {what})")
                continue
            try:
                async with self.changed:
                    await asyncio.wait_for(
                        self.changed.wait_for(lambda seen=seen: done() or self.progress != seen),
                        self.timing.stall,
                    )
            except asyncio.TimeoutError:
                idle += 1
        if self.ended is not None:
            raise self.ended

    # -- the game ------------------------------------------------------------------------
    async def run(self) -> MatchEnded:
        """Play the table's game to its end (the links are up); never raises for a peer."""
        try:
            if self.name.strip():
                self.names[self.index] = clean_name(self.name)
            await self._send_all(self.sig.key_message(self.index, self.names.get(self.index, "")))
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
            await self._until(self._all_heads, "final log heads", self._owing_heads)
            if len(set(self.heads.values())) != 1:
                raise MatchEnded("logs differ", f"the final move logs differ: {self.heads}")
            self.ended = MatchEnded("finished")
        except MatchEnded as ended:
            await self._stop(ended)
        return self.ended

    def _all_heads(self) -> bool:
        """Every player's final log head is here (a player gone sends none)."""
        return not self._owing_heads()

    def _owing_heads(self) -> list[int]:
        last = self.table.next_hands()[-1][0] if self.table is not None else 0
        return [
            p
            for p in range(self.players)
            if p not in self.heads and p != self.index and not self._replaced(p, last)
        ]

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
        await self._check_told(hands)
        if self.on_round is not None:
            self.on_round()

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
        self.progress += 1
        if p == self.index:
            self.inbox.rejoin(hand)
        self._say(f"player {p} plays again from hand {hand + 1}")

    def _set_away(self, gone: int, hand: int) -> None:
        """From ``hand`` on ``gone`` is played by the computer: its hands under way are
        dealt again (their records so far void)."""
        self.away[gone] = hand
        self.progress += 1
        self._say(f"player {gone} is played by the computer from hand {hand + 1}")
        if self.table is None:
            return
        for h, seats, _ in self.table.next_hands():
            if h >= hand and gone in seats:
                for key in [k for k in self.records if k[0] == h]:
                    del self.records[key]
                for key in [k for k in self.watched if k[0] == h]:
                    del self.watched[key]  # its public moves start again with it
                self.unheard = {k for k in self.unheard if k[0] != h}
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
                on_refused=lambda r, by_peer: self._say(f"hand {hand + 1}: refused {r}"),
                on_event=self._on_move(hand, seats, seats[seat] == self.index),
            ),
            # the hand's link is the table's: its death is seen there (a closed link), so
            # a slow host passing frames on late must not drop it (nothing would re-attach)
            timing=replace(self.timing, dead_after=max(self.timing.dead_after, self.timing.stall)),
            evidence_dir=self.evidence_dir,
            dealer=dealer,
        )
        self.sessions.append(session)
        key = (hand, other)
        link = PairLink(hand, other, self._send_hand, self.inbox.queue(hand, other))
        self.pairs[key] = session
        self.pair_links[key] = link
        try:
            ended = await self._run_hand(session, link, key)
        finally:
            del self.pairs[key]
            self.pair_links.pop(key, None)
            self.resumes.pop(key, None)
        await session.close()
        if ended.reason == VOID:
            self._say(f"hand {hand + 1} is dealt again: {ended.detail}")
            return
        if ended.reason in (STALLED_HAND, CHEATED):  # the other player's fault
            stalled = ended.reason == STALLED_HAND
            why = (
                stalled_why(hand, self.timing.stall) if stalled else cheated_why(hand, ended.detail)
            )
            await self._misbehaved(other, ended.reason, why)
            await self._until(lambda: self._replaced(other, hand), f"verdict on player {other}")
            return  # the hand is dealt again, the computer at the other seat
        if ended.reason != "finished":
            raise MatchEnded(ended.reason, f"hand {hand + 1}, player {other}: {ended.detail}")
        deck, actions = session.record()
        self.records[(hand, self.index)] = (deck, actions)
        await self._told()  # the table has every public move of the hand before its record
        await self._broadcast(
            {"t": "trecord", "p": self.index, "hand": hand, "deck": deck, "actions": actions}
        )

    def _on_move(self, hand: int, seats: tuple[int, int], ours: bool):
        """The hand's ``on_event``: its public moves told to the table, and at our own seat
        (``ours``; not a gone player's that we run) each move shown by the app."""
        shown = self._shown(hand, seats) if ours else None
        told = [0]  # public moves of this deal of the hand told so far

        def on_event(events, view, seat, action) -> None:
            self._tell(hand, view, told)
            if shown is not None:
                shown(events, view, seat, action)

        return on_event

    def _shown(self, hand: int, seats: tuple[int, int]):
        """The app's ``on_hand_event`` for a hand we play ourselves (None without one)."""
        if self.on_hand_event is None:
            return None
        return lambda events, view, seat, action: self.on_hand_event(
            hand, seats, events, view, seat, action
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
            self.awaiting_resume.discard(key)
        watch = asyncio.ensure_future(claim_when_stalled(session, self.timing.heartbeat))
        try:
            return await session.run()
        finally:
            watch.cancel()

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

        def owing() -> list[int]:
            """At the host: a player of the hand whose record is missing, its opponent's
            here (it finished the hand, and sends nothing)."""
            by = self._played_by(hand, seats)
            sent = [p for p in by if (hand, p) in self.records]
            return [p for p in by if p not in sent] if sent else []

        await self._until(ready, f"record of hand {hand + 1}", owing)
        if ours():
            return None
        a, b = (self.records[(hand, p)] for p in self._played_by(hand, seats))
        if a != b:
            raise MatchEnded(
                CHEATED,
                f"{DISPUTED}: players {seats[0]} and {seats[1]} report different hands {hand + 1}",
            )
        return a


def _not_played(p: int, hand: int) -> str:
    return f"player {p} sent a record of hand {hand + 1}, which it did not play"
