"""Hosting and joining a match: connections in, connections out, and reconnecting.

``HostedMatch`` listens for the guest directly and, when a relay is set, also waits for it at
the relay (publishing where it listens, with ``direct_first``); ``JoinedMatch`` connects
directly (at a given address, or at those the host published) and falls back to the relay.
Both hand every authenticated connection to one ``MatchSession``; when a link dies the guest
keeps dialling
(same or new address, direct or relay) and the host keeps accepting, each new link
authenticated by the join code *and* the opponent's remembered certificate fingerprint.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from gin3d.engine import RuleSet

from .candidates import format_candidate, log, seen_ip
from .constants import DIRECT_TIMEOUT, MAX_CANDIDATES
from .directory import PUBLIC_PRESETS, encode_name
from .friendcode import is_friend_code, normalize_any_code
from .limits import Budget, Slots, peer_address
from .links import StreamLink
from .protocol import PROTOCOL_VERSION, ProtocolError
from .relay import (
    RelayError,
    RelayUnreachable,
    ask_direct,
    claim_verifier,
    relay_connect,
    relay_nodes,
)
from .session import Callbacks, MatchEnded, MatchSession, Player, Timing
from .transport import (
    HandshakeError,
    Identity,
    Peer,
    connect_direct,
    handshake,
    make_code,
    normalize_code,
    room_claim,
    room_id,
    tls_link,
)


@dataclass
class MatchOptions:
    """What both roles share; the defaults suit a real game, tests shorten the timing."""

    callbacks: Callbacks = field(default_factory=Callbacks)
    timing: Timing = field(default_factory=Timing)
    evidence_dir: str | None = None
    name: str = ""
    # (host, port) of a gin3d-relay, or a list of the nodes of one service (tried in turn)
    relay: tuple[str, int] | list[tuple[str, int]] | None = None
    retry: float = 0.5  # seconds between reconnect attempts
    version: int = PROTOCOL_VERSION
    save_dir: str | None = None  # keep a resume file here, rewritten after every hand
    save_info: dict = field(default_factory=dict)  # more for the saves (e.g. "kind": "lan")
    # with a relay: the host publishes its direct addresses at the service, and a guest with
    # only the code tries them (for DIRECT_TIMEOUT s) before the relay (docs/net.md)
    direct_first: bool = False
    direct_timeout: float = DIRECT_TIMEOUT


FAILURES_KEPT = 100  # connection failures remembered (the newest)


@dataclass
class HostLimits:
    """A hosting peer's limits on connections that have not authenticated yet."""

    preauth_timeout: float = 10.0  # seconds for TLS and the join-code handshake together
    max_preauth_per_address: int = 4  # handshakes under way from one address
    max_preauth: int = 32  # handshakes under way in all; the oldest is closed to make room
    guesses: tuple[int, float] = (5, 12.0)  # wrong codes per address: burst, then one per s
    table_guesses: tuple[int, float] = (20, 5.0)  # wrong codes at this table, all addresses


