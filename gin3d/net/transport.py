"""Connections between peers: TLS with throwaway certificates, authenticated by the join code.

Every connection starts as plain TCP (straight to the host, or through the relay), is
upgraded to TLS 1.3 (the host is the TLS server; its certificate is self-signed and made
fresh for each run), and then runs the gin3d handshake inside TLS:

1. ``hello``: protocol version (an incompatible one gets an explicit error), role, and the
   guest's own certificate;
2. SPAKE2 on the join code (a wrong guess costs the attacker one connection, no offline
   search);
3. ``confirm``: each side MACs, with the SPAKE2 key, both certificate fingerprints as *it*
   sees them, and the guest signs that binding with its certificate key. A man in the middle
   has to show each side its own certificate, so the fingerprints differ and the MACs fail;
   a wrong code fails the same way.

The result is a ``StreamLink`` plus the peer's fingerprint, which the game remembers: a
reconnect must show the same fingerprint.
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import functools
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import ssl
import tempfile
from dataclasses import dataclass, field

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from .constants import EXAMPLE_ADDRESS
from .links import StreamLink
from .protocol import PROTOCOL_VERSION, ProtocolError

CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I
HANDSHAKE_TIMEOUT = 15.0


class HandshakeError(ConnectionError):
    """The peer could not be authenticated; the message says why, for the player to read."""


# -- join codes ----------------------------------------------------------------------------
def make_code() -> str:
    """A fresh join code ``ABCD-EFGHJK``: the first 4 characters name the relay room, all 10
    are the password (the relay sees a hash of the room part and, to pair, ``room_claim``)."""
    chars = "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))
    return f"{chars[:4]}-{chars[4:]}"


def normalize_code(text: str) -> str:
    """Upper-case, drop spaces and dashes, check the alphabet and length."""
    if not isinstance(text, str):
        raise ValueError("a join code is text like ABCD-EFGHJK")
    raw = "".join(text.split()).replace("-", "").upper()
    if len(raw) != 10 or any(ch not in CODE_ALPHABET for ch in raw):
        raise ValueError(f"{text!r} is not a join code (10 letters/digits like ABCD-EFGHJK)")
    return f"{raw[:4]}-{raw[4:]}"


def room_id(code: str) -> str:
    """What the relay pairs peers by: a hash of the code's room part only."""
    return hashlib.sha256(b"gin3d-room|" + normalize_code(code)[:4].encode()).hexdigest()


def room_claim(code: str) -> str:
    """What a guest shows the relay to claim its table: proof of the whole code, through a
    memory-hard KDF (scrypt, 16 MiB), so neither the relay nor a listener can turn it back
    into the code within a match's lifetime (docs/net.md, *The relay*)."""
    raw = normalize_code(code).encode()
    return hashlib.scrypt(raw, salt=b"gin3d-relay-claim/2", n=2**14, r=8, p=1, dklen=32).hex()


def open_table_code(fingerprint: str) -> str:
    """The password of an open LAN table: public (from the advertised fingerprint)."""
    return "open:" + fingerprint


# -- identity ------------------------------------------------------------------------------
def fingerprint(cert_der: bytes) -> str:
    return hashlib.sha256(cert_der).hexdigest()


