"""One match between two peers: the fair deal, the moves, the checks, and surviving bad links.

``MatchSession`` runs the whole match as a script both peers follow (seat 0 is the host).
It talks through a *link* (``send(msg)``, ``recv()``, ``close()``, see ``transport.Link``);
links come and go (``attach``) and every sequence-numbered message is kept and resent after a
reconnect, so nothing is lost or applied twice. Every message from the peer is checked: by
schema (``protocol``), by cryptography (``fairdeal``) and by the rules (``tracker`` and, at the
end of each hand with every card open, a full engine replay). A refused message changes
nothing; a transcript that does not verify ends the match as cheating, with the evidence
written to a file.

``MatchSession`` is made of its parts, each in its own module and sharing its state: the
channel to the peer (``channel.Channel``), each hand's fair deal (``dealing.DealProtocol``) and
the end-of-hand check with every card open (``verifier.Verifier``); this module holds the
match script itself (rules, games, turns) and what the app calls (chat, leave, save, claim).
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gin3d.engine import (
    BigGin,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    Game,
    Hand,
    Knock,
    RuleSet,
    cut_for_deal,
    next_dealer,
    parse_action,
    redact,
)
from gin3d.engine.hand import LAST_CHANCE
from gin3d.engine.scoring import GameScore

from .channel import Channel, Link
from .constants import (
    CAUGHT,
    CHAT_KEPT,
    CHEATED,
    CONNECTED,
    DEAL_MESSAGES,
    DECLINED,
    FAREWELL_PING,
    GONE,
    MOVE_REFUSED,
    RULES_REFUSED,
    SAVE_FORMAT,
    SAVED_BYE,
    STALLED,
    WAITING,
)
from .dealing import DealProtocol
from .ended import MatchEnded
from .fairdeal import Deal
from .group import DealError, ProofError, card_points
from .movelog import MoveLog
from .tracker import DuplicateCard, HandTracker
from .verifier import Verifier


class Player(Protocol):
    """Anything with ``choose(view) -> Action`` (a local human, the computer...)."""

    def choose(self, view: Any) -> Any: ...


@dataclass
class Callbacks:
    """What the app hears about. Every callback is optional and runs on the network loop."""

    on_status: Callable[[str], None] | None = None  # connected / waiting for opponent… / gone
    # (redacted events, my PlayerView, who moved and the move; both None for a new deal)
    on_event: Callable[[list, Any, int | None, Any], None] | None = None
    on_chat: Callable[[int, str], None] | None = None  # (seat, text)
    on_emote: Callable[[int, str], None] | None = None
    on_refused: Callable[[str, bool], None] | None = None  # (reason, True if the peer refused)
    on_hand_over: Callable[[Hand, tuple], None] | None = None  # (verified full hand, totals)
    on_game_over: Callable[[Game], None] | None = None
    on_cheat: Callable[[str, str], None] | None = None  # (message, evidence file)
    rematch: Callable[[], bool] | None = None  # asked after a game; default: no rematch
    # guest: the host's rules before the first game; False (or an awaitable of it) declines
    accept_rules: Callable[[RuleSet], Any] | None = None
    on_resumed: Callable[[Game | None], None] | None = None  # the saved game play goes on from
    on_save_error: Callable[[str], None] | None = None  # the autosave failed (disk full...)
    # host, direct first: (ip, port) where the service saw us, when first known or changed
    on_public_address: Callable[[str, int], None] | None = None
    on_new_code: Callable[[str], None] | None = None  # host: a friend's code changed (spoiled)

    def fire(self, name: str, *args: Any) -> None:
        fn = getattr(self, name)
        if fn is not None:
            fn(*args)


@dataclass
class Timing:
    heartbeat: float = 2.0  # seconds between pings
    dead_after: float = 8.0  # no frame for this long: the link is dead
    grace: float = 60.0  # no link for this long: the opponent is gone
    farewell: float = 8.0  # after our bye: wait this long for the peer to confirm it got it
    stall: float = 120.0  # the peer owes a step this long (link up or not): we may claim


@dataclass
class MatchSession(Channel, DealProtocol, Verifier):
    seat: int  # 0 host, 1 guest
    player: Player
    match_id: str  # hex: both peers derive it from the two certificate fingerprints
    rules: RuleSet | None = None  # the host's choice; the guest learns it in "setup"
    callbacks: Callbacks = field(default_factory=Callbacks)
    timing: Timing = field(default_factory=Timing)
    evidence_dir: str | None = None
    max_refusals: int = 20
    max_illegal_moves: int = 3  # an honest client never sends one: probes end as cheating
    autosave: str | None = None  # rewrite this resume file after every verified hand
    expect_rules: RuleSet | None = None  # guest: the rules the host offered (LAN list)
    deal_ahead: bool = True  # deal the next hand during this one (both peers)

    def __post_init__(self) -> None:
        if self.seat not in (0, 1):
            raise ValueError("seat is 0 (host) or 1 (guest)")
        if self.seat == 0 and self.rules is None:
            self.rules = RuleSet()
        self.peer = 1 - self.seat
        self.log = MoveLog(self.match_id)
        self.outbox: list[dict] = []
        self.sent = 0
        self.got = 0
        self.inbox: asyncio.Queue[dict] = asyncio.Queue()
        self.link: Link | None = None
        self.status = WAITING
        self.refusals: list[str] = []
        self.incidents: list[dict] = []  # the refused messages themselves, for the evidence
        self.illegal_moves = 0
        self._owed_since: float | None = None  # since when the peer owes us a step
        self.clock: Callable[[], float] = time.monotonic  # for the stall deadline
        self._current: dict | None = None  # the peer's message being handled (evidence)
        self.chat: list[tuple[int, str]] = []
        self.games: list[Game] = []
        self.game: Game | None = None
        self.tracker: HandTracker | None = None
        self.deal: Deal | None = None
        self.next_deal: Deal | None = None  # the next hand's, while it is dealt ahead
        self.ended: MatchEnded | None = None
        self.done = asyncio.Event()
        self._send_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._grace: asyncio.TimerHandle | None = None
        self._last_seen = time.monotonic()
        self._opened_by_me: set[int] = set()
        self._game_no = 0
        self._seeds: list[str] = []  # each game's seed (hex), for saves
        self._resume: dict | None = None  # set by load(): where a saved match goes on
        self.save_extra: dict = {}  # what the connection layer adds to saves (identity...)
        self._main: asyncio.Task | None = None
        self.link_lost = asyncio.Event()
        self._bye_seq: int | None = None  # our bye, sent and not yet confirmed by the peer
        self.deal_times: list[float] = []  # seconds from the first shuffle to my cards open
        # seconds from a hand's result to the next hand's cards open, within a game: what a
        # player who presses Next hand at once would wait
        self.deal_waits: list[float] = []
        self._hand_over_at: float | None = None
        self.draw_round_trips: list[float] = []  # my stock draw sent -> the peer's key back
        self._deal_inbox: asyncio.Queue[dict] = asyncio.Queue()  # the deals' own messages
        # the next hand's deal, run during this hand: (game, hand, its task)
        self._ahead: tuple[int, int, asyncio.Future] | None = None
        self._tracker_game = -1  # the game the tracker's hand belongs to
        self._game_out_start = 0  # where this game's messages start in the outbox
        # a resumed hand being replayed: our saved messages still to be made again
        self._replay: dict | None = None
        self._saved_ahead: tuple[int, int] | None = None  # (game, hand) saved ahead of sending

    # ================================================================= links

    # ================================================================= app-facing
    async def send_chat(self, text: str) -> None:
        text = " ".join(str(text).split())[:200]
        if text:
            self._keep_chat(self.seat, text)
            await self._send({"t": "chat", "text": text})

    def _keep_chat(self, seat: int, text: str) -> None:
        self.chat.append((seat, text))
        del self.chat[:-CHAT_KEPT]

    async def send_emote(self, name: str) -> None:
        await self._send({"t": "emote", "name": name})

    async def leave(self, reason: str = "left the table") -> None:
        """The clean "opponent left" path: tell the peer, then end."""
        await self._farewell({"t": "bye", "reason": reason}, MatchEnded("you left", reason))

    async def _farewell(self, bye: dict, ended: MatchEnded) -> None:
        """Stop playing, send ``bye`` and end once the peer confirms it (bounded).

        Ending at once would lose a bye sent on a link that has just died (or while a
        reconnect is under way): it stays in the outbox for a resend, but the reconnects
        stop when the match is done. So the match is stopped (``ended`` set, no more moves)
        and links still come and go until the peer confirms it holds the bye: the pong to a
        ping sent after it on the same link, or its ``got`` on a new link. After
        ``Timing.farewell`` seconds without that (the line stays down) it ends anyway.
        """
        if self.ended is not None:
            return
        self.ended = ended
        main = self._main
        if main is not None and not main.done() and main is not asyncio.current_task():
            main.cancel()
        await self._send(bye)
        async with self._send_lock:
            self._bye_seq = self.sent
            if self.link is not None:
                await self._raw(self.link, self._farewell_ping())
        try:
            await asyncio.wait_for(self.done.wait(), self.timing.farewell)
        except asyncio.TimeoutError:
            pass
        self._end(ended)

    def _farewell_ping(self) -> dict:
        return {"t": "ping", "n": FAREWELL_PING + self._bye_seq}

    @property
    def claim_after(self) -> float | None:
        """When (on ``self.clock``) the peer, owing us a step since ``_owed_since``, may be
        claimed against; None while it owes nothing (our turn, our player thinking)."""
        if self.ended is not None or self._owed_since is None:
            return None
        return self._owed_since + self.timing.stall

    def claim_in(self) -> float | None:
        """Seconds until ``claim()`` is allowed (0: now), None when it is not in view."""
        if self.ended is not None:
            return None
        if self.status == GONE:
            return 0.0
        deadline = self.claim_after
        return None if deadline is None else max(0.0, deadline - self.clock())

    def claim(self) -> None:
        """End the match as won by forfeit: once the opponent is gone, or once it has owed us
        a step (a move, its keys, its reveal, a deal step) for ``Timing.stall`` seconds."""
        if self.ended is not None:
            raise ValueError("the match is over")
        if self.status == GONE:
            self._end(MatchEnded("claimed", "opponent did not come back"))
            return
        left = self.claim_in()
        if left is None or left > 0:
            wait = "" if left is None else f" (in {left:.0f} s if it still does not play)"
            raise ValueError(
                "the match can be claimed only once the opponent is gone or "
                f"has stopped playing{wait}"
            )
        self._end(MatchEnded("claimed", STALLED))
        self._spawn(self._hang_up(f"claimed the match: {STALLED}"))

    @property
    def game_number(self) -> int:
        """Which game of the match is being played (0 first; a rematch adds one)."""
        return self._game_no

    def resumable(self) -> bool:
        """Whether a save now could be resumed: at least one hand was verified."""
        return bool(self.games) or self.game is not None

    async def save_and_leave(self, path: str | Path) -> Path:
        """Save the match, tell the peer (it keeps its own save) and end: finish it later."""
        if not self.resumable():
            raise ValueError("no hand has finished yet: there is nothing to resume later")
        if self.ended is not None:
            raise ValueError("the match is over")
        saved = self.save(path)
        await self._farewell({"t": "bye", "reason": SAVED_BYE}, MatchEnded("you left", SAVED_BYE))
        return saved

    def snapshot(self) -> dict:
        """The match so far, as saved (see ``savegame.snapshot``)."""
        from .savegame import snapshot

        return snapshot(self)

    def save(self, path: str | Path) -> Path:
        """Write ``snapshot()`` to ``path`` (atomically): to review, or to finish later."""
        from gin3d.paths import write_atomic

        path = Path(path)
        data = {**self.snapshot(), "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        write_atomic(path, json.dumps(data, indent=1))  # 0600: it holds the match's key
        return path

    def _autosave(self, quiet: bool = False) -> None:
        """Rewrite the autosave; a full or read-only disk is reported and play goes on (the
        last good save stays as it was). ``quiet``: the saves during a hand, whose failure
        the save at the hand's end reports (once a hand, not at every move)."""
        try:
            self.save(self.autosave)
        except OSError as exc:
            if not quiet:
                self.callbacks.fire("on_save_error", f"{exc.strerror or exc}")

    def load(self, data: dict) -> None:
        """Resume a saved match (before ``run``): finished hands are rebuilt and checked with
        the engine; play goes on with the first hand both saves have not finished."""
        from .savegame import load_match

        if data.get("format") != SAVE_FORMAT or data.get("match") != self.match_id:
            raise ValueError("this save is not from this match")
        if data.get("seat") != self.seat:
            raise ValueError("this save is from the other seat")
        self.rules, self.games, self._seeds, self._game_no, self._resume, self.log = load_match(
            data, self.match_id
        )
        self.chat = [tuple(c) for c in data.get("chat", [])][-CHAT_KEPT:]

    def _end(self, ended: MatchEnded) -> None:
        ahead = self._ahead[2] if self._ahead is not None else None
        if ahead is not None and not ahead.done() and ahead is not asyncio.current_task():
            ahead.cancel()  # a next hand that will not be played
        if self.ended is None:
            self.ended = ended
            main = self._main
            if main is not None and not main.done() and main is not asyncio.current_task():
                main.cancel()
            if ended.reason == CHEATED:
                self._spawn(self._hang_up(CHEATED))
        self.done.set()  # also ends a farewell (``ended`` set) still waiting for its bye

    async def _hang_up(self, reason: str) -> None:
        """After a cheat verdict or a claim: tell the peer why and close the link; nothing
        more is read."""
        link = self.link
        if link is None:
            return
        await self._send({"t": "bye", "reason": reason})
        await asyncio.sleep(0)
        if self.link is link:
            self.link = None
            link.close()

    async def close(self) -> None:
        if self._grace is not None:
            self._grace.cancel()
        link = self.link
        if link is not None:
            # let queued frames (a last reveal, a bye) reach the peer before closing
            await asyncio.sleep(0)
            self.link = None
            link.close()
        for task in list(self._tasks):
            task.cancel()

    # ================================================================= the match
    async def run(self) -> MatchEnded:
        """Play the match to its end; returns how it ended (never raises for peer faults)."""
        self._main = asyncio.current_task()
        try:
            try:
                await self._play_match()
            except DuplicateCard as exc:  # opened keys put one card in two slots
                self._cheated(str(exc))
            self._end(MatchEnded("finished"))
        except asyncio.CancelledError:
            if self.ended is None:
                raise
        except MatchEnded as ended:
            self._end(ended)
        await self.done.wait()  # after our bye: until the peer has it (see _farewell)
        return self.ended

    async def _expect(self, kind: str, hand: int | None = None, owe: bool = True) -> dict:
        """The peer's next message of ``kind``; from now it owes us a step (see claim),
        unless ``owe`` is False (the next hand's deal, run ahead)."""
        if owe and self._owed_since is None:
            self._owed_since = self.clock()
        inbox = self._deal_inbox if kind in DEAL_MESSAGES else self.inbox
        while True:
            msg = await inbox.get()
            self._current = msg
            if msg["t"] == kind and (hand is None or msg.get("hand") == hand):
                return msg
            await self._refuse(
                f"expected {kind} (hand {hand}), got {msg['t']} (hand {msg.get('hand')})"
            )

    async def _play_match(self) -> None:
        while True:
            if self._resume is not None:
                resume, self._resume = self._resume, None
                seed = bytes.fromhex(resume["seed"])
                await self._agree_resume(resume)
                self.callbacks.fire("on_resumed", resume["game"])
                if resume["game"] is None or not resume["game"].over:
                    await self._play_game(seed, resume)
                elif resume["game"] not in self.games:
                    self.games.append(resume["game"])
            else:
                seed = await self._fix_seed()
                self._seeds.append(seed.hex())
                await self._play_game(seed)
            self._game_no += 1
            want = self.callbacks.rematch() if self.callbacks.rematch else False
            if inspect.isawaitable(want):
                want = await want
            await self._send({"t": "rematch", "yes": bool(want)})
            theirs = await self._expect("rematch")
            if not (want and theirs["yes"]):
                await asyncio.sleep(0)
                return

    async def _fix_seed(self) -> bytes:
        """Commit-reveal: the shared seed (card points, first dealer) that neither side chose."""
        nonce = secrets.token_bytes(32)
        commit = hashlib.sha256(b"gin3d-commit|" + nonce).hexdigest()
        if self.seat == 0:
            await self._send({"t": "setup", "rules": self.rules.to_dict(), "commit": commit})
            peer_commit = (await self._expect("commit"))["commit"]
        else:
            setup = await self._expect("setup")
            await self._take_rules(RuleSet.from_dict(setup["rules"]))
            peer_commit = setup["commit"]
            await self._send({"t": "commit", "commit": commit})
        await self._send({"t": "open", "nonce": nonce.hex()})
        while True:
            opened = bytes.fromhex((await self._expect("open"))["nonce"])
            if hashlib.sha256(b"gin3d-commit|" + opened).hexdigest() == peer_commit:
                break
            await self._refuse("the opened nonce does not match its commitment")
        host, guest = (nonce, opened) if self.seat == 0 else (opened, nonce)
        return hashlib.sha256(b"gin3d-seed|" + host + guest).digest()

    async def _take_rules(self, offered: RuleSet) -> None:
        """Guest: the host's rules. They must be the ones offered (the LAN list) and, after
        the first game, the match's; before the first game the player may decline them."""
        expected = self.rules if self.rules is not None else self.expect_rules
        if expected is not None and offered != expected:
            from .offer import rules_label

            detail = (
                f"the host's rules ({rules_label(offered)}) are not the ones "
                f"{'of this match' if self.rules is not None else 'it offered'} "
                f"({rules_label(expected)})"
            )
            ended = MatchEnded(RULES_REFUSED, detail)
            await self._farewell({"t": "bye", "reason": f"{RULES_REFUSED}: {detail}"[:300]}, ended)
            raise ended
        if self.rules is None and self.callbacks.accept_rules is not None:
            yes = self.callbacks.accept_rules(offered)
            if inspect.isawaitable(yes):
                yes = await yes
            if not yes:
                ended = MatchEnded("you left", DECLINED)
                await self._farewell({"t": "bye", "reason": DECLINED}, ended)
                raise ended
        self.rules = offered

    def _scores(self) -> tuple[tuple[int, int], int]:
        rules = self.rules
        if self.game is None:
            return (0, 0), rules.game_target
        score = self.game.score
        running = score.running() if isinstance(score, GameScore) else score.totals()
        return (running[0], running[1]), rules.game_target

    def _view(self):
        scores, target = self._scores()
        return self.tracker.view(scores, target)

    async def _agree_resume(self, resume: dict) -> None:
        """Both saves must agree on the hands both finished; the later one drops the rest."""
        from .offer import rules_digest
        from .savegame import truncate

        mine = resume.get("hand")
        restore = {
            "t": "restore",
            "game": self._game_no,
            "heads": resume["heads"],
            "rules": rules_digest(self.rules),
        }
        if mine is not None:
            restore["hand"] = {
                "number": mine["number"],
                "steps": mine["steps"],
                "opened": mine["opened"],
            }
        await self._send(restore)
        theirs = await self._expect("restore")
        if "rules" in theirs and theirs["rules"] != rules_digest(self.rules):
            raise MatchEnded("saves differ", "the two saves hold different rules")
        if theirs["game"] != self._game_no:
            raise MatchEnded(
                "saves differ",
                f"we are in game {self._game_no}, the other player in game {theirs['game']}",
            )
        k = min(len(theirs["heads"]), len(resume["heads"])) - 1
        if theirs["heads"][k] != resume["heads"][k]:
            raise MatchEnded("saves differ", "the two saved move logs do not agree")
        truncate(self, resume, k)
        resume["hand"] = self._agree_hand(mine, theirs.get("hand"), k)

    @staticmethod
    def _agree_hand(mine: dict | None, theirs: dict | None, k: int) -> dict | None:
        """The hand in progress both saves go on with (hand ``k``, after the ``k`` both
        finished), None to deal it afresh; MatchEnded when the saves cannot agree on it.

        A hand one save holds and the other lacks is dealt again only if none of its cards
        was opened: once one was, dealing it again would let a player escape a hand it saw
        going badly (after the opponent's knock) by leaving and throwing its save away."""
        mine = mine if mine is not None and mine["number"] == k else None
        theirs = theirs if theirs is not None and theirs["number"] == k else None
        if mine is not None and theirs is not None:
            n = min(len(mine["steps"]), len(theirs["steps"]))
            if mine["steps"][:n] != theirs["steps"][:n]:
                raise MatchEnded(
                    "saves differ", f"the two saves hold different deals of hand {k + 1}"
                )
            return mine
        held = mine or theirs
        if held is not None and held["opened"]:
            raise MatchEnded(
                "saves differ",
                f"hand {k + 1} was under way (cards were opened) "
                "and only one save holds it: it cannot be dealt again",
            )
        return None

    async def _play_game(self, seed: bytes, resume: dict | None = None) -> None:
        points = card_points(seed)
        dealer, _ = cut_for_deal(seed.hex())
        self.game = None
        hand_no = 0
        if resume is not None and resume["game"] is not None:
            self.game = resume["game"]
            hand_no = len(self.game.hands)
            last = self.game.hand
            dealer = next_dealer(self.rules, last.dealer, last.winner)
        self._drop_stale_deals()
        self._game_out_start = len(self.outbox)
        replay = resume.get("hand") if resume is not None else None
        while True:
            full = await self._play_hand(points, seed, dealer, hand_no, replay)
            replay = None
            if self.game.over:
                await self._stop_ahead()
                self.games.append(self.game)
                self.callbacks.fire("on_game_over", self.game)
                return
            dealer = next_dealer(self.rules, dealer, full.winner)
            hand_no += 1

    async def _play_hand(
        self, points: list[bytes], seed: bytes, dealer: int, hand_no: int, replay: dict | None
    ) -> Hand:
        """One hand: the fair deal, the moves, the reveal and the check with every card open;
        returns the verified full hand (also the last hand of ``self.game``)."""
        self.tracker = HandTracker(self.rules, dealer, hand_no, self.seat)
        self._tracker_game = self._game_no
        self._opened_by_me = set()
        if replay is not None:
            await self._start_replay(replay, dealer)
        started = time.perf_counter()
        await self._deal_hand(points, hand_no)
        await self._deal_keys(hand_no)
        self.deal_times.append(time.perf_counter() - started)
        if self._hand_over_at is not None:
            self.deal_waits.append(time.perf_counter() - self._hand_over_at)
        if self.deal_ahead:
            self._start_ahead(points, hand_no + 1)
        dealt = [redact(e, self.seat) for e in self.tracker.hand.events]
        self.callbacks.fire("on_event", dealt, self._view(), None, None)
        while not self.tracker.over:
            if self.tracker.turn == self.seat:
                await self._my_turn(hand_no)
            else:
                await self._their_turn(hand_no)
        deck = await self._reveal(hand_no)
        full = self._verify_hand(deck, seed, dealer)
        if self._replay is not None:
            left, self._replay = self._replay["out"], None
            if left:
                await self._saves_differ(
                    f"our saved hand {hand_no + 1} holds messages the hand never came to"
                )
        if self.autosave:
            self._autosave()
        self.callbacks.fire("on_hand_over", full, tuple(self.game.totals()))
        self._hand_over_at = None if self.game.over else time.perf_counter()
        return full

    async def _start_replay(self, replay: dict, dealer: int) -> None:
        """A resumed hand in progress: send the peer every message we had sent in it (it
        drops nothing: the hand is replayed from its start), then replay it ourselves."""
        if replay["dealer"] != dealer:
            await self._saves_differ(f"the saved hand {replay['number'] + 1} has another dealer")
        self._replay = {
            "number": replay["number"],
            "secrets": replay["secrets"],
            "steps": replay["steps"],
            "out": deque(replay["sent"]),
        }
        self._owed_since = None
        async with self._send_lock:  # all kept at once: a save never holds only a part
            again = []
            for msg in replay["sent"]:
                self.sent += 1
                again.append({**msg, "seq": self.sent})
            self.outbox.extend(again)
            self._saved_ahead = (self._game_no, replay["number"])
            if self.autosave is not None and self.resumable():
                self._autosave(quiet=True)
            for msg in again:
                if self.link is None:
                    break  # the next link gets them from the outbox
                await self._raw(self.link, msg)

    # -- turns -----------------------------------------------------------------------
    def _must_knock_take(self, seat: int) -> bool:
        """Whether taking the pile now obliges ``seat`` to knock (so its hand must open)."""
        h = self.tracker.hand
        return h.phase == LAST_CHANCE or (bool(h.pile) and h.barred == (seat, h.pile[-1]))

    async def _choose(self, view):
        self._owed_since = None  # our move: the peer owes nothing while we think
        replay = self._replay
        if replay is not None and replay["out"]:
            saved = replay["out"][0]  # a resumed hand: the move we made before
            try:
                action = parse_action(saved["a"]) if saved["t"] == "act" else None
            except ValueError:
                action = None
            if action is None or action not in view.legal:
                await self._saves_differ(
                    f"our saved hand {replay['number'] + 1} does not replay "
                    f"(our move there was {saved['t']} {saved.get('a')})"
                )
            return action
        player = self.player
        if hasattr(player, "choose_async"):
            action = await player.choose_async(view)
        else:  # a plain choose(view) may think for a while: keep the link (heartbeats) alive
            action = await asyncio.to_thread(player.choose, view)
        if action not in view.legal:
            raise ValueError(f"the local player chose {action}, which is not legal now")
        return action

    async def _my_turn(self, hand_no: int) -> None:
        t = self.tracker
        action = await self._choose(self._view())
        mine = set(t.held_slots(self.seat)) - self._opened_by_me
        opens: set[int] = set()
        kind = type(action)
        if kind is Discard:
            slot = t.slot_of(action.card)
            if slot in mine:
                opens = {slot}
        elif kind in (Knock, BigGin) or (kind is DrawDiscard and self._must_knock_take(self.seat)):
            opens = mine
        msg = {"t": "act", "hand": hand_no, "a": str(action), "prev": self.log.head}
        if opens:
            msg["keys"] = self._my_keys(opens)
        sent = time.perf_counter()
        await self._send(msg)
        self._opened_by_me |= opens
        cards: dict[int, Card] = {}
        if kind is DrawStock:
            slot = t.next_stock_slot()
            cards = await self._await_keys(hand_no, {slot})
            self.draw_round_trips.append(time.perf_counter() - sent)
        elif kind in (Knock, BigGin):
            cards = await self._await_keys(hand_no, set(t.hidden_slots(self.peer)))
        events = t.apply(action, cards)
        self._logged(hand_no, self.seat, action, events)

    async def _their_turn(self, hand_no: int) -> None:
        t = self.tracker
        while True:
            msg = await self._expect("act", hand_no)
            try:
                action, cards = self._check_their_act(msg)
            except ProofError as exc:
                await self._caught(f"move {msg['a']!r} refused: {exc}", msg)
            except (ValueError, DealError) as exc:
                self.illegal_moves += 1
                await self._refuse(
                    f"move {msg['a']!r} refused: {MOVE_REFUSED} ({exc})",
                    f"move {msg['a']!r} refused: {MOVE_REFUSED}",
                )
                if self.illegal_moves >= self.max_illegal_moves:
                    self._cheated(f"{self.illegal_moves} illegal moves")
                continue
            break
        top_slot = t.next_stock_slot()
        hidden_mine = set(t.held_slots(self.seat)) - self._opened_by_me
        events = t.apply(action, cards)
        self._record(msg.get("keys", []))
        self._logged(hand_no, self.peer, action, events)
        if type(action) is DrawStock:
            await self._send({"t": "keys", "hand": hand_no, "keys": self._my_keys({top_slot})})
        elif type(action) in (Knock, BigGin):
            await self._send({"t": "keys", "hand": hand_no, "keys": self._my_keys(hidden_mine)})
            self._opened_by_me |= hidden_mine

    def _check_their_act(self, msg: dict):
        """The peer's move and the cards it opens, if it is legal; ValueError otherwise."""
        t = self.tracker
        if msg["prev"] != self.log.head:
            raise ValueError("the move log is out of step (hash chain differs)")
        action = parse_action(msg["a"])
        pairs = msg.get("keys", [])
        kind = type(action)
        hidden = set(t.hidden_slots(self.peer))
        # which cards we have seen in the peer's hand: a choice made on anything else (our
        # own cards, the stock) would tell the peer what we hold
        seen_theirs = set(t.hand.hands[self.peer]) & set(t.known.values())
        if kind is Discard and action.card not in seen_theirs:
            if len(pairs) != 1 or pairs[0][0] not in hidden:
                raise ValueError("a hidden card is discarded with its slot and key")
            expected = {pairs[0][0]}
        elif kind in (Knock, BigGin) or (kind is DrawDiscard and self._must_knock_take(self.peer)):
            expected = hidden
        else:
            expected = set()
        cards = self._open(pairs, expected)
        if kind is Discard and cards and next(iter(cards.values())) != action.card:
            raise DealError(f"the key opens {next(iter(cards.values()))}, not {action.card}")
        t.check(action, cards)
        return action, cards

    def _logged(self, hand_no: int, seat: int, action, events: list) -> None:
        self.log.append(self._game_no, hand_no, seat, str(action))
        shown = [redact(e, self.seat) for e in events]
        self.callbacks.fire("on_event", shown, self._view(), seat, action)


# what other modules and tests import from here, the words of a match among them
__all__ = [
    "CAUGHT",
    "CHAT_KEPT",
    "CHEATED",
    "CONNECTED",
    "Callbacks",
    "DECLINED",
    "GONE",
    "Link",
    "MOVE_REFUSED",
    "MatchEnded",
    "MatchSession",
    "Player",
    "RULES_REFUSED",
    "SAVED_BYE",
    "SAVE_FORMAT",
    "STALLED",
    "Timing",
    "WAITING",
]