class _Base:
    def __init__(
        self, player: Player, options: MatchOptions | None, saved: dict | None = None
    ) -> None:
        self.player = player
        self.options = options or MatchOptions()
        self.saved = saved
        self.identity = (
            Identity.from_dict(saved["identity"])
            if saved
            else Identity.generate(self.options.name or "gin3d")
        )
        self.session: MatchSession | None = None
        self.peer_fingerprint: str | None = saved["peer_fingerprint"] if saved else None
        self.peer_name = ""
        self.failures: list[str] = []  # connection attempts that did not authenticate
        self.route = ""  # how the current link runs: "direct" or "relay"
        self.safety_code = ""  # six digits to compare aloud on an open LAN table
        self.ready = asyncio.Event()  # the first link is up and the session runs
        self.expect_rules: RuleSet | None = None  # guest: the rules the table offered
        self._tasks: set[asyncio.Task] = set()
        self._run_task: asyncio.Task | None = None
        self._claim = ""  # the relay claim of our code (a scrypt: made once)
        self._node = 0  # the service node we try first (the next one after a failure)

    async def relay_claim(self) -> str:
        """``room_claim(self.code)``, computed once in a worker thread (it takes ~50 ms)."""
        if not self._claim:
            self._claim = await asyncio.to_thread(room_claim, self.code)
        return self._claim

    async def _relay_dial(
        self,
        role: str,
        room: str,
        proof: str,
        timeout: float,
        on_miss=None,
        extra: str = "",
        on_seen=None,
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """``relay_connect`` at the service's nodes, from the one that last worked: a node
        that cannot be reached is skipped for the next (and stays skipped)."""
        nodes = relay_nodes(self.options.relay)
        for _ in range(len(nodes)):
            host, port = nodes[self._node % len(nodes)]
            try:
                return await relay_connect(
                    host, port, role, room, proof, timeout, on_miss, extra, on_seen
                )
            except RelayUnreachable as exc:
                self._node += 1
                last = exc
        raise last

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _note_failure(self, why: str) -> None:
        self.failures.append(why)
        if len(self.failures) > 2 * FAILURES_KEPT:  # a flood of strangers: keep the last ones
            del self.failures[:-FAILURES_KEPT]
        self.options.callbacks.fire("on_status", f"connection failed: {why}")

    def _new_session(self, seat: int, peer: Peer, rules: RuleSet | None) -> MatchSession:
        o = self.options
        role = "host" if seat == 0 else "guest"
        autosave = (
            str(Path(o.save_dir) / f"gin3d-match-{peer.match_id[:12]}-{role}.json")
            if o.save_dir
            else None
        )
        session = MatchSession(
            seat,
            self.player,
            peer.match_id,
            rules=rules,
            callbacks=o.callbacks,
            timing=o.timing,
            evidence_dir=o.evidence_dir,
            autosave=autosave,
            expect_rules=self.expect_rules,
        )
        direct = getattr(self, "direct", None)
        session.save_extra = {
            **o.save_info,
            "identity": self.identity.to_dict(),
            "code": self.code,
            "peer_fingerprint": peer.peer_fingerprint,
            "role": role,
            "name": o.name,
            "peer_name": peer.name,
            "address": f"{direct[0]}:{direct[1]}" if direct else "",
        }
        if self.saved is not None:
            session.load(self.saved)
        return session

    async def wait(self) -> MatchEnded:
        """Until the match ends; returns how it ended."""
        await self.ready.wait()
        return await self._run_task

    @property
    def done(self) -> bool:
        return self.session is not None and self.session.done.is_set()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.session is not None:
            await self.session.close()


class HostedMatch(_Base):
    """Host a table: the guest joins by address or through the relay with the join code."""

    def __init__(
        self,
        player: Player,
        rules: RuleSet | None = None,
        code: str | None = None,
        listen: str = "127.0.0.1",
        port: int = 0,
        options: MatchOptions | None = None,
        open_table: bool = False,
        saved: dict | None = None,
        limits: HostLimits | None = None,
        listed: bool = False,
    ) -> None:
        super().__init__(player, options, saved)
        self.listed = listed  # an open public table at the service (its code is public)
        self.limits = limits or HostLimits()
        self.preauth: dict[asyncio.StreamWriter, str] = {}  # handshakes under way, oldest first
        self.preauth_from = Slots(self.limits.max_preauth_per_address)
        self.guesses = Budget(*self.limits.guesses)
        self.table_guesses = Budget(*self.limits.table_guesses)
        self.turned_away = 0  # connections closed unread (over a limit) or evicted
        if saved is not None:
            if saved.get("role") != "host":
                raise ValueError("this save is from the guest's side: join with it instead")
            rules, code, open_table = RuleSet.from_dict(saved["rules"]), saved["code"], False
        self.rules = rules or RuleSet()
        # an open LAN table's password, or a friend's code (a saved match met by one: it
        # comes back by address) are kept as they are
        kept = code and (code.startswith("open:") or is_friend_code(code))
        self.code = code if kept else (normalize_code(code) if code else make_code())
        if open_table:  # a LAN table anyone may join: the password is public
            from .transport import open_table_code

            self.code = open_table_code(self.identity.fingerprint)
        self.listen = listen
        self.port = port
        self.server: asyncio.base_events.Server | None = None
        self._lock = asyncio.Lock()
        self.wrong_codes = 0  # wrong join codes tried, at the relay and here
        self.external: list[str] = []  # more direct addresses to publish (a UPnP mapping's)
        self.public_ip = ""  # the address the service saw us come from (direct_first)
        self._old_node = False  # the service does not know ``direct``: not published

    async def listen_directly(self) -> None:
        """Accept guests at ``listen:port`` (``port`` is then the bound one)."""
        if self.server is None:
            self.server = await asyncio.start_server(self._incoming, self.listen, self.port)
            self.port = self.server.sockets[0].getsockname()[1]

    async def start(self) -> None:
        """Listen directly and, with a relay set, wait for the guest there too."""
        await self.listen_directly()
        if self.options.relay is not None:
            self._spawn(self._relay_loop())

    def direct_line(self) -> str:
        """The rest of a ``host`` line that publishes where a guest may reach us directly:
        our listening port (the node adds the address it sees) and our ``external`` ones."""
        return " ".join(["direct", str(self.port), *self.external[: MAX_CANDIDATES - 1]])

    def _seen(self, text: str) -> None:
        """The node's ``SEEN``: our public address (checked), told when it is new."""
        ip = seen_ip(text)
        if ip and ip != self.public_ip:
            self.public_ip = ip
            self.options.callbacks.fire("on_public_address", ip, self.port)

    async def _incoming(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A stranger until the handshake holds: limited per address, in all and in time."""
        address = peer_address(writer)
        if not self._admit(address):
            self.turned_away += 1
            writer.close()
            return
        self.preauth[writer] = address
        self.preauth_from.take(address)
        link: StreamLink | None = None
        try:
            # TLS starts in this task, before anything awaits: a ClientHello read by the
            # plain stream first would never reach the TLS layer
            deadline = asyncio.get_running_loop().time() + self.limits.preauth_timeout
            link, _ = await tls_link(
                reader, writer, "host", self.identity, timeout=self.limits.preauth_timeout
            )
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            peer = await asyncio.wait_for(self._authenticate(link), left)
        except (HandshakeError, ProtocolError, OSError, asyncio.TimeoutError) as exc:
            writer.close()
            if link is not None:
                link.close()
                if link.code_tried:
                    self._wrong_code(address)
            self._note_failure(str(exc) or "the other side did not complete the handshake in time")
            return
        finally:
            self.preauth.pop(writer, None)
            self.preauth_from.give_back(address)
        self.route = "direct"
        await self._use(peer)

    def _admit(self, address: str) -> bool:
        """May a new connection from ``address`` start a handshake?"""
        if self.preauth_from.full_for(address):
            return False
        if not (self.guesses.allowed(address) and self.table_guesses.allowed("table")):
            return False  # refused before any code is tested: no oracle
        if len(self.preauth) >= self.limits.max_preauth:  # the oldest makes room
            oldest = next(iter(self.preauth))
            del self.preauth[oldest]
            self.turned_away += 1
            oldest.close()
        return True

    def _wrong_code(self, address: str) -> None:
        self.wrong_codes += 1
        self.guesses.spend(address)
        self.table_guesses.spend("table")

    async def _authenticate(self, link: StreamLink) -> Peer:
        """The join-code handshake as the host, over TLS already up (direct or relayed)."""
        return await handshake(
            link,
            "host",
            self.identity,
            self.code,
            expect_peer=self.peer_fingerprint,
            name=self.options.name,
            version=self.options.version,
        )

    async def _relay_loop(self) -> None:
        room = room_id(self.code) if not self.code.startswith("open:") else None
        verifier = claim_verifier(await self.relay_claim()) if room is not None else ""
        while room is not None and not self.done:
            listed = self.listed and self.session is None  # listed until a guest comes
            publish = self.options.direct_first and not self.listed and not self._old_node
            extra = self.direct_line() if publish else ""
            try:
                reader, writer = await self._relay_dial(
                    "table" if listed else "host",
                    room,
                    verifier,
                    600.0,
                    on_miss=self._relay_miss,
                    extra=self.table_line() if listed else extra,
                    on_seen=self._seen,
                )
                link, _ = await tls_link(reader, writer, "host", self.identity)
                peer = await self._authenticate(link)
            except (HandshakeError, RelayError, ProtocolError, OSError) as exc:
                self._note_failure(str(exc))
                if publish and str(exc).endswith("bad request line"):
                    self._old_node = True  # a node of an older version: wait unpublished
                    continue
                if isinstance(exc, RelayError):
                    self._node += 1  # the node died or would not have us: try the next
                await asyncio.sleep(self.options.retry)
                continue
            self.route = "relay"
            await self._use(peer)

    def table_line(self) -> str:
        """The rest of the ``table`` line that lists this table at the service: the host's
        fingerprint, the rules' preset and game target, the name, the (public) code."""
        preset = self.rules.name if self.rules.name in PUBLIC_PRESETS else "custom"
        name = encode_name(self.options.name or "player")
        return f"{self.identity.fingerprint} {preset} {self.rules.game_target} {name} {self.code}"

    def _relay_miss(self) -> None:
        self.wrong_codes += 1
        self._note_failure("someone tried a wrong join code for this table at the relay")

    async def _use(self, peer: Peer) -> None:
        async with self._lock:
            if self.session is None:
                self.session = self._new_session(0, peer, self.rules)
                self.peer_fingerprint = peer.peer_fingerprint
                self.peer_name = peer.name
                self.safety_code = peer.safety_code
                fresh = True
            elif peer.match_id != self.session.match_id or self.done:
                peer.link.close()
                return
            else:
                fresh = False
            try:
                await self.session.attach(peer.link)
            except (
                ProtocolError,
                ConnectionError,
                OSError,
                asyncio.TimeoutError,
                asyncio.IncompleteReadError,
            ) as exc:
                peer.link.close()
                self._note_failure(f"resume failed: {exc}")
                if fresh:  # the match never started: the table is open again
                    self.session = None
                    self.peer_fingerprint = self.saved["peer_fingerprint"] if self.saved else None
                return
            if fresh:
                self._run_task = self._spawn(self.session.run())
                self.ready.set()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        await super().close()


class JoinedMatch(_Base):
    """Join a table by address (``direct``) and/or through the relay, with the join code."""

    def __init__(
        self,
        player: Player,
        code: str,
        direct: tuple[str, int] | None = None,
        options: MatchOptions | None = None,
        open_fingerprint: str | None = None,
        saved: dict | None = None,
        expect_rules: RuleSet | None = None,
    ) -> None:
        super().__init__(player, options, saved)
        self.expect_rules = expect_rules
        if saved is not None:
            if saved.get("role") != "guest":
                raise ValueError("this save is from the host's side: host with it instead")
            self.code = saved["code"]
        elif open_fingerprint is not None:
            from .transport import open_table_code

            self.code = open_table_code(open_fingerprint)
            self.peer_fingerprint = open_fingerprint  # pinned from the LAN advertisement
        else:
            self.code = self.normalize(code)
        self.direct = direct
        self.check_ways()

    normalize = staticmethod(normalize_any_code)  # the join code as typed, checked

    def check_ways(self) -> None:
        if self.direct is None and self.options.relay is None:
            raise ValueError("give an address, a relay, or both")

    async def connect(self) -> Peer:
        """Direct first (at ``direct``, or at the addresses the host published), then the
        relay; the error names what was tried. (A table's guest dials its host with it.)"""
        errors: list[str] = []
        o = self.options
        peer = None
        if self.direct is not None:
            peer = await self._attempt(self._dial_direct, errors)
        elif o.direct_first and o.relay is not None and not self.code.startswith("open:"):
            peer = await self._published_direct(errors)
        if peer is not None:
            self.route = "direct"
            return peer
        if o.relay is not None and not self.code.startswith("open:"):
            peer = await self._attempt(self._dial_relay, errors)
            if peer is not None:
                self.route = "relay"
                return peer
        raise ConnectionError("could not connect: " + "; ".join(errors))

    @staticmethod
    async def _attempt(dial, errors: list[str]) -> Peer | None:
        """One way to the host: its Peer, or None with the reason added to ``errors``. A
        failed handshake is raised, not noted: no other way is tried after it."""
        try:
            return await dial()
        except HandshakeError:
            raise
        except (ProtocolError, OSError) as exc:  # RelayError is a ConnectionError
            errors.append(str(exc))
            return None

    async def _dial_direct(self) -> Peer:
        o = self.options
        return await connect_direct(
            *self.direct, self.identity, self.code, self.peer_fingerprint, o.name, o.version
        )

    async def _dial_relay(self) -> Peer:
        o = self.options
        claim = await self.relay_claim()
        reader, writer = await self._relay_dial("guest", room_id(self.code), claim, 30)
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

    async def _published_direct(self, errors: list[str]) -> Peer | None:
        """The host at one of the addresses it published at the service, tried in turn
        within ``direct_timeout`` s in all (each gets an equal share of what is left); None
        (the relay next) when none answered with the join code's handshake in time. A
        stranger at a published address cannot pass that handshake: it only costs time."""
        o = self.options
        loop = asyncio.get_running_loop()
        deadline = loop.time() + o.direct_timeout
        claim = await self.relay_claim()
        try:
            found = await asyncio.wait_for(
                ask_direct(relay_nodes(o.relay), room_id(self.code), claim, o.direct_timeout),
                o.direct_timeout,
            )
        except asyncio.TimeoutError:
            found = []
        return await self.dial_candidates(found, deadline, errors)

    async def dial_candidates(
        self, found: list[tuple[str, int]], deadline: float, errors: list[str]
    ) -> Peer | None:
        """The host at the first of ``found`` that answers with the join code's handshake,
        each tried with an equal share of the time left until ``deadline``; None if none."""
        o = self.options
        loop = asyncio.get_running_loop()
        for i, (host, port) in enumerate(found):
            share = (deadline - loop.time()) / (len(found) - i)
            where = format_candidate(host, port)
            try:
                return await asyncio.wait_for(
                    connect_direct(
                        host,
                        port,
                        self.identity,
                        self.code,
                        self.peer_fingerprint,
                        o.name,
                        o.version,
                        timeout=share,
                    ),
                    max(share, 0.0),
                )
            except (
                ConnectionError,
                ProtocolError,
                OSError,
                ValueError,
                asyncio.TimeoutError,
                asyncio.IncompleteReadError,
            ) as exc:
                errors.append(f"{where}: {exc or 'timed out'}")
                log.info("no direct connection to %s (%s)", where, exc or "timed out")
        return None

    async def start(self) -> None:
        """Connect and start the match; raises ConnectionError / HandshakeError on failure."""
        peer = await self.connect()
        self.peer_fingerprint = peer.peer_fingerprint
        self.peer_name = peer.name
        self.safety_code = peer.safety_code
        self.session = self._new_session(1, peer, None)
        await self.session.attach(peer.link)
        self._run_task = self._spawn(self.session.run())
        self._spawn(self._reconnect_loop())
        self.ready.set()

    async def _reconnect_loop(self) -> None:
        s = self.session
        while not s.done.is_set():
            lost = asyncio.ensure_future(s.link_lost.wait())
            done = asyncio.ensure_future(s.done.wait())
            await asyncio.wait({lost, done}, return_when=asyncio.FIRST_COMPLETED)
            lost.cancel()
            done.cancel()
            while s.link is None and not s.done.is_set():
                try:
                    peer = await self.connect()
                    await s.attach(peer.link)
                except (
                    ConnectionError,
                    ProtocolError,
                    OSError,
                    asyncio.TimeoutError,
                    asyncio.IncompleteReadError,
                ) as exc:
                    self._note_failure(str(exc))
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(s.done.wait(), self.options.retry)