@dataclass
class Identity:
    """A throwaway key and self-signed certificate, kept for one match (reconnects reuse it)."""

    key: ec.EllipticCurvePrivateKey
    cert_der: bytes
    tls_server: ssl.SSLContext | None = field(default=None, repr=False, compare=False)

    @classmethod
    def generate(cls, name: str = "gin3d player") -> Identity:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name[:60] or "gin3d")])
        now = datetime.datetime.now(datetime.timezone.utc)
        cert = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=2))
            .sign(key, hashes.SHA256())
        )
        return cls(key, cert.public_bytes(serialization.Encoding.DER))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.cert_der)

    def to_dict(self) -> dict:
        """For a save file (so a resumed match keeps its match id and pinned fingerprints)."""
        key = self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        return {"key": key.decode(), "cert": _b64(self.cert_der)}

    @classmethod
    def from_dict(cls, data: dict) -> Identity:
        key = serialization.load_pem_private_key(data["key"].encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("the saved identity is not an EC key")
        der = _unb64(data["cert"])
        cert = x509.load_der_x509_certificate(der)
        if cert.public_key().public_numbers() != key.public_key().public_numbers():
            raise ValueError("the saved certificate does not belong to the saved key")
        return cls(key, der)

    def server_context(self) -> ssl.SSLContext:
        """The TLS server context of this identity, built once: building one costs ~8 ms of
        CPU and ~300 KB, far too much to do for every stranger's connection."""
        if self.tls_server is None:
            self.tls_server = make_server_context(self)
        return self.tls_server

    @staticmethod
    def client_context() -> ssl.SSLContext:
        """The host's certificate is self-signed: it is checked by the handshake, not by a CA."""
        return _client_context()


def make_server_context(identity: Identity) -> ssl.SSLContext:
    """A TLS 1.3 server context with the identity's key and certificate."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    key_pem = identity.key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    cert_pem = x509.load_der_x509_certificate(identity.cert_der).public_bytes(
        serialization.Encoding.PEM
    )
    # ssl only loads keys from files: a private temp dir, removed at once
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "id.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key_pem + cert_pem)
        ctx.load_cert_chain(path)
    return ctx


@functools.cache
def _client_context() -> ssl.SSLContext:
    """One client context for every connection (it holds no identity)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


# -- TLS on an open stream -----------------------------------------------------------------
class _TlsStreamProtocol(asyncio.StreamReaderProtocol):
    """Feeds the stream reader from the TLS layer. It holds the plain TCP writer underneath:
    from Python 3.12 a StreamWriter closes its transport when it is garbage collected, and
    that transport now carries the TLS connection."""

    def __init__(self, reader: asyncio.StreamReader, plain: asyncio.StreamWriter) -> None:
        super().__init__(reader)
        self.plain = plain


async def start_tls(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    ctx: ssl.SSLContext,
    server_side: bool,
    timeout: float = HANDSHAKE_TIMEOUT,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Upgrade an open TCP stream (direct or relayed) to TLS, as server or client; returns the
    reader and writer of the TLS stream (the plain ones must not be used after this).

    Public asyncio API only: ``loop.start_tls`` gives the TLS transport and a new reader,
    protocol and writer are made over it. (``StreamWriter.start_tls``, 3.11+, cannot be the
    TLS server on a connection we opened, which the host is through the relay.)"""
    loop = asyncio.get_running_loop()
    await writer.drain()
    tls_reader = asyncio.StreamReader()
    protocol = _TlsStreamProtocol(tls_reader, writer)
    transport = await loop.start_tls(
        writer.transport,
        protocol,
        ctx,
        server_side=server_side,
        server_hostname=None if server_side else "gin3d-peer",
        ssl_handshake_timeout=timeout,
    )
    if transport is None:  # the socket was closed under the handshake (3.11 returns None)
        raise ConnectionError("the connection closed during the TLS handshake")
    protocol.connection_made(transport)  # loop.start_tls does not call it
    return tls_reader, asyncio.StreamWriter(transport, protocol, tls_reader, loop)


@dataclass
class Peer:
    """An authenticated connection: the link and who is on the other end."""

    link: StreamLink
    role: str  # our role: host or guest
    peer_fingerprint: str
    match_id: str  # hash of both fingerprints: the same on both sides, stable across reconnects
    name: str = ""

    @property
    def safety_code(self) -> str:
        """Six digits both screens can show; equal on both sides unless someone is in between
        (what protects an open LAN table, whose password is public)."""
        return safety_code(self.match_id)


def safety_code(match_id: str) -> str:
    digits = f"{int(match_id[:16], 16) % 10**6:06d}"
    return f"{digits[:3]} {digits[3:]}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: str) -> bytes:
    return base64.b64decode(text, validate=True)


async def handshake(
    link: StreamLink,
    role: str,
    identity: Identity,
    code: str,
    host_fingerprint: str | None = None,
    expect_peer: str | None = None,
    name: str = "",
    version: int = PROTOCOL_VERSION,
) -> Peer:
    """Authenticate the other end of a TLS link (see the module docstring)."""
    try:
        return await asyncio.wait_for(
            _handshake(link, role, identity, code, host_fingerprint, expect_peer, name, version),
            HANDSHAKE_TIMEOUT,
        )
    except asyncio.TimeoutError:
        link.close()
        raise HandshakeError("the other side did not complete the handshake in time") from None
    except (ProtocolError, ValueError, asyncio.IncompleteReadError, OSError) as exc:
        # ValueError: e.g. base64 that the schema's alphabet lets through but does not decode
        link.close()
        if isinstance(exc, HandshakeError):
            raise
        raise HandshakeError(
            f"the handshake failed: {str(exc)[:200] or type(exc).__name__}"
        ) from None


async def _fail(link: StreamLink, code: str, text: str) -> None:
    try:
        await link.send({"t": "error", "code": code, "text": text})
    except (ConnectionError, OSError):
        pass
    link.close()
    raise HandshakeError(text)


async def _recv(link: StreamLink, kind: str) -> dict:
    msg = await link.recv()
    if msg["t"] == "error":
        link.close()
        raise HandshakeError(f"the other side refused: {msg['text']}")
    if msg["t"] != kind:
        raise HandshakeError(f"expected {kind} in the handshake, got {msg['t']}")
    return msg


async def _handshake(
    link: StreamLink,
    role: str,
    identity: Identity,
    code: str,
    host_fingerprint: str | None,
    expect_peer: str | None,
    name: str,
    version: int,
) -> Peer:
    from spake2 import SPAKE2_A, SPAKE2_B

    hello = {"t": "hello", "v": version, "app": "gin3d", "role": role, "name": name[:40]}
    if role == "guest":
        hello["cert"] = _b64(identity.cert_der)
    await link.send(hello)
    theirs = await _recv(link, "hello")
    if theirs["app"] != "gin3d":
        await _fail(link, "app", "the other side is not a gin3d game")
    if theirs["v"] != version:
        await _fail(
            link,
            "version",
            f"incompatible versions: this game speaks protocol "
            f"{version}, the other player's speaks {theirs['v']}; both need the same "
            "gin3d version",
        )
    other_role = "guest" if role == "host" else "host"
    if theirs["role"] != other_role:
        await _fail(link, "role", f"both sides claim to be the {role}")
    if role == "host":
        if "cert" not in theirs:
            await _fail(link, "cert", "the guest sent no certificate")
        guest_der = _unb64(theirs["cert"])
        try:
            guest_key = x509.load_der_x509_certificate(guest_der).public_key()
        except ValueError:
            await _fail(link, "cert", "the guest's certificate cannot be read")
        if not isinstance(guest_key, ec.EllipticCurvePublicKey):
            await _fail(link, "cert", "the guest's certificate key is not an EC key")
        host_fp, guest_fp = identity.fingerprint, fingerprint(guest_der)
        peer_fp = guest_fp
    else:
        host_fp, guest_fp = host_fingerprint or "", identity.fingerprint
        peer_fp = host_fp
    if expect_peer is not None and peer_fp != expect_peer:
        await _fail(
            link,
            "identity",
            "this is not the opponent of this match (its certificate fingerprint changed)",
        )

    pake = (SPAKE2_A if role == "host" else SPAKE2_B)(
        code.encode(), idA=b"gin3d-host", idB=b"gin3d-guest"
    )
    await link.send({"t": "pake", "m": _b64(pake.start())})
    try:
        key = pake.finish(_unb64((await _recv(link, "pake"))["m"]))
    except Exception as exc:  # spake2 raises several kinds for a bad message
        await _fail(link, "pake", f"the other side's key exchange is invalid ({exc})")

    link.code_tried = True  # our confirm lets the other side test its code: a guess spent
    binding = hashlib.sha256(f"gin3d-bind-v{version}|{host_fp}|{guest_fp}".encode()).digest()
    confirm = {"t": "confirm", "mac": hmac.new(key, role.encode() + binding, "sha256").hexdigest()}
    proof = hmac.new(key, b"guest-proof" + binding, "sha256").digest()
    if role == "guest":
        confirm["sig"] = _b64(identity.key.sign(proof, ec.ECDSA(hashes.SHA256())))
    await link.send(confirm)
    got = await _recv(link, "confirm")
    want = hmac.new(key, other_role.encode() + binding, "sha256").hexdigest()
    wrong = (
        "could not authenticate the other player: the join code is wrong, or someone is "
        "intercepting the connection"
    )
    if not hmac.compare_digest(got["mac"], want):
        link.close()
        raise HandshakeError(wrong)
    if role == "host":
        try:
            guest_key.verify(_unb64(got.get("sig", "")), proof, ec.ECDSA(hashes.SHA256()))
        except (InvalidSignature, ValueError):
            link.close()
            raise HandshakeError(wrong) from None
    match_id = hashlib.sha256(f"gin3d-match|{host_fp}|{guest_fp}".encode()).hexdigest()
    link.peer_fingerprint = peer_fp
    return Peer(link, role, peer_fp, match_id, theirs.get("name", ""))


# -- making connections --------------------------------------------------------------------
async def tls_link(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    role: str,
    identity: Identity,
    timeout: float = HANDSHAKE_TIMEOUT,
) -> tuple[StreamLink, str | None]:
    """TLS over an open stream; returns the link and (for the guest) the host's fingerprint."""
    ctx = identity.server_context() if role == "host" else identity.client_context()
    try:
        reader, writer = await start_tls(reader, writer, ctx, role == "host", timeout)
    except (ssl.SSLError, OSError, asyncio.TimeoutError, ConnectionError) as exc:
        writer.close()
        raise HandshakeError(f"TLS failed: {exc or type(exc).__name__}") from None
    host_fp = None
    if role == "guest":
        der = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        if not der:
            writer.close()
            raise HandshakeError("the host presented no certificate")
        host_fp = fingerprint(der)
    return StreamLink(reader, writer), host_fp


async def connect_direct(
    address: str,
    port: int,
    identity: Identity,
    code: str,
    expect_peer: str | None = None,
    name: str = "",
    version: int = PROTOCOL_VERSION,
    timeout: float = 10.0,
) -> Peer:
    """Join a host at ``address:port``. Cancelled (a caller's deadline), it closes its socket."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(address, port), timeout)
    except (OSError, asyncio.TimeoutError) as exc:
        raise ConnectionError(f"cannot reach {address}:{port}: {exc or 'timed out'}") from None
    try:
        link, host_fp = await tls_link(reader, writer, "guest", identity)
        return await handshake(link, "guest", identity, code, host_fp, expect_peer, name, version)
    except asyncio.CancelledError:
        writer.close()
        raise


def parse_address(text: str, default_port: int) -> tuple[str, int]:
    """``host:port`` (or just ``host``) as typed by a player; ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError(f"type an address like {EXAMPLE_ADDRESS}")
    if text.startswith("["):  # [v6]:port
        host, _, rest = text[1:].partition("]")
        port_text = rest.lstrip(":")
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host, port_text = text, ""
    _check_host(host)
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{port_text[:12]!r} is not a port number (1-65535)")
    return host, int(port_text)


_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)")


def _check_host(host: str) -> None:
    """An IP address or a host name (letters, digits, hyphens between dots), else a
    ValueError that says so: a typed sentence or a control character is no address."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    if len(host) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels):
        return
    shown = f"{host[:40]!r}" if host else "nothing"
    raise ValueError(f"{shown} is not a host name or IP address (type one like {EXAMPLE_ADDRESS})")


def parse_relays(text: str, default_port: int) -> tuple[str, int] | list[tuple[str, int]]:
    """A relay as typed: ``host:port``, or the nodes of one service ``host:port,host:port``
    (a match goes on through the next when its node dies); one address stays a tuple."""
    nodes = [parse_address(part, default_port) for part in text.split(",") if part.strip()]
    if not nodes:
        raise ValueError(f"type a relay address like {EXAMPLE_ADDRESS}")
    return nodes[0] if len(nodes) == 1 else nodes
