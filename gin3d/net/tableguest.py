"""A player who joins a table by its code (player 1, 2 or 3 as the host seats it), at the
host's address or through the service's relay, and dials the host again when its link is
lost. A player it finds stalling or cheating it asks the host to remove (``tableconduct``).
The rest is ``table.TablePeer``'s.
"""

from __future__ import annotations

import asyncio

from gin3d.engine import RuleSet

from .channel import Link
from .constants import HOST_BACK, HOST_LOST
from .ended import MatchEnded
from .peer import JoinedMatch, MatchOptions
from .protocol import ProtocolError
from .session import CHEATED, Player
from .table import BROADCAST, LINK_ERRORS, TablePeer
from .tableconduct import CHAT_BURST, GUEST_SLACK, ChatGuard, claim_note
from .transport import Identity

REDIAL_EVERY = 0.5  # seconds between tries to reach the host again


class TableGuest(TablePeer):
    """A player who joins a table by its code; player 1, 2 or 3 as the host seats it. The
    host is dialled at ``address`` if given, else (or then, if it does not answer there)
    through ``relay`` (a service's node or nodes), as a two-player guest does."""

    def __init__(
        self,
        player: Player,
        code: str,
        address: tuple[str, int] | None,
        host_fingerprint: str = "",
        relay: tuple[str, int] | list[tuple[str, int]] | None = None,
        **options,
    ) -> None:
        super().__init__(player, **options)
        self.code = code
        self.address = address
        self.identity = Identity.generate()
        self.seated = asyncio.Event()
        self.host_fingerprint = host_fingerprint  # given: the host must show it (LAN list)
        opened = code.startswith("open:")  # an open LAN table: its code is the host's key's
        self.dialer = JoinedMatch(
            None,
            "" if opened else code,
            direct=address,
            options=MatchOptions(relay=relay, name=self.name, retry=REDIAL_EVERY),
            open_fingerprint=host_fingerprint if opened else None,
        )
        self.dialer.identity = self.identity  # the host knows our seat by it
        self.route = ""  # how the link to the host runs: "direct" or "relay"
        # the host mutes a flooder: ours is a looser check, against a host that floods
        self.chat_guard = ChatGuard(burst=CHAT_BURST * GUEST_SLACK)

    async def _dial(self):
        self.dialer.peer_fingerprint = self.host_fingerprint or None
        peer = await self.dialer.connect()
        self.route = self.dialer.route
        return peer

    async def start(self) -> None:
        peer = await self._dial()
        self.host_fingerprint = peer.peer_fingerprint
        self.links[0] = peer.link
        self._spawn(self._read(peer.link, 0))

    async def _lost(self, sender: int, why: str, link: Link | None) -> None:
        if self._gone(sender, link):
            self._say(f"{HOST_LOST} ({why}): trying again")
            self._spawn(self._redial())

    async def _redial(self) -> None:
        """Reach the host again (the same identity, so it knows our seat); the table
        messages and every hand under way then resume. Past the grace time the computer
        plays our seat meanwhile: we keep trying (up to ``Timing.stall``) to take it back."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(self.timing.grace, self.timing.stall)
        while self.ended is None and loop.time() < deadline:
            try:
                peer = await self._dial()
                await self._reattach(0, peer.link)
            except (ProtocolError, asyncio.TimeoutError, *LINK_ERRORS) as exc:
                self._say(f"the host did not answer ({exc})")
                await asyncio.sleep(REDIAL_EVERY)
                continue
            self._say(HOST_BACK)
            await self._resend_resumes()  # before the hands below begin resuming
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

    async def _remove(self, p: int, reason: str, why: str) -> None:
        """Only the host seats the computer: we ask it (it checks that we play a hand under
        way with ``p``); its verdict, a ``tnote`` and a ``taway``, is what we go by."""
        self._say(f"asking the host to remove player {p} {why}")
        await self._broadcast({"t": "tnote", "p": self.index, "reason": claim_note(p, why)})

    def _ends(self) -> list[int]:
        return [0]  # the host: kept for it while the link is down, sent on the new one

    async def _send_pair(self, other: int, hand: int, body: str) -> None:
        msg = {"t": "tpair", "p": other, "hand": hand, "m": body}
        await self._send_to(0, self.sig.sign(msg))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for link in self.links.values():
            link.close()
