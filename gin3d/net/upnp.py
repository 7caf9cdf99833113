"""Asking the home router to forward the host's port (UPnP IGD via ``miniupnpc``), optional.

Hosting across the internet works best when the host's port is reachable; many routers open
one on request. ``map_port`` tries that and always returns a ``PortMapping`` whose message can
be shown as is: mapped, no router answered, or UPnP not available (package missing). The
relay is the fallback whenever this fails. Calls block (discovery waits for the router), so
the network thread runs them with ``asyncio.to_thread``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PortMapping:
    ok: bool
    message: str
    external_ip: str | None = None
    external_port: int | None = None
    internal_port: int | None = None


NOT_AVAILABLE = (
    "UPnP not available (the miniupnpc package is not installed): forward the "
    "port on your router by hand, or play through the relay"
)


def _module():
    try:
        import miniupnpc
    except ImportError:
        return None
    return miniupnpc


def available() -> bool:
    return _module() is not None


def map_port(port: int, description: str = "gin3d", discover_ms: int = 2000) -> PortMapping:
    """Ask the router for TCP ``port`` -> this machine's ``port``; never raises."""
    if not 0 < port < 65536:
        return PortMapping(False, f"{port} is not a port number")
    mod = _module()
    if mod is None:
        return PortMapping(False, NOT_AVAILABLE)
    step = "looking for the router"
    try:
        upnp = mod.UPnP()
        upnp.discoverdelay = discover_ms
        if upnp.discover() == 0:
            return PortMapping(
                False, "no UPnP router answered: use the relay or forward the port by hand"
            )
        step = "choosing the router's internet gateway"
        upnp.selectigd()
        step = "asking for the port mapping"
        upnp.addportmapping(port, "TCP", upnp.lanaddr, port, description, "")
        step = "asking the router for its public address"
        external = upnp.externalipaddress()
        return PortMapping(
            True, f"router forwards port {port} to this machine", external, port, port
        )
    except Exception as exc:  # miniupnpc raises bare Exceptions with the router's words
        return PortMapping(False, failure_message(step, str(exc), port))


def failure_message(step: str, reason: str, port: int) -> str:
    """What went wrong, for the hosting screen. miniupnpc sometimes fails with the text of
    error 0 ("Success"), which says nothing: then only the step that failed is named."""
    reason = reason.strip()
    if not reason or reason.lower() in ("success", "0", "no error"):
        return (
            f"UPnP failed while {step} (the router gave no reason): forward port "
            f"{port} on your router by hand, or use the relay"
        )
    return f"UPnP failed while {step}: {reason}; forward port {port} by hand, or use the relay"


def unmap_port(mapping: PortMapping) -> None:
    """Remove a mapping made by ``map_port`` (quietly: the router may be gone)."""
    mod = _module()
    if mod is None or not mapping.ok or mapping.external_port is None:
        return
    try:
        upnp = mod.UPnP()
        upnp.discoverdelay = 1000
        if upnp.discover():
            upnp.selectigd()
            upnp.deleteportmapping(mapping.external_port, "TCP")
    except Exception:  # best effort on the way out
        pass
