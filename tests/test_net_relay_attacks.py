"""The relay under attack, each test written as the attacker: a squatter who knows a room's
public part, a code guesser, thousands of register-and-vanish connections, idle junk."""

import asyncio
import secrets

from net_harness import relay_proofs as proofs

from gin3d.engine import RuleSet
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.relay import MAGIC, WRONG_CODE, Limits, Relay, RelayError, relay_connect
from gin3d.net.transport import CODE_ALPHABET, room_claim, room_id
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"
SHORT = RuleSet.preset("classic", game_target=30)


def same_room_other_code(code: str) -> str:
    """A code with the room part the attacker knows and a password part it guessed."""
    while True:
        rest = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if rest != code[5:]:
            return f"{code[:5]}{rest}"


async def until(condition, timeout: float = 10.0) -> None:
    """Wait (bounded) for the relay or a peer to reach a state."""

    async def poll():
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout)


async def attempt(coro) -> str:
    try:
        _, writer = await coro
    except RelayError as exc:
        return str(exc)
    writer.close()
    return "PAIRED"


def test_a_squatter_who_knows_the_room_part_cannot_block_the_real_guest():
    """The attack: knowing only the room part of the code, park a guest (and a host) in the
    room before the real ones come, so the real host pairs with the squatter (and the real
    guest, coming before its host, with the squatter's host). Now a guest is paired only
    with the host whose verifier its claim hashes to."""

    async def scenario():
        relay = Relay(LOOP, 0, limits=Limits(miss_wait=3.0))  # the real host has 3 s to come
        await relay.start()
        opts = MatchOptions(relay=(LOOP, relay.port))
        host = HostedMatch(GreedyPlayer(), SHORT, options=opts)
        fake = same_room_other_code(host.code)
        room, claim, _ = proofs(fake)
        verifier = proofs(same_room_other_code(fake))[2]
        assert room == room_id(host.code)  # the squatter's room is the real one
        squat_guest = asyncio.ensure_future(relay_connect(LOOP, relay.port, "guest", room, claim))
        squat_host = asyncio.ensure_future(relay_connect(LOOP, relay.port, "host", room, verifier))
        await until(lambda: len(relay.waiting) == 2)  # both parked first
        guest = JoinedMatch(GreedyPlayer(), host.code, options=MatchOptions(relay=opts.relay))
        joining = asyncio.ensure_future(guest.start())  # before the real host, too
        await until(lambda: len(relay.waiting) == 3)
        await host.start()
        await asyncio.wait_for(joining, 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        late = await attempt(
            relay_connect(LOOP, relay.port, "guest", room, room_claim(same_room_other_code(fake)))
        )
        result = (
            guest.route,
            host.peer_fingerprint == guest.identity.fingerprint,
            guest.peer_fingerprint == host.identity.fingerprint,
            squat_guest.done(),
            late,
        )
        for task in (squat_guest, squat_host):
            task.cancel()
        await host.close()
        await guest.close()
        await relay.close()
        return result

    route, host_has_guest, guest_has_host, squatter_paired, late = asyncio.run(scenario())
    assert route == "relay" and host_has_guest and guest_has_host
    assert not squatter_paired  # still parked, paired with nobody
    assert WRONG_CODE in late  # once the host waits, a wrong claim is told so soon


def test_a_code_guesser_is_refused_after_its_budget_and_the_host_is_told():
    """The attack: try password parts for a known room, one connection each. Each wrong one
    is told to the waiting host and answered "wrong" (after ``miss_wait``); past the budget
    the guesser is refused at once, before its claim is even looked at."""

    async def scenario():
        limits = Limits(guesses=(3, 3600.0), room_guesses=(50, 3600.0), miss_wait=0.1)
        relay = Relay(LOOP, 0, limits=limits)
        await relay.start()
        host = HostedMatch(GreedyPlayer(), SHORT, options=MatchOptions(relay=(LOOP, relay.port)))
        await host.start()
        await until(lambda: relay.directory.rooms)
        answers = []
        for _ in range(5):
            room, claim, _ = proofs(same_room_other_code(host.code))
            answers.append(await attempt(relay_connect(LOOP, relay.port, "guest", room, claim)))
        await until(lambda: host.wrong_codes == 3)
        room_budget = Relay(LOOP, 0, limits=Limits(room_guesses=(2, 3600.0), miss_wait=0.1))
        await room_budget.start()
        other = proofs("ZZZZ-ZZZZZZ")
        parked = asyncio.ensure_future(
            relay_connect(LOOP, room_budget.port, "host", other[0], other[2])
        )
        await until(lambda: room_budget.directory.rooms)
        per_room = []
        for _ in range(3):
            room, claim, _ = proofs(same_room_other_code("ZZZZ-ZZZZZZ"))
            per_room.append(
                await attempt(relay_connect(LOOP, room_budget.port, "guest", room, claim))
            )
        parked.cancel()
        failures = list(host.failures)
        await host.close()
        await relay.close()
        await room_budget.close()
        return answers, relay.misses, failures, per_room

    answers, misses, failures, per_room = asyncio.run(scenario())
    assert all(WRONG_CODE in a for a in answers[:3])
    assert all("too many wrong join codes" in a for a in answers[3:])
    assert misses == 3
    assert sum("wrong join code" in f for f in failures) == 3  # the host reports each one
    assert [WRONG_CODE in a for a in per_room] == [True, True, False]
    assert "too many wrong join codes" in per_room[2]


def test_register_and_vanish_connections_free_their_slots():
    """The attack: 1,000 connections send a host's request line and vanish; before, each
    kept its place (and the address's quota) for the whole pairing timeout. Now a closed
    socket frees it at once and a real pair joins right after; an idle guest and a silent
    connection are dropped after their short timeouts."""

    async def vanish():
        _, writer = await asyncio.open_connection(LOOP, relay.port)
        line = f"{MAGIC} host {secrets.token_hex(32)} {secrets.token_hex(32)}\n"
        writer.write(line.encode())
        await writer.drain()
        writer.close()
        await writer.wait_closed()

    relay = Relay(LOOP, 0, limits=Limits(guest_wait=0.3, line_timeout=0.3))

    async def scenario():
        await relay.start()
        for _ in range(100):
            await asyncio.gather(*(vanish() for _ in range(10)))
        await until(lambda: not relay.waiting and not relay.directory.slots["live"].count)
        room, claim, verifier = proofs("K7QD-M3XR9P")
        host = asyncio.ensure_future(relay_connect(LOOP, relay.port, "host", room, verifier))
        guest = await asyncio.wait_for(relay_connect(LOOP, relay.port, "guest", room, claim), 5)
        _, host_writer = await asyncio.wait_for(host, 5)
        lonely = await asyncio.open_connection(LOOP, relay.port)  # a guest with no host
        room2, claim2, _ = proofs("ABCD-EFGHJK")
        lonely[1].write(f"{MAGIC} guest {room2} {claim2}\n".encode())
        silent = await asyncio.open_connection(LOOP, relay.port)  # sends nothing at all
        dropped = await asyncio.wait_for(
            asyncio.gather(lonely[0].read(), silent[0].read()), 5
        )  # EOF: the relay closed both
        for w in (guest[1], host_writer, lonely[1], silent[1]):
            w.close()
        await relay.close()
        return dropped

    assert asyncio.run(scenario()) == [b"", b""]
    assert relay.pairs == 1 and not relay.waiting


def test_idle_junk_cannot_fill_the_relay():
    """The attack: hold hundreds of connections open without a word (from many addresses:
    the per-address cap is lifted here). The oldest idle ones are closed to make room, and a
    real pair joins while the flood goes on."""

    async def scenario():
        limits = Limits(max_pending=50, max_per_address=100_000, line_timeout=60.0)
        relay = Relay(LOOP, 0, limits=limits)
        await relay.start()
        junk = [await asyncio.open_connection(LOOP, relay.port) for _ in range(300)]
        await until(lambda: relay.refused.get("evicted while idle", 0) >= 250)
        room, claim, verifier = proofs("K7QD-M3XR9P")
        host = asyncio.ensure_future(relay_connect(LOOP, relay.port, "host", room, verifier))
        guest = await asyncio.wait_for(relay_connect(LOOP, relay.port, "guest", room, claim), 5)
        _, host_writer = await asyncio.wait_for(host, 5)
        pending = len(relay.pending)
        for _, w in (*junk, guest):
            w.close()
        host_writer.close()
        await relay.close()
        return pending, relay.pairs

    pending, pairs = asyncio.run(scenario())
    assert pending <= 50 and pairs == 1


def test_a_waiting_host_that_vanishes_at_once_never_gets_a_guest():
    """A host that registers and closes is not paired with the next guest (who would then
    find a dead pipe): the guest waits for a live host instead."""

    async def scenario():
        relay = Relay(LOOP, 0, limits=Limits(guest_wait=0.5))
        await relay.start()
        room, claim, verifier = proofs("K7QD-M3XR9P")
        _, writer = await asyncio.open_connection(LOOP, relay.port)
        writer.write(f"{MAGIC} host {room} {verifier}\n".encode())
        await until(lambda: relay.waiting)
        writer.close()
        await until(lambda: not relay.waiting)
        said = await attempt(relay_connect(LOOP, relay.port, "guest", room, claim))
        await relay.close()
        return said, relay.pairs

    said, pairs = asyncio.run(scenario())
    assert pairs == 0 and "did not pair us" in said
