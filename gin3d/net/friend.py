"""Hosting and joining a friend's game by code alone, with no online service configured:
the two games meet at the public mailbox server, try each other directly, and fall back
to the public transit relay (docs/net.md, *A friend by code*).

``FriendHost`` and ``FriendGuest`` are the ``HostedMatch`` and ``JoinedMatch`` of
``peer.py`` with another way to find each other; once connected, the TLS, the join-code
handshake, the fair deal and reconnecting are theirs, unchanged. A link lost mid-match
comes back the same way (the direct addresses and the transit token are kept; the
mailbox is not needed again).
"""

from __future__ import annotations

import asyncio
import secrets

from .constants import DIRECT_TIMEOUT
from .friendcode import (
    WRONG_CODE,
    Meeting,
    direct_hints,
    guest_meeting,
    host_meeting,
    make_secret,
    normalize_friend_code,
)
from .mailbox import MailboxClient, RendezvousError, mailbox_url
from .peer import HostedMatch, HostLimits, JoinedMatch, MatchOptions
from .protocol import ProtocolError
from .session import Player
from .transit import transit_address, transit_connect
from .transport import HandshakeError, Peer, handshake, tls_link

GUEST_WAIT = 20.0  # seconds a guest waits at the mailbox for the host's first message
REMEET_FOR = 10.0  # seconds a host tries to reopen its nameplate after a wrong guess
CROWDED = "that join code is in use by two games already"


