"""The app's handle on network play: ``NetService`` runs asyncio in its own thread.

The Panda3D app never blocks on a socket: it calls ``NetService`` methods (they return at once,
or give a ``concurrent.futures.Future``) and drains ``poll()`` once a frame for ``NetEvent``s.
A local human plays through ``HumanSeat``: the app gets a ``your_turn`` event with the
``PlayerView`` and answers with ``play(action)``. An AI seat is any ``choose(view)`` object.
See docs/net.md for the event list and a typical screen flow.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gin3d.engine import RuleSet

from .apptable import TableRun
from .candidates import format_candidate
from .constants import DEFAULT_PORT, RELAY_PORT
from .discovery import Table, TableAdvertiser, TableBrowser, find_table
from .friend import FriendGuest, FriendHost
from .friendcode import is_friend_code
from .peer import HostedMatch, JoinedMatch, MatchOptions
from .protocol import ProtocolError
from .session import Callbacks, Timing
from .tableguest import TableGuest
from .tablehost import TableHost
from .transport import open_table_code, parse_address, parse_relays
from .upnp import map_port, unmap_port

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NetEvent:
    kind: str
    data: dict = field(default_factory=dict)


@dataclass(frozen=True)
class HostInfo:
    code: str  # what the other player types (or reads off the LAN list)
    port: int
    addresses: list[str]  # where this machine listens, for "host:port" entry
    upnp: str  # the UPnP outcome in full (the router's own words: for the log)
    public_ip: str = ""  # where the online service sees us (its SEEN), once it said so
    upnp_ok: bool = False  # the router forwards the port to us


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (for the LAN advertisement)."""
    try:
        import ifaddr
    except ImportError:
        return []
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                out.append(ip.ip)
    return out


def reachable_at(listen: str) -> list[str]:
    """Where a table listening on ``listen`` can be reached: that address, or (listening on
    all of them) this machine's LAN addresses, loopback if it has none."""
    return [listen] if listen not in ("0.0.0.0", "") else lan_addresses() or ["127.0.0.1"]


class HumanSeat:
    """The local human's seat: asks the app through a ``your_turn`` event, waits for ``play``."""

    def __init__(self, service: NetService) -> None:
        self.service = service
        self.future: asyncio.Future | None = None
        self.view = None

    async def choose_async(self, view):
        self.view = view
        self.future = asyncio.get_running_loop().create_future()
        self.service._emit("your_turn", view=view, legal=list(view.legal))
        try:
            return await self.future
        finally:
            self.future = None

    def submit(self, action) -> None:
        """On the network thread: take the app's action if it is one of the legal ones."""
        if self.future is None or self.future.done():
            self.service._emit("error", message="it is not your turn")
        elif action not in self.view.legal:
            self.service._emit("error", message=f"{action} is not legal now")
        else:
            self.future.set_result(action)


