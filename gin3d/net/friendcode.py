"""Meeting a friend by code with no online service of our own: the codes, and the
encrypted exchange through the public mailbox server (docs/net.md, *A friend by code*).

A friend code is ``<nameplate>-<secret>``, e.g. ``7-K7QDM3``: the nameplate is a number
the mailbox server hands out (it sees it), the secret six characters of our code alphabet
(30 bits; it never leaves the two games). Both games run SPAKE2 on the whole code through
the mailbox, so the server (or anyone who claims the nameplate) gets at most one online
guess, and everything after that is sealed with keys derived from the SPAKE2 key: the
guest's ``hello`` (which proves to the host it knows the code), the host's direct
addresses, and the transit relay token. The game's own TLS and join-code handshake then
run over whatever connection that leads to, unchanged.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.exceptions import CryptoError
from nacl.secret import SecretBox

from .candidates import format_candidate, parse_candidate
from .mailbox import MailboxClient, RendezvousError
from .transport import CODE_ALPHABET, normalize_code

SECRET_LENGTH = 6
_CODE = re.compile(rf"([0-9]{{1,7}})-([{CODE_ALPHABET}]{{{SECRET_LENGTH}}})\Z")
MAX_HINTS = 8  # direct addresses a host sends
WRONG_CODE = "wrong join code (or that game has gone)"
HOST_IDS = {"idA": b"gin3d-friend-host", "idB": b"gin3d-friend-guest"}


def make_secret() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(SECRET_LENGTH))


def normalize_friend_code(text: str) -> str:
    """``7-K7QDM3`` from what a player typed (spaces, case and extra dashes forgiven)."""
    if not isinstance(text, str):
        raise ValueError("a friend code is text like 7-K7QDM3")
    raw = "".join(text.split()).upper()
    nameplate, _, secret = raw.partition("-")
    code = f"{nameplate}-{secret.replace('-', '')}"
    if not _CODE.match(code):
        raise ValueError(f"{text!r} is not a friend code (a number, a dash, six letters/digits)")
    return code


def is_friend_code(text: str) -> bool:
    try:
        normalize_friend_code(text)
    except ValueError:
        return False
    return True


def normalize_any_code(text: str) -> str:
    """A friend's code or a host's own join code, whichever ``text`` is (a friend's code
    also opens its host by address: a saved friend's game comes back that way)."""
    return normalize_friend_code(text) if is_friend_code(text) else normalize_code(text)


def _subkey(key: bytes, purpose: str) -> bytes:
    return HKDF(hashes.SHA256(), 32, None, f"gin3d-friend|{purpose}".encode()).derive(key)


def seal(key: bytes, purpose: str, data: dict) -> bytes:
    return bytes(SecretBox(_subkey(key, purpose)).encrypt(json.dumps(data).encode()))


def unseal(key: bytes, purpose: str, body: bytes) -> dict:
    """The sealed dict, or RendezvousError(WRONG_CODE): a different key (a wrong code, or
    a forgery) opens nothing."""
    try:
        data = json.loads(SecretBox(_subkey(key, purpose)).decrypt(body))
    except (CryptoError, ValueError, TypeError):
        raise RendezvousError(WRONG_CODE) from None
    if not isinstance(data, dict):
        raise RendezvousError(WRONG_CODE)
    return data


@dataclass
class Meeting:
    """What two games agreed through the mailbox: a key and the host's direct addresses."""

    key: bytes
    hints: list[tuple[str, int]]

    @property
    def transit_token(self) -> str:
        return _subkey(self.key, "transit token").hex()


def _pake(code: str, role: str):
    from spake2 import SPAKE2_A, SPAKE2_B

    kind = SPAKE2_A if role == "host" else SPAKE2_B
    return kind(code.encode(), **HOST_IDS)


def _finish(pake, theirs: bytes) -> bytes:
    try:
        return pake.finish(theirs)
    except Exception:  # spake2 raises several kinds for a bad message
        raise RendezvousError(WRONG_CODE) from None


async def host_meeting(
    client: MailboxClient, code: str, hints: list[str], wait: float | None
) -> Meeting:
    """As the host, in the mailbox ``client`` has open: SPAKE2, check the guest's hello,
    send our direct addresses. A wrong code raises RendezvousError(WRONG_CODE) after
    telling the guest so (in the clear: it holds no secret)."""
    pake = _pake(code, "host")
    await client.add("pake", pake.start())
    theirs = await client.get("pake", wait if wait is not None else 10**9)
    try:
        key = _finish(pake, theirs)
        unseal(key, "guest hello", await client.get("hello", 30))
    except RendezvousError:
        await client.add("error", WRONG_CODE.encode())
        raise
    await client.add("hints", seal(key, "host hints", {"direct": hints[:MAX_HINTS]}))
    return Meeting(key, [])


async def guest_meeting(client: MailboxClient, code: str, wait: float) -> Meeting:
    """As the guest, in the mailbox ``client`` has open: SPAKE2, prove the code, read the
    host's direct addresses (each checked: a bad one is dropped)."""
    pake = _pake(code, "guest")
    await client.add("pake", pake.start())
    try:
        theirs = await client.get("pake", wait)
    except RendezvousError as exc:
        if "in time" in str(exc):
            raise RendezvousError("no game is waiting with that code") from None
        raise
    key = _finish(pake, theirs)
    await client.add("hello", seal(key, "guest hello", {"v": 1}))
    told = unseal(key, "host hints", await client.get("hints", 30)).get("direct")
    hints = []
    for entry in told if isinstance(told, list) else []:
        try:
            hints.append(parse_candidate(entry))
        except (ValueError, TypeError):
            continue
    return Meeting(key, hints[:MAX_HINTS])


def direct_hints(port: int, seen: str = "") -> list[str]:
    """Where a guest may reach us directly: the address the mailbox server saw us come
    from (our router's, when it forwards the port), this machine's IPv4 addresses, and
    loopback (the other game on this very machine), each ``ip:port``."""
    import ifaddr

    ips = [seen] if seen else []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254.")):
                ips.append(ip.ip)
    ips.append("127.0.0.1")
    out: list[str] = []
    for ip in ips:
        entry = format_candidate(ip, port)
        if entry not in out:
            out.append(entry)
    return out[:MAX_HINTS]
