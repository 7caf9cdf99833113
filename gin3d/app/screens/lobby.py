"""The LAN and Online screens: host a table, join from the LAN list, by address or by code.

The states ``Lan``, ``Online`` and ``Hosting``; ``LobbyScreen`` is what every network screen
shares (here, in ``public`` and in ``match``), and ``Lobby`` what lasts from one of them to the
next, kept by the flow. The network itself is the app's ``NetHub``
(``gin3d.scene.control.net_hub``), reached through the screens' services.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from panda3d.core import TextNode

from ...net.constants import DEFAULT_PORT
from ...net.friendcode import is_friend_code, normalize_friend_code
from ...scene.control.net_hub import NetHub, net_event, normalize_code, parse_address, rules_label
from ...scene.ui.palette import GOLD
from ...scene.ui.panel import entry
from .base import Screen

if TYPE_CHECKING:  # the network stack (TLS, crypto) loads only when a network screen opens
    from ...net.api import NetEvent, NetService

ERROR_FG = (1, 0.5, 0.4, 1)
OK_FG = (0.8, 1, 0.8, 1)
MAX_ROWS = 5
STILL_LOOKING_S = 4.0  # an empty LAN list says "no tables found yet" after this long


@dataclass
class Lobby:
    """What the network screens share from one to the next (the flow keeps it)."""

    note: object = None  # the open lobby panel's line that says what happens (``_say``)
    lan_tables: list | None = None  # the LAN list, kept while the service lives
    early_events: list = field(default_factory=list)  # a match's events before its table
    host_open: bool = True  # LAN: an open table (anyone on the LAN joins) or one with a code
    saved_back: str = "Lan"  # where the Saved matches list goes back to
    saved_page: int = 0  # the page of that list Delete / Keep it come back to


class _Shared:
    """A network screen's attribute that is the ``Lobby``'s, the same on all of them."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, screen, owner=None):
        return self if screen is None else getattr(screen.flow.lobby, self.name)

    def __set__(self, screen, value) -> None:
        setattr(screen.flow.lobby, self.name, value)