class NetService:
    """Network play for the app: lobby (LAN list, host, join) and the match (moves, chat)."""

    def __init__(
        self,
        name: str = "",
        relay: tuple[str, int] | str | None = None,
        timing: Timing | None = None,
        evidence_dir: str | None = None,
        save_dir: str | None = None,
        confirm_rules: bool = False,
        stand_in: Callable[[], Any] | None = None,
    ) -> None:
        self.name = name
        # makes the computer player for a gone player's seat at a table of three or four
        # (the app picks it: the network layer knows no AI); without one the table ends
        self.stand_in = stand_in
        self.kind = ""  # what the app calls the match ("lan" / "online"), kept in its saves
        # a guest asks the app before playing the host's rules ("offer" / answer_offer)
        self.confirm_rules = confirm_rules
        self._offer: asyncio.Future | None = None
        self.save_dir = save_dir  # every match keeps a resume file here (finish it later)
        self.relay = parse_relays(relay, RELAY_PORT) if isinstance(relay, str) else relay
        self.timing = timing or Timing()
        self.evidence_dir = evidence_dir
        self.events: queue.Queue[NetEvent] = queue.Queue()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.match: HostedMatch | JoinedMatch | None = None
        self.human: HumanSeat | None = None
        self.browser: TableBrowser | None = None
        self.advertiser: TableAdvertiser | None = None
        self.mapping = None
        self.host_info: HostInfo | None = None  # the table we host, as last told
        self.table: TableRun | None = None  # a table of three or four (host_table...)
        self._rematch: asyncio.Future | None = None

    # -- thread plumbing ----------------------------------------------------------------
    def start(self) -> NetService:
        if self.thread is not None:
            return self
        ready = threading.Event()

        def run() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            self.loop.call_soon(ready.set)
            self.loop.run_forever()
            self.loop.close()

        self.thread = threading.Thread(target=run, name="gin3d-net", daemon=True)
        self.thread.start()
        ready.wait()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Leave any match, close everything, end the thread."""
        if self.loop is None:
            return
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop)
        try:
            fut.result(timeout)
        except (concurrent.futures.TimeoutError, Exception):  # closing must not raise
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout)
        self.loop = self.thread = None

    def _call(self, coro) -> concurrent.futures.Future:
        if self.loop is None:
            self.start()
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def _emit(self, kind: str, **data: Any) -> None:
        self.events.put(NetEvent(kind, data))

    def poll(self) -> list[NetEvent]:
        """Every event since the last poll (call once a frame)."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    # -- lobby ----------------------------------------------------------------------------
    def browse(self, interfaces: list[str] | None = None) -> concurrent.futures.Future:
        """Start the live LAN list: ``tables`` events with every change."""
        return self._call(self._browse(interfaces))

    async def _browse(self, interfaces) -> None:
        if self.browser is None:
            self.browser = TableBrowser(
                lambda tables: self._emit("tables", tables=tables), interfaces
            )
            await self.browser.start()

    def stop_browsing(self) -> concurrent.futures.Future:
        return self._call(self._stop_browsing())

    async def _stop_browsing(self) -> None:
        if self.browser is not None:
            await self.browser.close()
            self.browser = None

    def host(
        self,
        rules: RuleSet | None = None,
        table_name: str = "",
        player=None,
        lan: bool = True,
        open_table: bool = True,
        listen: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        upnp: bool = False,
        lan_interfaces: list[str] | None = None,
        advertise: list[str] | None = None,
        publish: bool = True,
        friend: bool = False,
    ) -> concurrent.futures.Future:
        """Open a table. Its Future gives a ``HostInfo`` (join code, port, addresses). With
        a service set, ``publish`` tells it where a guest may reach us directly (the address
        it sees us at, the UPnP mapping's), so a guest with the code tries that first.
        ``friend`` (no service set): a friend's game met at the public rendezvous
        (``friend.FriendHost``: its code alone finds us; ``publish`` False sends no direct
        address)."""

        async def hosting() -> HostInfo:  # run on the network thread
            self._free()
            options = self._options()
            options.direct_first = publish
            if friend:
                seat = self._seat(player)
                # the meeting server out of reach: hosted as before (code and address)
                match = FriendHost(
                    seat, rules, listen, port, options, direct=publish, fallback=True
                )
            else:
                match = HostedMatch(
                    self._seat(player),
                    rules,
                    listen=listen,
                    port=port,
                    options=options,
                    open_table=lan and open_table,
                )
            await match.listen_directly()
            upnp_text, upnp_ok = "not tried", False
            if upnp:  # before the relay wait, which publishes the mapping too
                self.mapping = await asyncio.to_thread(map_port, match.port)
                upnp_text, upnp_ok = self.mapping.message, self.mapping.ok
                # the router's own words, for the log (the screen says what they mean)
                (log.info if upnp_ok else log.warning)("UPnP: %s", upnp_text)
                if self.mapping.ok and self.mapping.external_ip:
                    port_out = self.mapping.external_port or match.port
                    match.external = [format_candidate(self.mapping.external_ip, port_out)]
            await match.start()
            self.match = match
            addresses = advertise or reachable_at(listen)
            if lan:
                self.advertiser = TableAdvertiser(
                    table_name or self.name or "gin3d table",
                    match.port,
                    match.identity.fingerprint,
                    addresses,
                    open_table,
                    lan_interfaces,
                    rules=match.rules,
                )
                await self.advertiser.start()
            info = HostInfo(match.code, match.port, addresses, upnp_text, match.public_ip, upnp_ok)
            self._hosting(info)
            self._emit("status", text="waiting for opponent…")
            asyncio.ensure_future(self._watch(match))
            return info

        return self._call(hosting())

    def _options(self) -> MatchOptions:
        emit = self._emit
        cb = Callbacks(
            on_status=lambda s: emit("status", text=s),
            on_event=lambda events, view, seat, action: emit(
                "game", events=events, view=view, seat=seat, action=action
            ),
            on_chat=lambda seat, text: emit("chat", seat=seat, text=text),
            on_emote=lambda seat, name: emit("emote", seat=seat, name=name),
            on_refused=lambda reason, by_peer: emit("refused", reason=reason, by_peer=by_peer),
            on_hand_over=lambda hand, totals: emit(
                "hand_over",
                hand=hand,
                totals=totals,
                game_number=self._game_number(),
                match=self._match_id(),
            ),
            on_game_over=lambda game: emit("game_over", totals=game.totals(), winner=game.winner),
            on_cheat=lambda message, path: emit("cheat", message=message, evidence=path),
            on_save_error=lambda why: emit(
                "error", message=f"not saved: {why} (the last good save is kept; play goes on)"
            ),
            rematch=self._ask_rematch,
            accept_rules=self._ask_rules if self.confirm_rules else None,
            on_resumed=lambda game: emit(
                "resumed", hands=list(game.hands) if game else [], game_number=self._game_number()
            ),
            on_public_address=self._seen_at,
            on_new_code=self._new_code,
        )
        return MatchOptions(
            callbacks=cb,
            timing=self.timing,
            evidence_dir=self.evidence_dir,
            name=self.name,
            relay=self.relay,
            save_dir=self.save_dir,
            save_info={"kind": self.kind},
            direct_first=True,
        )

    def _hosting(self, info: HostInfo) -> None:
        self.host_info = info
        self._emit("hosting", info=info)

    def _seen_at(self, ip: str, port: int) -> None:
        """The service told our table where it sees us: the hosting screen shows it (told
        again only while nobody has joined; a match under way keeps its screen)."""
        m, info = self.match, self.host_info
        if not (isinstance(m, HostedMatch) and m.session is None and info is not None):
            return
        if (info.code, info.port) == (m.code, port):  # this table's, not an earlier one's
            self._hosting(replace(info, public_ip=ip))

    def _new_code(self, code: str) -> None:
        """Our friend's code changed (a guesser spoiled the first): the hosting screen
        shows the new one."""
        if self.host_info is not None and isinstance(self.match, HostedMatch):
            self._hosting(replace(self.host_info, code=code))

    def _game_number(self) -> int:
        m = self.match
        return m.session.game_number if m is not None and m.session is not None else 0

    def _match_id(self) -> str:
        m = self.match
        return m.session.match_id if m is not None and m.session is not None else ""

    def _seat(self, player):
        if player is None:
            self.human = HumanSeat(self)
            return self.human
        self.human = None
        return player

    def join_code(
        self, code: str, address: str | None = None, player=None
    ) -> concurrent.futures.Future:
        """Join by code: directly at ``address`` ("host:port") if given, else/then the relay;
        with neither, a friend's code (``7-K7QDM3``) met at the public rendezvous."""
        direct = parse_address(address, DEFAULT_PORT) if address else None
        return self._call(self._join(code, direct, player, None))

    def save_and_leave(self, path: str | Path | None = None) -> concurrent.futures.Future:
        """Save the match (to ``path``, or its usual file in ``save_dir``), tell the opponent
        (who keeps a save too) and end it: both can resume it later. Its Future gives the
        file; it fails with ValueError while no hand has finished (nothing to resume)."""
        return self._call(self._save_and_leave(path))

    async def _save_and_leave(self, path):
        s = self.match.session if self.match is not None else None
        if s is None:
            raise RuntimeError("no match is running")
        path = path or s.autosave
        if path is None:
            raise ValueError("no save folder is set")
        return await s.save_and_leave(path)

    def join_table(
        self, table: Table, player=None, code: str | None = None
    ) -> concurrent.futures.Future:
        """Join a table from the LAN list (an open table needs no code); a table of three
        or four is joined as ``join_net_table`` does."""
        if table.players > 2:
            return self.join_net_table(
                code or "", f"{table.address}:{table.port}", player, table.fingerprint
            )
        fp = table.fingerprint if table.open else None
        return self._call(
            self._join(code or "", (table.address, table.port), player, fp, table.rules)
        )

    async def _join(self, code, direct, player, open_fp, expect_rules=None) -> str:
        self._free()
        options = self._options()
        if direct is None and (options.relay is None or is_friend_code(code)):  # the rendezvous
            match = FriendGuest(self._seat(player), code, options)
        else:
            match = JoinedMatch(
                self._seat(player),
                code,
                direct=direct,
                options=options,
                open_fingerprint=open_fp,
                expect_rules=expect_rules,
            )

        async def started() -> JoinedMatch:
            await match.start()
            return match

        await self._adopt(started())
        return match.route

    def resume(
        self,
        path: str | Path,
        address: str | None = None,
        player=None,
        listen: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        lan_interfaces: list[str] | None = None,
    ) -> concurrent.futures.Future:
        """Finish a saved match: the host's save hosts again (same code; a LAN match is
        advertised for its opponent only), the guest's joins: at ``address`` if given, else
        (a LAN match) wherever the host is heard on the LAN now, else the address it had,
        and/or the relay. Play goes on from the last hand both finished."""
        return self._call(
            self._resume_saved(Path(path), address, player, listen, port, lan_interfaces)
        )

    async def _resume_saved(self, path, address, player, listen, port, lan_interfaces):
        from .savelist import read_save

        saved = read_save(path)
        if saved["games"][-1].get("over"):
            raise ValueError("this match is finished: there is nothing to resume")
        if self.match is not None and not self.match.done:
            raise RuntimeError("a match is already open; leave it first")
        self.kind = saved.get("kind", self.kind)
        if saved.get("role") == "host":
            match = HostedMatch(
                self._seat(player), listen=listen, port=port, options=self._options(), saved=saved
            )
            await match.start()
            self.match = match
            addresses = reachable_at(listen)
            if self.kind == "lan":  # the opponent's app finds this table by its fingerprint
                advertiser = TableAdvertiser(
                    saved.get("name") or self.name or "gin3d table",
                    match.port,
                    match.identity.fingerprint,
                    addresses,
                    open_table=False,
                    interfaces=lan_interfaces,
                    rules=match.rules,
                    resume=True,
                )
                try:
                    await advertiser.start()
                    self.advertiser = advertiser
                except (OSError, RuntimeError) as exc:  # no multicast here: by address only
                    if advertiser.azc is not None:
                        await advertiser.azc.async_close()
                    self._emit("status", text=f"not announced on the LAN ({exc})")
            self._hosting(HostInfo(match.code, match.port, addresses, "not tried", match.public_ip))
            asyncio.ensure_future(self._watch(match))
            return match.code
        if not address and self.kind == "lan" and saved.get("peer_fingerprint"):
            who = saved.get("peer_name") or "your opponent"
            self._emit("status", text=f"looking for {who}'s table on the LAN…")
            try:
                table = await find_table(saved["peer_fingerprint"], lan_interfaces)
            except (OSError, RuntimeError):  # no multicast here: the saved address, the relay
                table = None
            if table is not None:
                address = f"{table.address}:{table.port}"
        if not address and saved.get("address"):
            address = saved["address"]
        direct = parse_address(address, DEFAULT_PORT) if address else None
        options = self._options()
        match = JoinedMatch(self._seat(player), "", direct=direct, options=options, saved=saved)
        self._emit("status", text="connecting…")
        try:
            await match.start()
        except (ConnectionError, ProtocolError) as exc:
            self._emit("status", text="not connected")
            raise ConnectionError(
                f"{exc}. Your opponent must choose Resume on this same "
                "match (in their Saved matches list) first"
            ) from None
        self.match = match
        self._emit(
            "connected", route=match.route, opponent=match.peer_name, safety_code=match.safety_code
        )
        asyncio.ensure_future(self._watch(match))
        return match.route

    async def _watch(self, match) -> None:
        try:
            await self._follow(match)
        except Exception as exc:  # a background task: tell the app rather than lose it
            self._emit("error", message=f"network error: {exc}")
            self._emit("ended", reason="error", detail=str(exc))

    async def _follow(self, match) -> None:
        await match.ready.wait()
        if isinstance(match, HostedMatch):
            self._emit(
                "connected",
                route=match.route,
                opponent=match.peer_name,
                safety_code=match.safety_code,
                seat=0,
            )
            if self.advertiser is not None:  # the table is taken
                await self.advertiser.close()
                self.advertiser = None
        ended = await match.wait()
        self._emit("ended", reason=ended.reason, detail=ended.detail)

    # -- a table of three, or four in two teams (apptable.TableRun) ---------------------
    def host_table(
        self,
        players: int,
        rules: RuleSet | None = None,
        table_name: str = "",
        player=None,
        lan: bool = True,
        open_table: bool = True,
        listen: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        lan_interfaces: list[str] | None = None,
        advertise: list[str] | None = None,
        stand_in=None,
        online: bool = False,
    ) -> concurrent.futures.Future:
        """Host a table of ``players`` (3, or 4 in two teams) as player 0. Its Future gives
        a ``HostInfo``; ``lan`` lists it on the LAN, ``open_table`` there with no code to
        type (joined from the list only); ``online``: the table also waits at the service's
        relay, so players anywhere join with the code alone. The others join with
        ``join_net_table`` or from the LAN list. ``stand_in`` plays a seat whose player is
        gone past the grace time (the greedy player by default)."""

        async def hosting() -> HostInfo:
            self._free()
            if online and not self.relay:
                raise ValueError("an online table needs an online service (Settings)")
            table = TableHost(
                self._seat(player),
                rules or RuleSet(),
                players,
                listen=listen,
                port=port,
                open_table=lan and open_table and not online,
                relay=self.relay if online else None,
                **self._table_options(stand_in),
            )
            await table.start()
            run = TableRun(table, self._emit)
            self.table = run
            addresses = advertise or reachable_at(listen)
            if lan:
                self.advertiser = TableAdvertiser(
                    table_name or self.name or "gin3d table",
                    table.port,
                    table.door.identity.fingerprint,
                    addresses,
                    open_table,
                    lan_interfaces,
                    rules=table.rules,
                    players=players,
                )
                await self.advertiser.start()
            info = HostInfo(table.code, table.port, addresses, "not tried")
            self._hosting(info)
            run.tell_seats()
            self._emit("status", text="waiting for players…")
            asyncio.ensure_future(self._watch_table(run, self._table_full(table)))
            return info

        return self._call(hosting())

    def join_net_table(
        self,
        code: str,
        address: str,
        player=None,
        fingerprint: str = "",
        stand_in=None,
        online: bool = False,
    ) -> concurrent.futures.Future:
        """Join a table of three or four at ``address`` ("host:port") with its ``code``, or
        (``fingerprint``: an open table from the LAN list) with none; ``online``: through the
        service's relay (the address, if given, first). Its Future gives the address (or
        "relay") once the host let us in; the seat comes with the ``connected`` event."""

        async def joining() -> str:
            self._free()
            if not code and not fingerprint:
                raise ValueError("joining a table needs its code")
            key = code or open_table_code(fingerprint)
            direct = parse_address(address, DEFAULT_PORT) if address else None
            relay = self.relay if online else None
            if direct is None and relay is None:
                raise ValueError("joining a table needs its address, or an online service")
            table = TableGuest(
                self._seat(player),
                key,
                direct,
                fingerprint,
                relay=relay,
                **self._table_options(stand_in),
            )
            self._emit("status", text="connecting…")
            try:
                await table.start()
            except (ConnectionError, ProtocolError, OSError) as exc:
                self._emit("error", message=str(exc) or type(exc).__name__)
                self._emit("status", text="not connected")
                raise
            run = TableRun(table, self._emit)
            self.table = run
            run.tell_seats()  # (not seated yet: the app says we wait for the table to fill)
            asyncio.ensure_future(self._watch_table(run))
            return address if table.route == "direct" else table.route

        return self._call(joining())

    def _table_options(self, stand_in) -> dict:
        if stand_in is None and self.stand_in is not None:
            stand_in = self.stand_in()
        return {
            "timing": self.timing,
            "evidence_dir": self.evidence_dir,
            "stand_in": stand_in,
            "name": self.name,
        }

    async def _table_full(self, table: TableHost) -> None:
        """Once every seat is taken the table leaves the LAN list."""
        await table.full.wait()
        if self.advertiser is not None:
            await self.advertiser.close()
            self.advertiser = None

    async def _watch_table(self, run: TableRun, *also) -> None:
        watchers = [asyncio.ensure_future(c) for c in also]
        try:
            await run.run()
        except Exception as exc:  # a background task: tell the app rather than lose it
            self._emit("error", message=f"network error: {exc}")
            self._emit("ended", reason="error", detail=str(exc), log_head="")
        finally:
            for w in watchers:
                w.cancel()
            await run.close()

    # -- the online service: is it there, its public tables, quick match -----------------
    def probe_service(self, service: str | None = None) -> concurrent.futures.Future:
        """Whether the service (``service``, or the one set up) answers; a ``Probe``."""
        from . import service_client

        target = service if service is not None else self.relay
        if not target:
            raise ValueError("no online service is set up")
        return self._call(service_client.probe(target))

    def public_tables(self, preset: str | None = None) -> concurrent.futures.Future:
        """The first page of the service's open public tables (of ``preset``, or all)."""
        from . import service_client

        return self._call(service_client.list_tables(self._service(), preset))

    def public_table_page(self, offset: int, count: int) -> concurrent.futures.Future:
        """``count`` of the service's open public tables from ``offset``: a ``TablePage``
        (its ``total`` says how many there are, for a list shown a page at a time)."""
        from . import service_client

        return self._call(service_client.table_page(self._service(), None, offset, count))

    def open_public_table(self, rules: RuleSet, player=None) -> concurrent.futures.Future:
        """Host a table listed at the service under our name (anyone may take it)."""
        from . import service_client

        return self._by_service(
            lambda svc, seat, opts: service_client.open_table(svc, seat, rules, opts), player
        )

    def join_public_table(self, table, player=None) -> concurrent.futures.Future:
        """Join a table from the service's list (its host must show the listed certificate)."""
        from . import service_client

        return self._by_service(
            lambda svc, seat, opts: service_client.join_table(svc, table, seat, opts), player
        )

    def quick_match(self, preset: str = "classic", player=None) -> concurrent.futures.Future:
        """Join the oldest waiting table of ``preset``, or open one and wait: its Future
        gives ``"host"`` or ``"guest"``, which the ``connected`` event repeats as the seat."""
        from . import service_client

        return self._by_service(
            lambda svc, seat, opts: service_client.quick_match(svc, seat, preset, opts), player
        )

    def _by_service(self, start, player) -> concurrent.futures.Future:
        """A match started through the service: ``start(service, seat, options)``."""

        async def go():
            self._free()
            return await start(self._service(), self._seat(player), self._options())

        return self._call(self._adopt(go()))

    def _service(self):
        if not self.relay:
            raise ValueError("no online service is set up (Settings: Online service)")
        return self.relay

    def _free(self) -> None:
        if (self.match is not None and not self.match.done) or (
            self.table is not None and not self.table.done
        ):
            raise RuntimeError("a match is already open; leave it first")

    async def _adopt(self, started) -> str:
        """A match being started (``started`` gives it once it is): ours from now on, its
        events told as for any other. ``"host"`` (a table waiting for its guest) or
        ``"guest"`` (connected)."""
        self._emit("status", text="connecting…")
        try:
            match = await started
        except (ConnectionError, ValueError) as exc:
            self._emit("error", message=str(exc))
            self._emit("status", text="not connected")
            raise
        self.match = match
        if isinstance(match, HostedMatch):
            self._hosting(HostInfo(match.code, match.port, [], "not tried", match.public_ip))
            self._emit("status", text="waiting for opponent…")
            asyncio.ensure_future(self._watch(match))
            return "host"
        self._emit(
            "connected",
            route=match.route,
            opponent=match.peer_name,
            safety_code=match.safety_code,
            seat=1,
        )
        asyncio.ensure_future(self._watch(match))
        return "guest"

    # -- in the match ---------------------------------------------------------------------
    def play(self, action) -> None:
        """The local human's move (answer to ``your_turn``)."""
        if self.loop is not None and self.human is not None:
            self.loop.call_soon_threadsafe(self.human.submit, action)

    def reconnect_to(self, address: str) -> None:
        """Guest: the host moved (new address); the next reconnect attempts go there."""
        direct = parse_address(address, DEFAULT_PORT)

        def change() -> None:
            if isinstance(self.match, JoinedMatch):
                self.match.direct = direct

        if self.loop is not None:
            self.loop.call_soon_threadsafe(change)

    def chat(self, text: str) -> concurrent.futures.Future:
        if self.table is not None and not self.table.done:  # everyone at the table
            return self._call(self.table.peer.send_chat(text))
        return self._call(self._session_call("send_chat", text))

    def emote(self, name: str) -> concurrent.futures.Future:
        if self.table is not None and not self.table.done:
            return self._call(self.table.peer.send_emote(name))
        return self._call(self._session_call("send_emote", name))

    def leave(self) -> concurrent.futures.Future:
        if self.table is not None and not self.table.done:
            return self._call(self.table.leave())
        return self._call(self._session_call("leave"))

    def claim(self) -> concurrent.futures.Future:
        """After ``opponent gone``, or once ``status()["claim_in"]`` is 0 (the opponent
        stopped playing): end the match as won by forfeit."""
        return self._call(self._session_call("claim"))

    def save(self, path: str | Path) -> concurrent.futures.Future:
        """Write the match so far to ``path`` (to finish or review later)."""
        return self._call(self._session_call("save", path))

    async def _session_call(self, name: str, *args):
        if self.match is None or self.match.session is None:
            raise RuntimeError("no match is running")
        result = getattr(self.match.session, name)(*args)
        if asyncio.iscoroutine(result):
            result = await result
        return result

    def _ask_rematch(self):
        self._rematch = asyncio.get_running_loop().create_future()
        self._emit("rematch_asked")
        return self._rematch

    def _ask_rules(self, rules: RuleSet):
        self._offer = asyncio.get_running_loop().create_future()
        peer = self.match.peer_name if self.match is not None else ""
        self._emit("offer", rules=rules, opponent=peer)
        return self._offer

    def answer_offer(self, yes: bool) -> None:
        """The guest's answer to an ``offer`` (the host's rules): play them, or leave."""
        self._answer("_offer", yes)

    def answer_rematch(self, yes: bool) -> None:
        self._answer("_rematch", yes)

    def _answer(self, question: str, yes: bool) -> None:
        """Settle the pending question (``_offer`` / ``_rematch``) on the network loop."""

        def answer() -> None:
            pending = getattr(self, question)
            if pending is not None and not pending.done():
                pending.set_result(bool(yes))

        if self.loop is not None:
            self.loop.call_soon_threadsafe(answer)

    def status(self) -> dict:
        """A snapshot for the connection line of the screen (safe from any thread)."""
        m = self.match
        s = m.session if m is not None else None
        return {
            "status": s.status if s is not None else ("hosting" if m is not None else "idle"),
            "route": m.route if m is not None else "",
            "opponent": m.peer_name if m is not None else "",
            "fingerprint": m.peer_fingerprint if m is not None else None,
            "safety_code": m.safety_code if m is not None else "",
            "round_trip_ms": (
                round(1000 * s.draw_round_trips[-1], 1)
                if s is not None and s.draw_round_trips
                else None
            ),
            # seconds until claim() is allowed against an opponent who owes us a step (0:
            # now), None when it owes none; stall_s is the whole wait (Timing.stall)
            "claim_in": s.claim_in() if s is not None else None,
            "stall_s": s.timing.stall if s is not None else None,
        }

    async def _shutdown(self) -> None:
        if self.table is not None:
            if not self.table.done:
                await self.table.leave()
            await self.table.close()
        if self.match is not None:
            s = self.match.session
            if s is not None and s.ended is None and s.link is not None:
                await s.leave()
            await self.match.close()
        if self.advertiser is not None:
            await self.advertiser.close()
        await self._stop_browsing()
        if self.mapping is not None and self.mapping.ok:
            await asyncio.to_thread(unmap_port, self.mapping)
