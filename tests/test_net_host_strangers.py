"""A hosting peer under attack by strangers, each test written as the attacker: a flood of
idle connections that never finish TLS, too many from one address, and code guessers (one
of them careful enough to check the host's answer itself and never send its own)."""

import asyncio
import base64

import pytest
from spake2 import SPAKE2_B

from gin3d.engine import RuleSet
from gin3d.net import transport
from gin3d.net.peer import HostedMatch, HostLimits, JoinedMatch
from gin3d.net.protocol import PROTOCOL_VERSION
from gin3d.net.transport import HandshakeError, Identity, connect_direct, tls_link
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"
SHORT = RuleSet.preset("classic", game_target=30)
WRONG = "ZZZZ-ZZZZZZ"


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


async def until(condition, timeout: float = 20.0) -> None:
    async def poll():
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout)


async def _host(limits: HostLimits) -> HostedMatch:
    host = HostedMatch(GreedyPlayer(), SHORT, listen=LOOP, port=0, limits=limits)
    await host.start()
    return host


def test_an_idle_flood_keeps_memory_bounded_and_builds_one_tls_context(monkeypatch):
    """The attack: open hundreds of connections (from many addresses: the per-address cap is
    lifted here) and never send a ClientHello. Before, each built a TLS context (~300 KB,
    never given back); now the context is built once and only ``max_preauth`` handshakes
    are held, the oldest closed to make room, and the real guest still joins."""
    built = []
    real = transport.make_server_context
    monkeypatch.setattr(transport, "make_server_context", lambda i: built.append(i) or real(i))
    flood = 300

    async def scenario():
        host = await _host(HostLimits(max_preauth_per_address=100_000, max_preauth=32))
        warm = await asyncio.open_connection(LOOP, host.port)  # the context exists from here
        await until(lambda: host.preauth)
        before = rss_kib()
        idle = [await asyncio.open_connection(LOOP, host.port) for _ in range(flood)]
        await until(lambda: host.turned_away >= flood + 1 - 32)
        grown = rss_kib() - before
        held = len(host.preauth)
        guest = JoinedMatch(GreedyPlayer(), host.code, direct=(LOOP, host.port))
        await asyncio.wait_for(guest.start(), 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        joined = host.peer_fingerprint == guest.identity.fingerprint
        for _, w in (warm, *idle):
            w.close()
        await guest.close()
        await host.close()
        return grown, held, joined

    grown, held, joined = asyncio.run(scenario())
    assert joined and held <= 32
    assert len(built) == 1  # one context for the whole flood and the real guest
    assert grown < 20 * 1024, f"RSS grew {grown} KiB for {flood} idle connections"


def test_one_address_holds_few_handshakes_and_an_idle_one_is_dropped_soon():
    """The attack: 40 connections from one address, all silent. Only a few get a handshake
    at all (the rest are closed unread), and those are closed after the short timeout."""

    async def scenario():
        host = await _host(HostLimits(max_preauth_per_address=4, preauth_timeout=0.5))
        idle = [await asyncio.open_connection(LOOP, host.port) for _ in range(40)]
        ends = await asyncio.wait_for(asyncio.gather(*(r.read() for r, _ in idle)), 10)
        for _, w in idle:
            w.close()
        await host.close()
        return ends, host.turned_away, host.preauth_from.count

    ends, turned_away, left = asyncio.run(scenario())
    assert ends == [b""] * 40  # every one closed by the host
    assert turned_away == 36 and not left


async def careful_guess(port: int, code: str) -> bool:
    """A guesser that reads the host's confirm, checks its own guess against it and leaves
    without ever sending its own (so the host never sees a wrong MAC)."""
    import hashlib
    import hmac

    reader, writer = await asyncio.open_connection(LOOP, port)
    me = Identity.generate("guesser")
    link, host_fp = await tls_link(reader, writer, "guest", me)
    hello = {"t": "hello", "v": PROTOCOL_VERSION, "app": "gin3d", "role": "guest", "name": ""}
    hello["cert"] = base64.b64encode(me.cert_der).decode()
    await link.send(hello)
    await link.recv()  # the host's hello
    pake = SPAKE2_B(code.encode(), idA=b"gin3d-host", idB=b"gin3d-guest")
    await link.send({"t": "pake", "m": base64.b64encode(pake.start()).decode()})
    key = pake.finish(base64.b64decode((await link.recv())["m"]))
    confirm = await link.recv()
    binding = f"gin3d-bind-v{PROTOCOL_VERSION}|{host_fp}|{me.fingerprint}".encode()
    want = hmac.new(key, b"host" + hashlib.sha256(binding).digest(), "sha256").hexdigest()
    link.close()
    return hmac.compare_digest(confirm["mac"], want)


def test_a_code_guesser_at_the_host_is_refused_after_its_budget_and_reported():
    """The attack: guess codes against a host's address, including guesses that stop after
    the host's answer. Each counts; past the address's budget a new connection is closed
    before TLS (so the answer is no oracle), and the host reports every wrong code."""

    async def scenario():
        host = await _host(HostLimits(guesses=(3, 3600.0)))
        right_after_guessing = [await careful_guess(host.port, WRONG) for _ in range(2)]
        results = []
        for _ in range(3):
            try:
                await connect_direct(LOOP, host.port, Identity.generate(), WRONG)
                results.append("joined")
            except (HandshakeError, ConnectionError) as exc:
                results.append(str(exc))
        await until(lambda: len(host.preauth) == 0)
        wrong, failures = host.wrong_codes, list(host.failures)
        await host.close()
        return right_after_guessing, results, wrong, failures

    careful, results, wrong, failures = asyncio.run(scenario())
    assert careful == [False, False]
    assert "could not authenticate" in results[0]
    assert all("TLS failed" in r for r in results[1:])  # closed before any code was tested
    assert wrong == 3 and sum("could not authenticate" in f for f in failures) == 1


def test_the_tables_budget_holds_against_guesses_from_many_addresses():
    """Many addresses each within their own budget still share the table's: past it, every
    new stranger is closed before TLS."""

    async def scenario():
        host = await _host(HostLimits(guesses=(100, 3600.0), table_guesses=(2, 3600.0)))
        tried = []
        for _ in range(3):
            with pytest.raises((HandshakeError, ConnectionError)) as caught:
                await connect_direct(LOOP, host.port, Identity.generate(), WRONG)
            tried.append(str(caught.value))
        await host.close()
        return tried, host.wrong_codes

    tried, wrong = asyncio.run(scenario())
    assert wrong == 2 and "TLS failed" in tried[2] and "TLS failed" not in tried[0]