class LobbyScreen(Screen):
    """What every network screen shares: the hub, the panel's note, the name row, the
    hub's events while a lobby shows, getting ready to host or join."""

    note = _Shared()
    lan_tables = _Shared()
    early_events = _Shared()
    host_open = _Shared()
    saved_back = _Shared()
    saved_page = _Shared()

    # -- shared -------------------------------------------------------------------------
    @property
    def hub(self) -> NetHub:
        return self.services.hub

    def _lobby(self, title: str):
        p = self._panel(title, width=1.25, height=0.92)
        self.note = p.text("", -0.64, 0.042, fg=OK_FG)
        self.note["wordwrap"] = 55
        return p

    def _say(self, text: str, error: bool = False) -> None:
        note = self.note
        if note is not None and not note.isEmpty():
            note.setText(text)
            note["fg"] = ERROR_FG if error else OK_FG

    def _name_row(self, p, y: float) -> None:
        p.text("Your name", y, 0.045, x=-1.1, align=TextNode.ALeft)
        entry(
            p,
            "name",
            self.hub.config.name,
            (-0.6, y),
            width=12,
            command=lambda text: self._set_name(text),
        )

    def _set_name(self, text: str | None = None) -> str:
        p = self.panel
        if text is None and p is not None and "name" in getattr(p, "entries", {}):
            text = p.entries["name"].get()
        name = " ".join((text or "").split())[:20]
        if name:
            self.hub.config.name = name
            if self.hub.service is not None:
                self.hub.service.name = name
        return self.hub.config.name

    def _lobby_event(self, ev: NetEvent) -> None:
        """Events while a lobby screen shows (the LAN list, hosting, connecting, failures)."""
        kind, data = ev.kind, ev.data
        if kind == "tables":
            # a saved match waiting for its own opponent is not a table anyone else can join
            self.lan_tables = [t for t in data["tables"] if not t.resume]
            self._tables_changed()
        elif kind == "hosting":
            self._hosting(data["info"])
        elif (
            kind == "status"
            and data["text"] != "not connected"
            and not (self.state == "Hosting" and data["text"].startswith("waiting"))
        ):
            # "not connected" follows an error that says why; hosting says it is waiting
            self._say(data["text"], error=data["text"].startswith("connection failed"))
        elif kind == "error":
            self._say(data["message"], error=True)
        elif kind == "resumed":  # (normally after "connected"; kept for the table if not)
            self.early_events = [*self.early_events, ev]
        elif kind == "table":
            self._table_seats(data)
        elif kind == "connected" and data.get("players", 2) > 2:
            self.services.start_net_table(self.hub, data)
        elif kind == "connected":
            seat = data.get("seat", 0 if self.hub.role == "host" else 1)
            session = self.services.start_net_game(
                self.hub,
                seat,
                data.get("opponent", ""),
                data.get("route", ""),
                data.get("safety_code", ""),
            )
            early, self.early_events = self.early_events, []
            for e in early:
                session.handle(e)

    def _tables_changed(self) -> None:
        """The LAN list changed (shown by the LAN screen)."""

    def _table_seats(self, data: dict) -> None:
        """Who sits at the table of three or four we joined, until it is full (a guest
        hears only that it waits; the hosting screen shows who has come)."""
        if data.get("you") is None:
            self._say("At the table: waiting for the others to join...")

    def _hosting(self, info) -> None:
        """Our table is open: ``info`` says where (shown by the screen that opened it)."""

    def _for_match(self, role: str, kind: str) -> None:
        """We are about to host or join: our seat, and where the match is kept (its saves)."""
        self.hub.role = role
        self.hub.kind = kind
        self.early_events = []
        if self.hub.service is not None:
            self.hub.service.kind = kind

    def _saved_button(self, p, back: str) -> None:
        p.button(
            "saved",
            "Saved matches",
            lambda: self.request("Saved", back),
            (-0.75, -0.8),
            scale=0.05,
            frameSize=(-4.2, 4.2, -0.55, 1.05),
        )

    def _start_lobby(self, title: str) -> NetService | None:
        """The service for a lobby screen; None (and a screen saying why) if it cannot load."""
        try:
            net = self.hub.open()
        except RuntimeError as exc:
            p = self._lobby(title)
            self._say(str(exc), error=True)
            p.button("back", "Back", lambda: self.request("Menu"), (0, -0.8), scale=0.055)
            self._esc("Menu")
            return None
        self.hub.handler = self._lobby_event
        return net


