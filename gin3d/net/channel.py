"""The link side of a match: attach a link, read and dispatch the peer's frames, heartbeats,
numbered sends kept for resending after a reconnect, and refusals. A part of ``MatchSession``
(``gin3d.net.session``), whose state it shares.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Protocol

from .constants import (
    CONNECTED,
    DEAL_MESSAGES,
    FAREWELL_PING,
    GONE,
    HAND_MESSAGES,
    INCIDENTS_KEPT,
    PROGRESS_MESSAGES,
    SAVED_BYE,
    WAITING,
)
from .ended import MatchEnded
from .evidence import clip
from .protocol import SEQUENCED, FrameError, ProtocolError


class Link(Protocol):
    """One live connection to the peer (see ``transport.Link``)."""

    async def send(self, msg: dict) -> None: ...

    async def recv(self) -> dict: ...

    def close(self) -> None: ...


class Channel:
    """How the match talks to its peer: links come and go, nothing is lost or applied twice."""

    async def attach(self, link: Link) -> None:
        """Use a new (authenticated) link: exchange what each side got, resend the rest."""
        old = self.link
        if old is not None:
            self.link = None
            old.close()
        await link.send({"t": "resume", "match": self.match_id, "got": self.got})
        first = await asyncio.wait_for(link.recv(), self.timing.dead_after)
        if first.get("t") != "resume" or first.get("match") != self.match_id:
            link.close()
            raise ProtocolError("the peer did not resume this match")
        async with self._send_lock:
            for msg in self.outbox:
                if msg["seq"] > first["got"]:
                    await link.send(msg)
            if self._bye_seq is not None:
                await link.send(self._farewell_ping())
            self.link = link
        self.link_lost.clear()
        self._last_seen = time.monotonic()
        if self._grace is not None:
            self._grace.cancel()
            self._grace = None
        self._set_status(CONNECTED)
        self._spawn(self._reader(link))
        self._spawn(self._heartbeat(link))
        if self._bye_seq is not None and first["got"] >= self._bye_seq:
            self._end(self.ended)  # the peer already holds our bye

    def _spawn(self, coro) -> asyncio.Future:
        """Run ``coro`` beside the match; ``close`` cancels it if it is still running."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _set_status(self, status: str) -> None:
        self.status = status
        self.callbacks.fire("on_status", status)

    def _drop(self, link: Link, why: str = "") -> None:
        """The link died: wait for a reconnect; after the grace period the opponent is gone."""
        link.close()
        if self.link is not link:
            return
        self.link = None
        self.link_lost.set()
        if self.ended is not None:
            return
        self._set_status(WAITING)
        loop = asyncio.get_running_loop()
        if self._grace is None:
            self._grace = loop.call_later(self.timing.grace, self._gone)

    def _gone(self) -> None:
        self._grace = None
        if self.link is None and self.ended is None:
            self._set_status(GONE)

    async def _reader(self, link: Link) -> None:
        while self.link is link:
            try:
                msg = await link.recv()
            except FrameError as exc:  # framing lost: this link cannot be read any further
                self._drop(link, str(exc))
                return
            except ProtocolError as exc:
                await self._refuse(f"bad message: {exc}", msg={"frame": "not a valid message"})
                continue
            except (ConnectionError, asyncio.IncompleteReadError, OSError, EOFError) as exc:
                self._drop(link, str(exc))
                return
            self._last_seen = time.monotonic()
            kind = msg["t"]
            if kind == "ping":
                await self._raw(link, {"t": "pong", "n": msg["n"]})
                continue
            if kind not in SEQUENCED:
                if kind == "error":
                    self._drop(link, msg["text"])
                    return
                if (
                    kind == "pong"
                    and self._bye_seq is not None
                    and (msg["n"] == FAREWELL_PING + self._bye_seq)
                ):
                    self._end(self.ended)  # the peer read our bye before this ping
                continue  # pong / stray resume: nothing to do
            seq = msg["seq"]
            if seq <= self.got:
                continue  # resent after a reconnect: already have it
            if seq != self.got + 1:
                await self._refuse(f"message {seq} out of order (expected {self.got + 1})", msg=msg)
                continue
            self.got = seq
            self._dispatch(msg)

    def _dispatch(self, msg: dict) -> None:
        kind = msg["t"]
        if kind == "chat":
            self._keep_chat(self.peer, msg["text"])
            self.callbacks.fire("on_chat", self.peer, msg["text"])
        elif kind == "emote":
            self.callbacks.fire("on_emote", self.peer, msg["name"])
        elif kind == "refused":
            self.callbacks.fire("on_refused", msg["reason"], True)
        elif kind == "bye":
            if msg["reason"] == SAVED_BYE and self.autosave and self.resumable():
                self._autosave()  # the opponent will want to finish this: keep ours too
            self._end(MatchEnded("opponent left", msg["reason"]))
        elif kind in DEAL_MESSAGES:
            self._deal_inbox.put_nowait(msg)
        else:
            self.inbox.put_nowait(msg)

    async def _heartbeat(self, link: Link) -> None:
        n = 0
        while self.link is link:
            due = time.monotonic() + self.timing.heartbeat
            await asyncio.sleep(self.timing.heartbeat)
            if self.link is not link:
                return
            now = time.monotonic()
            # woken a whole beat late, this program stalled (a loaded machine): the peer's
            # frames may be waiting unread, so judge the link on the next beat instead
            stalled = now - due > self.timing.heartbeat
            if now - self._last_seen > self.timing.dead_after and not stalled:
                self._drop(link, "no heartbeat")
                return
            n += 1
            await self._raw(link, {"t": "ping", "n": n})

    async def _raw(self, link: Link, msg: dict) -> None:
        try:
            await link.send(msg)
        except (ConnectionError, OSError) as exc:
            self._drop(link, str(exc))

    async def _send(self, msg: dict) -> None:
        """Send a sequence-numbered message: kept, and resent after a reconnect if need be."""
        if msg["t"] in PROGRESS_MESSAGES:
            self._owed_since = None
        replay = self._replay
        if (
            replay is not None
            and replay["out"]
            and msg["t"] in HAND_MESSAGES
            and msg["hand"] == replay["number"]
        ):
            saved = replay["out"].popleft()  # sent again already, at the resume
            if json.dumps(saved, sort_keys=True) != json.dumps(msg, sort_keys=True):
                await self._saves_differ(
                    f"our saved hand {replay['number'] + 1} does not replay "
                    f"(saved {saved['t']}, now {msg['t']})"
                )
            return
        async with self._send_lock:
            self.sent += 1
            msg = {**msg, "seq": self.sent}
            self.outbox.append(msg)
            self._save_ahead(msg)
            link = self.link
            if link is not None:
                await self._raw(link, msg)

    def _save_ahead(self, msg: dict) -> None:
        """With an autosave: rewrite it *before* sending a move, or the first message of a
        hand, so a program killed mid-hand still holds the hand in progress with all it
        sent that the peer may have read (see ``savegame.hand_state``). The rest of a hand's
        messages (deal steps, keys, the reveal) are made again from the saved secrets. Not
        before the hand's deal is this session's: a deal run ahead that is still finishing
        has no secrets in a save yet (that hand is dealt afresh after a restart)."""
        t = self.tracker
        if (
            self.autosave is None
            or msg["t"] not in HAND_MESSAGES
            or t is None
            or msg["hand"] != t.hand_number
            or self._tracker_game != self._game_no
            or self.deal is None
            or self.deal.context != self._deal_context(msg["hand"])
            or not self.resumable()
        ):  # before any verified hand: nothing to resume
            return
        hand = (self._game_no, msg["hand"])
        # an opening too: a save that holds our secrets must hold the challenge they answered
        if msg["t"] in ("act", "opening") or self._saved_ahead != hand:
            self._saved_ahead = hand
            self._autosave(quiet=True)

    async def _refuse(self, reason: str, told: str | None = None, msg: dict | None = None) -> None:
        """Refuse a peer's message: report it, tell the peer (``told``, by default the
        reason), keep it for the evidence, change nothing. Too many end the match."""
        self.refusals.append(reason)
        offending = msg if msg is not None else self._current
        self.incidents.append(
            {"reason": reason[:300], "at": time.time(), "message": clip(offending)}
        )
        del self.incidents[:-INCIDENTS_KEPT]
        self.callbacks.fire("on_refused", reason, False)
        await self._send({"t": "refused", "reason": (told or reason)[:300]})
        if len(self.refusals) >= self.max_refusals and self.ended is None:
            self._end(self._verdict(f"{len(self.refusals)} refused messages"))