class FriendHost(HostedMatch):
    """Host a game for a friend: ``code`` is known once ``start`` has a nameplate."""

    def __init__(
        self,
        player: Player,
        rules=None,
        listen: str = "0.0.0.0",
        port: int = 0,
        options: MatchOptions | None = None,
        mailbox: str = "",
        transit: str = "",
        direct: bool = True,
        limits: HostLimits | None = None,
        fallback: bool = False,
    ) -> None:
        super().__init__(player, rules, None, listen, port, options, limits=limits)
        self.settings = mailbox, transit
        self.publish_direct = direct  # False: the guest gets no direct address to try
        # True: with the meeting server out of reach, host as before (a join code that
        # needs our address and port too) rather than fail; ``met_at`` says which it is
        self.fallback = fallback
        self.secret = make_secret()
        self.mailbox_url = ""  # checked by start (a bad setting may fall back there)
        self.transit: tuple[str, int] = ("", 0)
        self.met_at = ""  # the mailbox server we wait at ("" until start, or fallen back)
        self.meeting: Meeting | None = None
        self._waiting_at: MailboxClient | None = None  # our mailbox connection, while open

    async def start(self) -> None:
        """Listen directly and take a nameplate: ``code`` is then the friend code. A
        meeting server out of reach (or a bad setting) raises, or with ``fallback`` leaves
        a plain hosted table (its own join code; ``met_at`` empty) and says so."""
        await self.listen_directly()
        try:
            self.mailbox_url = mailbox_url(self.settings[0])
            self.transit = transit_address(self.settings[1])
            client = await self._client()
        except (RendezvousError, ValueError) as exc:
            if not self.fallback:
                raise
            self.options.callbacks.fire(
                "on_status", f"{exc}: your friend needs your address and port too"
            )
            return
        try:
            nameplate = await client.allocate()
        except RendezvousError:
            await client.close("errory")
            raise
        self.code = f"{nameplate}-{self.secret}"
        self.met_at = self.mailbox_url
        self._waiting_at = client
        self._spawn(self._meet(client))

    async def _client(self) -> MailboxClient:
        client = MailboxClient(self.mailbox_url)
        await client.connect()
        return client

    async def _meet(self, client: MailboxClient) -> None:
        """Wait at the mailbox for our guest (again after each wrong code), then at the
        transit relay for as long as the match lasts."""
        while self.meeting is None:
            # our router's UPnP mapping (``external``, the app's) first, when it made one
            found = [*self.external, *direct_hints(self.port, client.seen_ip)]
            hints = found if self.publish_direct else []
            try:
                self.meeting = await host_meeting(client, self.code, hints, None)
            except RendezvousError as exc:
                spoiled = client.mailbox  # (closing forgets it)
                await client.close("scary")
                if str(exc) == WRONG_CODE:
                    self.wrong_codes += 1
                    self._note_failure("someone tried a wrong join code for this game")
                else:
                    self._note_failure(str(exc))
                client = self._waiting_at = await self._meet_again(spoiled)
                continue
            await client.close("happy")
        self._spawn(self._transit_loop())

    async def _meet_again(self, spoiled: str) -> MailboxClient:
        """A fresh side in our nameplate once the one who spoiled it has left (the server
        gives one try per meeting); when it stays taken, a new nameplate, and a new code
        told in the status line."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REMEET_FOR
        nameplate = self.code.partition("-")[0]
        while loop.time() < deadline:
            await asyncio.sleep(self.options.retry)
            client = MailboxClient(self.mailbox_url)
            try:
                await client.connect()
                await client.claim(nameplate)
                if client.mailbox != spoiled:  # the spoiled one is gone: a fresh meeting
                    return client
            except RendezvousError:
                pass
            await client.close("errory")
        while True:
            client = MailboxClient(self.mailbox_url)
            try:
                await client.connect()
                nameplate = await client.allocate()
                break
            except RendezvousError as exc:
                await client.close("errory")
                self._note_failure(str(exc))
                await asyncio.sleep(max(self.options.retry, 2.0))
        self.code = f"{nameplate}-{self.secret}"
        self.options.callbacks.fire("on_status", f"new join code {self.code}")
        self.options.callbacks.fire("on_new_code", self.code)
        return client

    async def close(self) -> None:
        """Closed while still waiting for the guest: our nameplate goes back too."""
        if self._waiting_at is not None and self.meeting is None:
            await self._waiting_at.close("lonely", timeout=1.0)
        await super().close()

    async def _transit_loop(self) -> None:
        token = self.meeting.transit_token
        while not self.done:
            try:
                reader, writer = await transit_connect(
                    self.transit, token, secrets.token_hex(8), "host", 600.0
                )
                link, _ = await tls_link(reader, writer, "host", self.identity)
                peer = await self._authenticate(link)
            except (HandshakeError, ProtocolError, OSError) as exc:
                self._note_failure(str(exc))
                await asyncio.sleep(max(self.options.retry, 1.0))
                continue
            self.route = "relay"
            await self._use(peer)


class FriendGuest(JoinedMatch):
    """Join a friend's game with its friend code alone."""

    def __init__(
        self,
        player: Player,
        code: str,
        options: MatchOptions | None = None,
        mailbox: str = "",
        transit: str = "",
        direct: bool = True,
        wait: float = GUEST_WAIT,
    ) -> None:
        super().__init__(player, code, None, options)
        self.mailbox_url = mailbox_url(mailbox)
        self.transit = transit_address(transit)
        self.try_direct = direct
        self.meet_wait = wait
        self.meeting: Meeting | None = None

    normalize = staticmethod(normalize_friend_code)

    def check_ways(self) -> None:
        """Always a way: the mailbox and transit relay (``mailbox_url``, ``transit``)."""

    async def connect(self) -> Peer:
        """Meet (once), then the host's direct addresses, then the transit relay."""
        if self.meeting is None:
            self.meeting = await self._meet()
        errors: list[str] = []
        if self.try_direct and self.meeting.hints:
            deadline = asyncio.get_running_loop().time() + (
                self.options.direct_timeout or DIRECT_TIMEOUT
            )
            peer = await self.dial_candidates(self.meeting.hints, deadline, errors)
            if peer is not None:
                self.route = "direct"
                return peer
        try:
            peer = await self._dial_transit()
        except HandshakeError:
            raise
        except (ProtocolError, OSError) as exc:
            errors.append(str(exc))
            raise ConnectionError("could not connect: " + "; ".join(errors)) from None
        self.route = "relay"
        return peer

    async def _meet(self) -> Meeting:
        client = MailboxClient(self.mailbox_url)
        mood = "scary"
        try:
            await client.connect()
            await client.claim(self.code.partition("-")[0])
            meeting = await guest_meeting(client, self.code, self.meet_wait)
            mood = "happy"
            return meeting
        except RendezvousError as exc:
            why = str(exc)
            if why == WRONG_CODE:
                raise HandshakeError(WRONG_CODE) from None
            raise RendezvousError(CROWDED if why.endswith("crowded") else why) from None
        finally:
            await client.close(mood)

    async def _dial_transit(self) -> Peer:
        o = self.options
        token = self.meeting.transit_token
        reader, writer = await transit_connect(
            self.transit, token, secrets.token_hex(8), "guest", 30.0
        )
        link, host_fp = await tls_link(reader, writer, "guest", self.identity)
        return await handshake(
            link,
            "guest",
            self.identity,
            self.code,
            host_fp,
            self.peer_fingerprint,
            o.name,
            o.version,
        )
