"""The direct addresses a host publishes at the service, and a guest tries before the relay.

Both sides treat them as untrusted text: the node checks what a host sends, the guest checks
what the node answers (a node or its directory may be modified). An address is an IP literal
(no names: nothing to resolve) and a port 1..65535; an answer holds at most
``MAX_CANDIDATES``. A bad entry is dropped with a log line, never raised (docs/net.md,
*Direct first*).
"""

from __future__ import annotations

import ipaddress
import logging

from .constants import MAX_CANDIDATES

log = logging.getLogger(__name__)
ENTRY_LIMIT = 47  # characters of one entry: "[" + the longest IPv6 literal + "]:65535"


def parse_candidate(text: str) -> tuple[str, int]:
    """``ip:port`` or ``[ipv6]:port`` as ``(ip, port)``; ValueError says what is wrong."""
    if len(text) > ENTRY_LIMIT:
        raise ValueError("too long for an address")
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
    else:
        host, sep, port = text.rpartition(":")
        if ":" in host:
            raise ValueError("an IPv6 address goes in brackets")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("no port number 1-65535")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise ValueError("not an IP address") from None
    if ip.is_unspecified or ip.is_multicast:
        raise ValueError("not an address a host listens on")
    return str(ip), int(port)


def seen_ip(text: str) -> str:
    """The address a node says it saw us come from (``SEEN <ip>``), as a canonical IP
    literal; '' for anything else (a node may be modified: its text is never shown as is)."""
    if text == "?":  # the node could not tell
        return ""
    try:
        ip = ipaddress.ip_address(text[:ENTRY_LIMIT])
    except ValueError:
        log.warning("ignored the address a node says it saw: %r", text[:60])
        return ""
    return "" if ip.is_unspecified or ip.is_multicast else str(ip)


def format_candidate(ip: str, port: int) -> str:
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


def parse_candidates(words: list[str], source: str) -> list[tuple[str, int]]:
    """The valid, distinct addresses among ``words`` (from ``source``, for the log); more
    than ``MAX_CANDIDATES`` words is a malformed answer: none of it is used."""
    if len(words) > MAX_CANDIDATES:
        log.warning(
            "ignored %s: %d direct addresses (at most %d)", source, len(words), MAX_CANDIDATES
        )
        return []
    out: list[tuple[str, int]] = []
    for word in words:
        try:
            candidate = parse_candidate(word)
        except ValueError as exc:
            log.warning("ignored a direct address from %s: %r (%s)", source, word[:60], exc)
            continue
        if candidate not in out:
            out.append(candidate)
    return out


def observed_ip(writer) -> str:
    """The address a stream's peer connected from, as the other side of its NAT sees it
    ('' when unknown); an IPv4-mapped IPv6 address is given as IPv4."""
    peer = writer.get_extra_info("peername")
    if not (isinstance(peer, tuple) and peer):
        return ""
    try:
        ip = ipaddress.ip_address(str(peer[0]).split("%")[0])
    except ValueError:
        return ""
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped or ip)


def published_by(observed: str, port: int, extra: list[str], source: str) -> list[str]:
    """What a node publishes for a host: the address it saw the host come from with the
    host's listening port, then the host's own valid extra addresses (its UPnP mapping)."""
    out = [format_candidate(observed, port)] if observed else []
    for ip, p in parse_candidates(extra, source):
        text = format_candidate(ip, p)
        if text not in out:
            out.append(text)
    return out[:MAX_CANDIDATES]
