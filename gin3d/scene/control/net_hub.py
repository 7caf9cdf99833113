"""The app's one network service and the frame task that drains its events.

``NetHub`` owns the app's one ``NetService`` and the Panda3D task that drains its events once
a frame (the frame never waits on the network) and hands them to whoever listens now: a lobby
screen (``gin3d.app.screens.lobby``), then the ``NetSession`` on the table. ``NetConfig`` is
what the command line and the settings give it (name, relay, port...).
"""

from __future__ import annotations

import getpass
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...net.constants import DEFAULT_PORT
from ...players import GreedyPlayer

if TYPE_CHECKING:  # the network stack (TLS, crypto) loads only when a network screen opens
    from ...net.api import NetEvent, NetService
    from ...net.session import Timing


def net_event(kind: str, **data) -> NetEvent:
    from ...net.api import NetEvent

    return NetEvent(kind, data)


def rules_label(rules, players: int = 2) -> str:
    from ...net.offer import rules_label

    return rules_label(rules, players)


def normalize_code(text: str) -> str:
    from ...net.transport import normalize_code

    return normalize_code(text)


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    from ...net.transport import parse_address

    return parse_address(text, default_port)


def default_name() -> str:
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        name = ""
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:20]
    return name.title() if name else "Player"


@dataclass
class NetConfig:
    """How the app uses the network; tests set loopback, no discovery and no UPnP."""

    name: str = ""
    relay: str | None = None  # "host:port" of a gin3d-relay, for online play
    listen: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    discovery: bool = True  # LAN list and LAN advertising (mDNS); off: address/code only
    lan_interfaces: list[str] | None = None
    upnp: bool = True  # ask the router for a port mapping when hosting online
    timing: Timing | None = None  # gin3d.net.session.Timing
    evidence_dir: str | None = None
    save_dir: str | None = None  # saved matches (default: "net" in the user's data folder)

    def __post_init__(self) -> None:
        self.name = self.name or default_name()
        if self.save_dir is None:
            from ...paths import data_dir

            self.save_dir = str(data_dir() / "net")


class NetHub:
    """The app's NetService (opened on demand) and its once-a-frame poll task."""

    def __init__(self, base, config: NetConfig) -> None:
        self.base = base
        self.config = config
        self.service: NetService | None = None
        self.handler: Callable[[NetEvent], None] | None = None
        self.local: queue.Queue[NetEvent] = queue.Queue()  # failures of our own requests
        self.role: str | None = None  # "host" or "guest" once we asked for one
        self.kind = "lan"  # "lan" or "online": which screen the match came from
        # called once a frame's events are handled (the window draws what they changed)
        self.after_events: Callable[[], None] = lambda: None

    def open(self) -> NetService:
        """The service, started on first use; RuntimeError when network play cannot load."""
        if self.service is None:
            try:
                from ...net.api import NetService
            except ImportError as exc:  # e.g. a build without the crypto libraries
                raise RuntimeError(f"network play is not available here: {exc}") from None
            c = self.config
            if c.save_dir:
                from pathlib import Path

                try:
                    Path(c.save_dir).mkdir(parents=True, exist_ok=True)
                except OSError:
                    pass  # the match still plays; only its save cannot be written
            self.service = NetService(
                c.name,
                relay=c.relay,
                timing=c.timing,
                evidence_dir=c.evidence_dir,
                save_dir=c.save_dir,
                confirm_rules=True,
                stand_in=GreedyPlayer,
            ).start()
            self.base.taskMgr.add(self._poll, "net-poll")
        return self.service

    def tell(self, ev: NetEvent) -> None:
        """Queue an event of our own (from any thread) after what the service said so far:
        a failure reported from the network thread must not be overtaken by the
        "connecting..." the service emitted before it."""
        service = self.service
        (service.events if service is not None else self.local).put(ev)

    def watch(self, fut, what: str) -> None:
        """Report a failed request (a Future of the service) as an ``error`` event."""

        def done(f) -> None:
            exc = f.exception()
            if exc is not None:
                self.tell(net_event("error", message=f"{what}: {exc}"))

        fut.add_done_callback(done)

    def _poll(self, task):
        events = []
        while not self.local.empty():
            events.append(self.local.get_nowait())
        if self.service is not None:
            events += self.service.poll()
        for ev in events:
            if self.handler is not None:
                self.handler(ev)
        if events:
            self.after_events()
        return task.cont

    def close(self, wait: bool = False) -> None:
        """Leave any match and stop the service (in the background unless ``wait``)."""
        service, self.service = self.service, None
        self.handler = None
        self.role = None
        self.base.taskMgr.remove("net-poll")
        if service is None:
            return
        if wait:
            service.stop()
        else:
            threading.Thread(target=service.stop, name="gin3d-net-stop", daemon=True).start()


__all__ = ["NetConfig", "NetHub", "default_name", "net_event"]
