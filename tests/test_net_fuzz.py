"""Hostile frames from an authenticated peer (after a real TLS + join-code handshake, mid-hand)
and from a stranger before the handshake: never an exception, and the honest side's state
does not move."""

from __future__ import annotations

import asyncio
import base64
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_harness import snapshot

from gin3d.engine import RuleSet
from gin3d.net.group import ORDER
from gin3d.net.peer import HostedMatch, JoinedMatch
from gin3d.net.protocol import HEADER, MAX_FRAME, SCHEMAS, ProtocolError, decode
from gin3d.net.transport import HandshakeError, Identity, handshake
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"
SHORT = RuleSet.preset("classic", game_target=30)
FUZZ = settings(
    deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

# -- hostile frames ---------------------------------------------------------------------------
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.sampled_from(
        [
            "ab" * 32,
            format(ORDER - 1, "x"),
            "host",
            "guest",
            "gin3d",
            "discard 7H",
            "draw stock",
            "knock 2C",
            "AAAA",
        ]
    )
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_field = (
    _json
    | st.integers(-3, 60)
    | st.lists(st.integers(0, 51), min_size=52, max_size=52)
    | st.lists(st.lists(st.integers(-1, 52) | st.text(max_size=3), max_size=3), max_size=4)
)


@st.composite
def _message(draw) -> bytes:
    """A message of a real type with each field right-ish or wrong, maybe one field more or
    less; sometimes a huge number, deep nesting or a duplicate key spliced into its text."""
    kind = draw(st.sampled_from(sorted(SCHEMAS)))
    msg = {"t": kind}
    for name in SCHEMAS[kind]:
        if draw(st.integers(0, 9)):  # now and then a field is missing
            msg[name.lstrip("?")] = draw(_field)
    if draw(st.integers(0, 5)) == 0:
        msg[draw(st.text(max_size=5))] = draw(_json)
    text = json.dumps(msg)
    trick = draw(st.integers(0, 7))
    if trick == 0:
        text = text.replace("1", "9" * 5000, 1)
    elif trick == 1:
        text = text[:-1] + ', "x": ' + "[" * 3000 + "]" * 3000 + "}"
    elif trick == 2:
        text = text[:-1] + f', "t": "{kind}"}}'
    return text.encode()


def _specials() -> list[bytes]:
    return [
        b"9" * 5000,
        b"[" * 60_000,
        b'{"t":"ping","n":NaN}',
        b'{"t":"ping","n":1e999}',
        b'{"t":"chat","seq":5,"text":"' + b"x" * (MAX_FRAME - 40) + b'"}',
        b"\xff" * 100,
        b'{"t":"ping","n":' + b"1" * 4301 + b"}",
        b"{" * 30_000,
    ]


FRAMES = st.one_of(st.binary(max_size=120), _message(), st.sampled_from(_specials()))


# -- after the handshake ------------------------------------------------------------------
class Paused:
    """The guest's player: plays greedily until its first discard, then waits there."""

    def __init__(self) -> None:
        self.base = GreedyPlayer()
        self.here = asyncio.Event()
        self.go = asyncio.Event()

    async def choose_async(self, view):
        if view.phase == "discard" and not self.go.is_set():
            self.here.set()
            await self.go.wait()
        return self.base.choose(view)


def _in_sequence(body: bytes, got: int) -> bool:
    """Whether ``body`` is a well-formed message the host would take as the peer's next one
    (a real chat, bye, error...): that is a message, not an attack, and is left out."""
    try:
        msg = decode(body)
    except ProtocolError:
        return False
    return msg["t"] == "error" or msg.get("seq") == got + 1


def test_5000_hostile_frames_after_a_real_handshake_change_nothing():
    loop = asyncio.new_event_loop()
    errors: list = []
    loop.set_exception_handler(lambda _loop, ctx: errors.append(ctx))
    run = loop.run_until_complete
    player = Paused()
    host = HostedMatch(GreedyPlayer(), SHORT, listen=LOOP, port=0)
    run(host.start())
    guest = JoinedMatch(player, host.code, direct=(LOOP, host.port))
    run(asyncio.wait_for(guest.start(), 20))
    run(asyncio.wait_for(player.here.wait(), 20))
    hs = host.session
    hs.max_refusals = hs.max_illegal_moves = 10**9  # count every refusal, end on none
    link = hs.link
    run(asyncio.wait_for(_settle(hs, guest.session), 10))
    calls = [0]
    real_recv = link.recv

    async def counted_recv():
        calls[0] += 1
        return await real_recv()

    link.recv = counted_recv
    before = snapshot(hs)
    fed = [0]
    writer = guest.session.link.writer

    async def feed(frames: list[bytes]) -> None:
        target = calls[0]
        for body in frames:
            if len(body) > MAX_FRAME or _in_sequence(body, hs.got):
                continue
            writer.write(HEADER.pack(len(body)) + body)
            target += 1
        await writer.drain()
        while calls[0] < target:  # the host has read and handled each one
            await asyncio.sleep(0)

    @settings(FUZZ, max_examples=600)
    @given(st.lists(FRAMES, min_size=10, max_size=10))
    def attack(frames):
        start = len(hs.refusals)
        sent_before = calls[0]
        run(asyncio.wait_for(feed(frames), 30))
        fed[0] += calls[0] - sent_before
        assert len(hs.refusals) >= start
        assert snapshot(hs) == before and hs.ended is None and hs.link is link
        assert not errors, errors[:1]

    try:
        attack()
        assert fed[0] >= 5000, fed[0]
        assert hs.status == "connected" and len(hs.refusals) >= 4000
        player.go.set()  # and the match itself is still playable
        link.recv = real_recv
    finally:
        run(host.close())
        run(guest.close())
        loop.close()


async def _settle(host_session, guest_session) -> None:
    """Until the host has handled everything the guest sent (it now waits for the discard)."""
    while host_session.got < guest_session.sent or len(host_session.log.entries) < len(
        guest_session.log.entries
    ):
        await asyncio.sleep(0)


# -- before the handshake -------------------------------------------------------------------
class FrameLink:
    """A link whose peer's frames are the given bodies (decoded as a socket's would be)."""

    def __init__(self, bodies: list[bytes]) -> None:
        self.bodies = list(bodies)
        self.sent: list[dict] = []
        self.peer_fingerprint = ""
        self.closed = False

    async def send(self, msg: dict) -> None:
        self.sent.append(msg)

    async def recv(self) -> dict:
        if not self.bodies:
            raise asyncio.IncompleteReadError(b"", 4)
        return decode(self.bodies.pop(0))

    def close(self) -> None:
        self.closed = True


HOST_ID = Identity.generate("host")
GUEST_ID = Identity.generate("guest")
HELLO = json.dumps(
    {
        "t": "hello",
        "v": 1,
        "app": "gin3d",
        "role": "guest",
        "cert": base64.b64encode(GUEST_ID.cert_der).decode(),
    }
).encode()
PRE = st.one_of(FRAMES, st.just(HELLO))


def test_1000_hostile_frames_before_the_handshake_only_fail_it():
    seen = [0]

    @settings(FUZZ, max_examples=400)
    @given(st.lists(PRE, min_size=3, max_size=4), st.sampled_from(["host", "guest"]))
    def attack(bodies, role):
        bodies = [b for b in bodies if len(b) <= MAX_FRAME]
        seen[0] += len(bodies)
        me = HOST_ID if role == "host" else GUEST_ID
        link = FrameLink(bodies)
        try:
            asyncio.run(handshake(link, role, me, "open:" + "ab" * 32, "cd" * 32))
        except HandshakeError:
            pass  # the only way it may end: an explicit failure
        else:
            raise AssertionError("a stranger's frames authenticated")
        assert link.closed

    attack()
    assert seen[0] >= 1000, seen[0]