class LanScreen(LobbyScreen):
    """State ``Lan``: the tables on this network, hosting one, joining by address."""

    name = "Lan"
    lan_waited = False  # the list has been empty a while (it says so)

    def enter(self) -> None:
        self.services.end_game()
        fresh = self.hub.service is None
        net = self._start_lobby("LAN play")
        if net is None:
            return
        if fresh or self.lan_tables is None:  # a new service: its browser starts over
            self.lan_tables = []
        p = self._lobby("LAN play")
        self._name_row(p, 0.66)
        p.text("Tables on this network", 0.54, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        self.table_rows: list = []
        self.tables_empty = p.text(
            "", 0.44, 0.042, x=-1.05, align=TextNode.ALeft, fg=(0.85, 0.85, 0.8, 1)
        )
        y = -0.13
        p.text("Host a table", y, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        groups = ((3, "Host a table of 3", 0.05), (4, "Host a table of 4 (teams)", 0.62))
        for players, label, x in groups:
            p.button(
                f"host{players}",
                label,
                lambda n=players: self._host_lan(n),
                (x, y + 0.012),
                scale=0.04,
                frameSize=(-6.4, 6.4, -0.55, 1.05),
            )
        entry(p, "table", f"{self.hub.config.name}'s table", (-0.6, y - 0.1), width=12)
        p.text("Name", y - 0.1, 0.042, x=-1.1, align=TextNode.ALeft)
        p.button(
            "open",
            self._open_label(),
            self._toggle_open,
            (0.35, y - 0.088),
            scale=0.045,
            frameSize=(-4.6, 4.6, -0.55, 1.05),
        )
        p.button(
            "host",
            "Host",
            self._host_lan,
            (0.92, y - 0.088),
            scale=0.05,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        y2 = y - 0.27
        p.text("Or join by address", y2, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        p.button(
            "join_table",
            "Join a table of 3 or 4",
            lambda: self._join_address(table=True),
            (0.62, y2 + 0.012),
            scale=0.04,
            frameSize=(-6.4, 6.4, -0.55, 1.05),
        )
        p.text("host:port", y2 - 0.1, 0.042, x=-1.1, align=TextNode.ALeft)
        entry(p, "address", "", (-0.75, y2 - 0.1), width=9)
        p.text("code", y2 - 0.1, 0.042, x=-0.22, align=TextNode.ALeft)
        entry(p, "code", "", (-0.05, y2 - 0.1), width=8)
        p.button(
            "join",
            "Join",
            self._join_address,
            (0.92, y2 - 0.088),
            scale=0.05,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        p.text(
            "The code is the one on the host's screen (also for listed tables that need one).",
            y2 - 0.19,
            0.036,
            x=-1.1,
            align=TextNode.ALeft,
            fg=(0.85, 0.85, 0.8, 1),
        )
        p.button("back", "Back", lambda: self.request("Menu"), (0, -0.8), scale=0.055)
        self._saved_button(p, "Lan")
        self._esc("Menu")
        self.lan_waited = False
        if self.hub.config.discovery:
            self.hub.watch(net.browse(self.hub.config.lan_interfaces), "LAN list unavailable")
            self.services.tasks.doMethodLater(
                STILL_LOOKING_S, self._still_looking, "lan-still-looking"
            )
        self._show_tables()

    def _tables_changed(self) -> None:
        if self.state == "Lan":
            self._show_tables()

    def _still_looking(self, task=None) -> None:
        """A few seconds with an empty list: say so (the search goes on)."""
        self.lan_waited = True
        if self.state == "Lan" and self.panel is not None:
            self._show_tables()

    def _open_label(self) -> str:
        return "Open: no code" if self.host_open else "With a join code"

    def _toggle_open(self) -> None:
        self.host_open = not self.host_open
        self.panel.buttons["open"]["text"] = self._open_label()

    def _show_tables(self) -> None:
        p = self.panel
        for w in self.table_rows:
            w.destroy()
            if w in p.widgets:
                p.widgets.remove(w)
        self.table_rows = []
        for key in [k for k in p.buttons if k.startswith("row")]:
            del p.buttons[key]
        tables = self.lan_tables[:MAX_ROWS]
        if not tables:
            if not self.hub.config.discovery:
                text = "LAN discovery is off: join by address below"
            elif self.lan_waited:
                text = (
                    "No tables found yet - still looking. If the host's table does not "
                    "show up, join by address below"
                )
            else:
                text = "Looking for tables..."
            self.tables_empty.setText(text)
        else:
            self.tables_empty.setText("")
        for i, t in enumerate(tables):
            y = 0.44 - i * 0.1
            access = "open" if t.open else "needs a code"
            if t.players > 2:
                access = f"table of {t.players}{' (teams)' if t.players == 4 else ''}, {access}"
            version = "" if t.compatible else f"  -  other version (v{t.version})"
            row = p.text(
                f"{t.name}   {t.address}:{t.port}  -  {access}{version}",
                y + 0.012,
                0.04,
                x=-1.05,
                align=TextNode.ALeft,
                fg=(1, 1, 1, 1) if t.compatible else (0.65, 0.65, 0.6, 1),
            )
            self.table_rows.append(row)
            rules = p.text(
                f"Rules: {rules_label(getattr(t, 'rules', None), getattr(t, 'players', 2))}",
                y - 0.035,
                0.032,
                x=-1.0,
                align=TextNode.ALeft,
                fg=(0.85, 0.9, 1, 1),
            )
            self.table_rows.append(rules)
            b = p.button(
                f"row{i}",
                "Join",
                lambda t=t: self._join_table(t),
                (0.92, y + 0.012),
                scale=0.045,
                frameSize=(-2.4, 2.4, -0.55, 1.05),
            )
            if not t.compatible:
                b["state"] = "disabled"
            self.table_rows.append(b)

    def _join_table(self, table) -> None:
        if not table.compatible:
            self._say(
                f"{table.name} runs another version of the game (protocol "
                f"{table.version}): it cannot be joined",
                error=True,
            )
            return
        code = None
        if not table.open:
            text = self.panel.entries["code"].get().strip()
            if not text:
                self._say(
                    f"{table.name} needs its join code: type it in the code field "
                    "below, then press Join on the table",
                    error=True,
                )
                return
            try:
                code = normalize_code(text)
            except ValueError as exc:
                self._say(str(exc), error=True)
                return
        self._set_name()
        self._for_match("guest", "lan")
        self._say(f"Joining {table.name}...")
        self.hub.watch(self.hub.open().join_table(table, code=code), "could not join")

    def _join_address(self, table: bool = False) -> None:
        """Join by address and code: a two-player match, or (``table``) a table of 3 or 4."""
        p = self.panel
        address = p.entries["address"].get().strip()
        code = p.entries["code"].get().strip()
        try:
            parse_address(address, DEFAULT_PORT)
            normalize_code(code)
        except ValueError as exc:
            self._say(
                f"{exc}"
                if address and code
                else "Type the host's address (host:port) and the join code it shows",
                error=True,
            )
            return
        self._set_name()
        self._for_match("guest", "lan")
        self._say(f"Connecting to {address}...")
        net = self.hub.open()
        joined = net.join_net_table(code, address) if table else net.join_code(code, address)
        self.hub.watch(joined, "could not join")

    def _host_lan(self, players: int = 2) -> None:
        """The host's rules, then a table for two, three or four (two teams)."""
        name = self._set_name()
        table = " ".join(self.panel.entries["table"].get().split())[:40] or f"{name}'s table"
        self.request("HostSetup", "lan", table, players)

    def exit(self) -> None:
        self.services.tasks.remove("lan-still-looking")
        self.table_rows = []
        self._close()


class OnlineScreen(LobbyScreen):
    """State ``Online``: host for a friend, join by code, find an opponent."""

    name = "Online"

    def enter(self) -> None:
        self.services.end_game()
        if self._start_lobby("Online play") is None:
            return
        p = self._lobby("Online play")
        self._name_row(p, 0.66)
        relay = self.hub.config.relay
        p.text("Play a friend: host", 0.5, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        p.text(
            "You get a code to give your opponent (by message or phone).",
            0.41,
            0.04,
            x=-1.1,
            align=TextNode.ALeft,
        )
        p.text(
            f"Relay: {relay}"
            if relay
            else "No service set: you meet through the public magic-wormhole server.",
            0.34,
            0.04,
            x=-1.1,
            align=TextNode.ALeft,
            fg=(0.85, 0.9, 1, 1),
        )
        p.button(
            "host",
            "Host",
            lambda: self.request("HostSetup", "online", ""),
            (0.92, 0.42),
            scale=0.05,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        # friends at one table: three players, or four in two teams (through the relay)
        p.text("Or a table of friends", 0.24, 0.042, x=-1.1, align=TextNode.ALeft)
        groups = ((3, "Host a table of 3", 0.05), (4, "Host a table of 4 (teams)", 0.62))
        for players, label, x in groups:
            b = p.button(
                f"host{players}",
                label,
                lambda n=players: self._host_table(n),
                (x, 0.252),
                scale=0.04,
                frameSize=(-6.4, 6.4, -0.55, 1.05),
            )
            if not relay:
                b["state"] = "disabled"
        p.text("Play a friend: join by code", 0.14, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        p.text("Code", 0.03, 0.042, x=-1.1, align=TextNode.ALeft)
        entry(p, "code", "", (-0.45, 0.03), width=10)  # in line with the address below
        # the code alone finds the host: through the service, or the public rendezvous
        p.text("Address (optional)", -0.08, 0.042, x=-1.1, align=TextNode.ALeft)
        entry(p, "address", "", (-0.45, -0.08), width=10)
        p.text(
            "The host's host:port. With the service the code is enough: the host is tried "
            "directly first, then through the relay."
            if relay
            else "Only for a code like ABCD-EFGHJK. A friend's code like 7-K7QDM3 is enough: "
            "the host is tried directly first, then through the public relay.",
            -0.18,
            0.036,
            x=-1.1,
            align=TextNode.ALeft,
            fg=(0.85, 0.85, 0.8, 1),
        ).setWordwrap(62)
        p.button(
            "join",
            "Join",
            self._join_online,
            (0.92, 0.04),
            scale=0.05,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        p.button(
            "join_table",
            "Join a table of 3 or 4",
            lambda: self._join_online(table=True),
            (0.62, -0.068),
            scale=0.04,
            frameSize=(-6.4, 6.4, -0.55, 1.05),
        )
        p.text("Find an opponent", -0.34, 0.05, x=-1.1, align=TextNode.ALeft, fg=GOLD)
        p.text(
            "Public tables and quick match on the online service"
            if relay
            else "Needs an online service (Settings: Online service)",
            -0.43,
            0.04,
            x=-1.1,
            align=TextNode.ALeft,
        )
        p.button(
            "find",
            "Find",
            lambda: self.request("Tables"),
            (0.92, -0.36),
            scale=0.05,
            frameSize=(-2.4, 2.4, -0.55, 1.05),
        )
        p.button("back", "Back", lambda: self.request("Menu"), (0, -0.8), scale=0.055)
        self._saved_button(p, "Online")
        self._esc("Menu")

    def _host_table(self, players: int) -> None:
        """The rules, then an online table of three or four (joined with its code)."""
        name = self._set_name()
        self.request("HostSetup", "online", f"{name}'s table", players)

    def _join_online(self, table: bool = False) -> None:
        """Join a friend's match (or, ``table``, a table of three or four) by its code."""
        p = self.panel
        code = p.entries["code"].get().strip()
        address = p.entries["address"].get().strip() or None
        # a friend's code (7-K7QDM3, hosted with no service) is met at the public rendezvous
        friend = not (table or address) and (is_friend_code(code) or not self.hub.config.relay)
        try:
            if friend and not is_friend_code(code):
                normalize_code(code)  # a host's own code: it needs the address, say so
                self._say(f"{code} needs the host's address (host:port) too", error=True)
                return
            code = normalize_friend_code(code) if friend else normalize_code(code)
            if address:
                parse_address(address, DEFAULT_PORT)
        except ValueError as exc:
            self._say(str(exc), error=True)
            return
        if table and address is None and not self.hub.config.relay:
            self._say("No relay is set up: type the host's address (host:port) too", error=True)
            return
        self._set_name()
        self._for_match("guest", "online")
        self._say("Connecting...")
        net = self.hub.open()
        joined = (
            net.join_net_table(code, address or "", online=True)
            if table
            else net.join_code(code, address)
        )
        self.hub.watch(joined, "could not join")


class HostingScreen(LobbyScreen):
    """State ``Hosting``: our table is open (or a saved match hosted again), waiting."""

    name = "Hosting"
    saved_match = None  # the saved match being hosted again
    players = 2  # 3 or 4: a table of three, or of four in two teams
    seated = None  # that table's line of who has joined

    def enter(self, mode: str = "lan", table: str = "", saved=None, players: int = 2) -> None:
        """Open a table (``mode`` lan / online) or, with ``saved`` (a ``SavedMatch`` of ours
        as host), host that match again for the same opponent; ``players`` 3 or 4: a LAN
        table of three, or four in two teams."""
        self.services.end_game()
        net = self._start_lobby("Hosting")
        if net is None:
            return
        self.players = players
        if saved is not None:
            self._host_saved(net, saved)
            return
        if players > 2:
            self._host_table(net, table, players, mode)
            return
        c = self.hub.config
        lan = mode == "lan" and c.discovery
        open_table = mode == "lan" and self.host_open and lan
        self.hosting = (mode, lan, open_table)
        rules = self.services.setup.rules()
        title = f"Hosting {table}" if table else "Hosting an online game"
        p = self._lobby(title)
        p.text(f"Rules: {rules_label(rules)}", 0.56, 0.042, fg=(0.9, 0.92, 0.85, 1))
        self.host_lines = self._host_lines(p)
        self.waiting = p.text("", -0.42, 0.055, fg=(0.85, 1, 0.85, 1))
        p.button(
            "back",
            "Cancel",
            lambda: self.request("Lan" if mode == "lan" else "Online"),
            (0, -0.8),
            scale=0.055,
        )
        self._esc("Lan" if mode == "lan" else "Online")
        self._for_match("host", mode)
        request = dict(
            rules=rules,
            table_name=table or f"{c.name}'s table",
            lan=lan,
            open_table=open_table,
            listen=c.listen,
            upnp=mode == "online" and c.upnp,
            lan_interfaces=c.lan_interfaces,
            friend=mode == "online" and not c.relay,  # no service: the public rendezvous
        )
        fut = net.host(port=c.port, **request)
        if c.port:  # the usual port is taken (another game on this machine): any free one
            fut.add_done_callback(lambda f: self._host_elsewhere(f, net, request))
        else:
            self.hub.watch(fut, "could not open the table")

    def _host_table(self, net: NetService, table: str, players: int, mode: str = "lan") -> None:
        """A table of three or four: on the LAN listed (open) when discovery is on, else
        joined by address and code; online it also waits at the service's relay, joined
        with the code alone. Who has joined shows as they come."""
        c = self.hub.config
        online = mode == "online"
        lan = c.discovery and not online
        self.hosting = (mode, lan, lan and self.host_open)
        rules = self.services.setup.rules()
        kind = "three players" if players == 3 else "four players in two teams"
        p = self._lobby(f"Hosting {table}: {kind}")
        p.text(f"Rules: {rules_label(rules, players)}", 0.56, 0.042, fg=(0.9, 0.92, 0.85, 1))
        self.host_lines = self._host_lines(p)
        self.waiting = p.text("", -0.42, 0.055, fg=(0.85, 1, 0.85, 1))
        self.seated = p.text("", -0.52, 0.045, fg=(1, 1, 0.85, 1))
        back = "Online" if online else "Lan"
        p.button("back", "Cancel", lambda: self.request(back), (0, -0.8), scale=0.055)
        self._esc(back)
        self._for_match("host", mode)
        request = dict(
            rules=rules,
            table_name=table or f"{c.name}'s table",
            lan=lan,
            open_table=lan and self.host_open,
            listen=c.listen,
            lan_interfaces=c.lan_interfaces,
            online=online,
        )
        fut = net.host_table(players, port=c.port, **request)
        if c.port:
            fut.add_done_callback(
                lambda f: self._host_elsewhere(
                    f, net, {}, lambda: net.host_table(players, port=0, **request)
                )
            )
        else:
            self.hub.watch(fut, "could not open the table")

    def _table_seats(self, data: dict) -> None:
        if self.state != "Hosting" or getattr(self, "seated", None) is None:
            return
        joined = data.get("joined", [])
        left = data["players"] - 1 - len(joined)
        names = ", ".join(["You"] + [f"Player {p + 1}" for p in joined])
        more = f"waiting for {left} more..." if left else "everyone is here: dealing..."
        self.seated.setText(f"At the table: {names}  -  {more}")
        if self.waiting.getText().startswith("Waiting for"):  # (the code is shown by now)
            self.waiting.setText(f"Waiting for {left} player{'s' if left != 1 else ''}...")

    def _host_saved(self, net: NetService, saved) -> None:
        """Host a saved match again: same identity and code, so only its opponent gets in."""
        c = self.hub.config
        self.hosting = ("resume", False, False)
        p = self._lobby(f"Resuming the match with {saved.opponent or 'your opponent'}")
        p.text(
            f"Rules: {rules_label(saved.rules)}   -   score {saved.scores[0]} - {saved.scores[1]}",
            0.56,
            0.042,
            fg=(0.9, 0.92, 0.85, 1),
        )
        self.host_lines = self._host_lines(p)
        self.waiting = p.text("", -0.42, 0.055, fg=(0.85, 1, 0.85, 1))
        self.saved_match = saved
        p.button(
            "back", "Cancel", lambda: self.request("Saved", self.saved_back), (0, -0.8), scale=0.055
        )
        self._esc("Saved")
        self._for_match("host", saved.kind or self.hub.kind)
        fut = net.resume(saved.path, listen=c.listen, port=c.port, lan_interfaces=c.lan_interfaces)
        if c.port:
            fut.add_done_callback(
                lambda f: self._host_elsewhere(
                    f,
                    net,
                    {},
                    lambda: net.resume(
                        saved.path, listen=c.listen, port=0, lan_interfaces=c.lan_interfaces
                    ),
                )
            )
        else:
            self.hub.watch(fut, "could not resume the match")

    @staticmethod
    def _host_lines(p) -> list:
        """The hosting screen's six lines (code, port, addresses...): until the table is
        open, the first says so and the others are empty."""
        return [
            p.text(
                "Opening the table..." if i == 0 else "",
                0.42 - i * 0.09,
                0.048 if i else 0.07,
                fg=(1, 1, 0.85, 1) if i else GOLD,
            )
            for i in range(6)
        ]

    def _host_elsewhere(self, fut, net: NetService, request: dict, again=None) -> None:
        """(On the network thread.) Host on a free port if the configured one was busy."""
        exc = fut.exception()
        if isinstance(exc, OSError) and self.hub.service is net:
            self.hub.tell(
                net_event("status", text=f"port busy ({exc.strerror}): hosting on a free port")
            )
            self.hub.watch(
                again() if again else net.host(port=0, **request), "could not open the table"
            )
        elif exc is not None:
            self.hub.tell(net_event("error", message=f"could not open the table: {exc}"))

    def _hosting(self, info) -> None:
        if self.state == "Hosting":
            self._show_hosting(info)

    def _show_hosting(self, info) -> None:
        mode, lan, open_table = self.hosting
        c = self.hub.config
        lines = []
        if mode == "resume":
            who = self.saved_match.opponent or "your opponent"
            lines = [
                f"Join code:  {info.code}   (the same as before)",
                f"Port {info.port}   -   addresses: {', '.join(info.addresses)}",
                f"{who} chooses Resume on this match in their Saved matches list;",
                "only that player, with that saved match, can join this table.",
            ]
            for widget, text in zip(self.host_lines, lines + [""] * len(self.host_lines)):
                widget.setText(text)
            self.waiting.setText(f"Waiting for {who} to resume...")
            return
        if open_table:
            lines.append("Open table: players on this network see it in their list")
        else:
            lines.append(f"Join code:  {info.code}")
        lines.append(f"Port {info.port}   -   addresses: {', '.join(info.addresses)}")
        if mode == "online" and getattr(self, "players", 2) > 2:
            lines += [
                "Your friends type only the code (Online: Join a table): no address, no port",
                f"They reach this table through the relay at {c.relay}",
            ]
        elif mode == "online":
            lines += self._online_host_lines(info, c.relay)
        elif open_table:
            lines.append(
                "Players join it from their list; to be joined by host:port, "
                'choose "With a join code" instead'
            )
        elif lan:
            lines.append("Listed on this network; joining needs the code")
        else:
            lines.append("Not listed (LAN discovery is off): give the code and address:port")
        for widget, text in zip(self.host_lines, lines + [""] * len(self.host_lines)):
            widget.setText(text)
        others = getattr(self, "players", 2) - 1
        self.waiting.setText(
            "Waiting for an opponent..." if others == 1 else f"Waiting for {others} players..."
        )

    @staticmethod
    def _online_host_lines(info, relay: str | None) -> list[str]:
        """What a host online is told about being reached: with an online service, the
        friend needs only the code (tried directly first, then relayed), so no port needs
        forwarding and a router that would not open one is no news (the address the service
        sees us at is shown once it is known, not as something to pass on); without one, the
        friend needs this machine's address and port. The router's own words go to the log,
        not on the screen (each line fits the window)."""
        if relay or is_friend_code(info.code):
            forwarded = f"  -  your router forwards port {info.port}" if info.upnp_ok else ""
            via = f"the relay at {relay}" if relay else "the public magic-wormhole relay"
            lines = [
                "Your friend types only the code: no address, no port to forward",
                f"Direct first, else through {via}{forwarded}",
            ]
            if info.public_ip:  # the service said where it sees us (for the curious)
                lines.append(
                    f"Your address on the internet: {info.public_ip} (port {info.port}),"
                    " as the service sees it"
                )
            return lines
        if info.upnp_ok:
            router = f"Your router forwards port {info.port} to this machine"
        elif info.upnp == "not tried":
            router = f"UPnP off: forward port {info.port} on your router, or set an online service"
        else:
            router = (
                f"Your router did not open port {info.port}: forward it, or set an online service"
            )
        return [router, "No relay: your opponent types the code and your address:port"]

    def exit(self) -> None:
        self.host_lines = []
        self.seated = None
        self.saved_match = None
        self._close()
        if self.services.session is None:  # cancelled before anyone joined: close the table
            self.hub.close()


__all__ = ["STILL_LOOKING_S", "HostingScreen", "LanScreen", "Lobby", "LobbyScreen", "OnlineScreen"]
