"""A friend by code, layer by layer, against the real magic-wormhole mailbox server and
transit relay on loopback (tests/rendezvous_servers.py): the mailbox client, the sealed
meeting (a wrong code meets nobody and spoils nothing), the transit pairing, the loopback
guard, and a server that sends garbage."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from rendezvous_servers import servers  # noqa: F401 (a fixture)

from gin3d.net.friend import FriendGuest, FriendHost
from gin3d.net.friendcode import (
    guest_meeting,
    host_meeting,
    normalize_friend_code,
)
from gin3d.net.mailbox import MailboxClient, RendezvousError, mailbox_url
from gin3d.net.peer import MatchOptions
from gin3d.net.session import Callbacks
from gin3d.net.transit import transit_address, transit_connect
from gin3d.net.transport import HandshakeError, normalize_code
from gin3d.players import GreedyPlayer

TOKEN = "ab" * 32


def _dead_port() -> int:
    """A loopback port where nobody listens (bound for a moment, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_clients_allocate_claim_exchange_and_close(servers):  # noqa: F811
    async def scenario():
        a, b = MailboxClient(servers.mailbox_url), MailboxClient(servers.mailbox_url)
        await a.connect()
        await b.connect()
        nameplate = await a.allocate()
        await b.claim(nameplate)
        await a.add("one", b"from a")
        await b.add("one", b"from b")
        got = await b.get("one", 5), await a.get("one", 5)
        with pytest.raises(RendezvousError, match="in time"):
            await a.get("one", 0.3)  # our own message is never read back as theirs
        same = a.mailbox == b.mailbox
        await a.close()
        await b.close()
        return nameplate, got, same, a.seen_ip

    nameplate, got, same, seen = asyncio.run(scenario())
    assert nameplate.isdigit() and same
    assert got == (b"from a", b"from b")
    assert seen == "127.0.0.1"  # what the server's welcome says it saw


def test_a_meeting_agrees_a_key_and_carries_the_hosts_addresses_sealed(servers):  # noqa: F811
    async def scenario():
        host, guest = MailboxClient(servers.mailbox_url), MailboxClient(servers.mailbox_url)
        await host.connect()
        await guest.connect()
        code = f"{await host.allocate()}-K7QDM3"
        await guest.claim(code.split("-")[0])
        hints = ["192.0.2.9:47470", "[2001:db8::1]:5", "not an address", "127.0.0.1:80"]
        met = await asyncio.gather(
            host_meeting(host, code, hints, 10), guest_meeting(guest, code, 10)
        )
        for client in (host, guest):
            await client.close()
        return met

    host_met, guest_met = asyncio.run(scenario())
    assert host_met.key == guest_met.key
    assert host_met.transit_token == guest_met.transit_token
    assert guest_met.hints == [("192.0.2.9", 47470), ("2001:db8::1", 5), ("127.0.0.1", 80)]


def _options() -> MatchOptions:
    return MatchOptions(retry=0.1)


def test_a_wrong_code_meets_nobody_and_the_right_one_still_joins(servers, monkeypatch):  # noqa: F811
    for name, value in servers.env.items():
        monkeypatch.setenv(name, value)

    async def scenario():
        host = FriendHost(GreedyPlayer(), listen="127.0.0.1", options=_options())
        await host.start()
        nameplate, secret = host.code.split("-")
        wrong = "".join("2" if ch != "2" else "3" for ch in secret)
        with pytest.raises(HandshakeError, match="wrong join code"):
            await FriendGuest(GreedyPlayer(), f"{nameplate}-{wrong}", _options()).start()
        after_wrong = host.session, host.wrong_codes, host.code
        guest = FriendGuest(GreedyPlayer(), host.code, _options())
        await asyncio.wait_for(guest.start(), 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        routes = guest.route, host.route
        await guest.close()
        await host.close()
        return after_wrong, f"{nameplate}-{secret}", routes

    (session, wrong_codes, code_after), code, routes = asyncio.run(scenario())
    assert session is None and wrong_codes == 1  # nothing started, the miss was counted
    assert code_after == code  # and the code the friend was given still works
    assert routes == ("direct", "direct")


def test_a_code_nobody_hosts_is_told_in_words(servers):  # noqa: F811
    async def scenario():
        guest = FriendGuest(
            GreedyPlayer(), "987-K7QDM3", _options(), servers.mailbox_url, servers.transit_at
        )
        guest.meet_wait = 0.5
        with pytest.raises(RendezvousError, match="no game is waiting with that code"):
            await guest.start()

    asyncio.run(scenario())


def test_two_ends_pair_at_the_real_transit_relay(servers):  # noqa: F811
    async def scenario():
        at = transit_address(servers.transit_at)
        (hr, hw), (gr, gw) = await asyncio.gather(
            transit_connect(at, TOKEN, "11" * 8, "host", 10),
            transit_connect(at, TOKEN, "22" * 8, "guest", 10),
        )
        hw.write(b"to guest\n")
        gw.write(b"to host\n")
        got = await gr.readline(), await hr.readline()
        hw.close()
        gw.close()
        return got

    assert asyncio.run(scenario()) == (b"to guest\n", b"to host\n")


def test_a_lone_end_at_the_transit_relay_is_told_in_words(servers):  # noqa: F811
    async def scenario():
        at = transit_address(servers.transit_at)
        with pytest.raises(RendezvousError, match="did not pair us"):
            await transit_connect(at, TOKEN, "33" * 8, "guest", 0.5)

    asyncio.run(scenario())


def test_the_tests_never_reach_a_public_server(monkeypatch):
    monkeypatch.delenv("GIN3D_RENDEZVOUS", raising=False)
    monkeypatch.delenv("GIN3D_TRANSIT", raising=False)
    with pytest.raises(ValueError, match="not a loopback address"):
        mailbox_url()  # the built-in default is public
    with pytest.raises(ValueError, match="not a loopback address"):
        transit_address()
    with pytest.raises(ValueError, match="not a mailbox server address"):
        mailbox_url("http://127.0.0.1:4000/v1")
    assert mailbox_url("ws://127.0.0.1:4000/v1") == "ws://127.0.0.1:4000/v1"
    assert transit_address("tcp:127.0.0.1:4001") == ("127.0.0.1", 4001)


def test_friend_codes_are_forgiving_of_typing_and_strict_about_what_they_are():
    assert normalize_friend_code(" 7-k7qd m3 ") == "7-K7QDM3"
    assert normalize_friend_code("12-K7Q-DM3") == "12-K7QDM3"
    for bad in ("K7QD-M3XR9P", "7-K7QDM", "7-K7QDM30", "x-K7QDM3", "-K7QDM3", 7):
        with pytest.raises(ValueError):
            normalize_friend_code(bad)


GARBAGE = [
    b"\xff\xfe not utf-8",
    "not json",
    "[1, 2]",
    json.dumps({"type": 5}),
    json.dumps({"type": "message", "side": "x", "phase": "pake", "body": "zz"}),
    json.dumps({"type": "message", "side": 1, "phase": "pake", "body": "00"}),
    json.dumps({"type": "welcome", "welcome": {"your-address": {"ipv4": "\x1b[2J"}}}),
    json.dumps({"type": "allocated", "nameplate": "../../etc"}),
    "[" * 5000,
]


def test_garbage_from_the_server_fails_the_meeting_in_words_and_raises_nothing_else():
    from websockets.asyncio.server import serve

    async def answer(ws):
        async for _ in ws:  # whatever we ask, garbage comes back, then the server leaves
            for junk in GARBAGE:
                await ws.send(junk)
            await ws.close()
            return

    async def scenario():
        async with serve(answer, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = MailboxClient(f"ws://127.0.0.1:{port}/v1")
            await client.connect()
            with pytest.raises(RendezvousError) as caught:
                await client.allocate(timeout=5)
            seen = client.seen_ip
            await client.close()
            with pytest.raises(RendezvousError):
                await client.get("pake", 1)
            return str(caught.value), seen

    why, seen = asyncio.run(scenario())
    assert "bad nameplate" in why or "closed" in why
    assert seen == ""


def test_a_link_lost_mid_match_comes_back_through_the_transit_relay(servers):  # noqa: F811
    """Both kept off the direct path: the match runs through the transit relay; the guest's
    line drops mid-match and it comes back the same way (no second meeting), and the match
    finishes with one move log."""
    from gin3d.engine import RuleSet
    from gin3d.net.session import Timing

    said: list[str] = []

    def options(who: str) -> MatchOptions:
        cb = Callbacks(on_status=lambda text: said.append(f"{who} {text}"))
        return MatchOptions(callbacks=cb, timing=Timing(0.3, 2.5, 60.0), retry=0.1)

    async def scenario():
        where = servers.mailbox_url, servers.transit_at
        rules = RuleSet.preset("classic", game_target=30)
        host = FriendHost(
            GreedyPlayer(), rules, "127.0.0.1", 0, options("host"), *where, direct=False
        )
        await host.start()
        guest = FriendGuest(GreedyPlayer(), host.code, options("guest"), *where, direct=False)
        await asyncio.wait_for(guest.start(), 30)
        meeting = guest.meeting
        while len(guest.session.log.lines()) < 6:  # a few moves in
            await asyncio.sleep(0.05)
        guest.session.link.close()
        ended = await asyncio.wait_for(guest.wait(), 90)
        await asyncio.wait_for(host.wait(), 30)
        result = ended.reason, guest.meeting is meeting, guest.route, host.route
        logs = host.session.log.lines(), guest.session.log.lines()
        await guest.close()
        await host.close()
        return result, logs

    (reason, same_meeting, *routes), (host_log, guest_log) = asyncio.run(scenario())
    assert reason == "finished" and same_meeting
    assert routes == ["relay", "relay"]
    assert host_log == guest_log
    assert sum(text == "guest connected" for text in said) >= 2, said  # it did come back


def test_with_the_meeting_server_out_of_reach_the_app_hosts_as_before():
    """Nobody at the mailbox address: the command line host fails in words; the app's host
    (``fallback``) still opens the table with a plain join code (its address needed too)."""

    async def scenario():
        nowhere = f"ws://127.0.0.1:{_dead_port()}/v1"
        where = {"mailbox": nowhere, "transit": "127.0.0.1:1"}
        strict = FriendHost(GreedyPlayer(), listen="127.0.0.1", **where)
        with pytest.raises(RendezvousError, match="cannot reach the meeting server"):
            await strict.start()
        await strict.close()
        said: list[str] = []
        options = MatchOptions(callbacks=Callbacks(on_status=said.append))
        host = FriendHost(
            GreedyPlayer(), listen="127.0.0.1", options=options, fallback=True, **where
        )
        await host.start()
        code, met_at = host.code, host.met_at
        await host.close()
        return code, met_at, said

    code, met_at, said = asyncio.run(scenario())
    assert normalize_code(code) == code and met_at == ""
    assert any("your friend needs your address and port too" in text for text in said), said


def test_a_server_that_turns_everyone_away_is_told_in_its_own_words():
    """``twist wormhole-mailbox --signal-error TEXT`` welcomes each client with an error:
    the meeting fails with those words (cleaned), not a hang."""
    from websockets.asyncio.server import serve

    async def welcome(ws):
        said = {"motd": "hi", "error": "down for maintenance\x1b[2J"}
        await ws.send(json.dumps({"type": "welcome", "welcome": said}))
        await ws.wait_closed()

    async def scenario():
        async with serve(welcome, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            client = MailboxClient(f"ws://127.0.0.1:{port}/v1")
            await client.connect()
            with pytest.raises(RendezvousError) as caught:
                await client.allocate(timeout=10)
            await client.close()
            return str(caught.value)

    assert asyncio.run(scenario()) == "the meeting server said: down for maintenance[2J"


def test_a_saved_friends_game_comes_back_by_address(servers, tmp_path):  # noqa: F811
    """A friend's game met at the rendezvous, saved after its first hand: later both come
    back from their files as any saved online match does (the host at its address, its
    friend code still the password), and finish it."""
    from net_harness import ScriptedPlayer

    from gin3d.engine import RuleSet
    from gin3d.net.peer import HostedMatch, JoinedMatch

    async def scenario():
        stopped = asyncio.Event()

        async def hook(session, view):
            stopped.set()
            await asyncio.Event().wait()

        opts = MatchOptions(save_dir=str(tmp_path), retry=0.1)
        where = servers.mailbox_url, servers.transit_at
        rules = RuleSet.preset("classic", game_target=40)
        host = FriendHost(GreedyPlayer(), rules, "127.0.0.1", 0, opts, *where)
        await host.start()
        player = ScriptedPlayer(hook, lambda v: v.hand_number == 1)
        guest = FriendGuest(player, host.code, opts, *where)
        await asyncio.wait_for(guest.start(), 30)
        await asyncio.wait_for(stopped.wait(), 60)
        await host.close()
        await guest.close()
        saves = {
            json.loads(p.read_text())["role"]: json.loads(p.read_text())
            for p in tmp_path.glob("gin3d-match-*.json")
        }
        host2 = HostedMatch(GreedyPlayer(), saved=saves["host"])
        await host2.start()
        guest2 = JoinedMatch(
            GreedyPlayer(), "", direct=("127.0.0.1", host2.port), saved=saves["guest"]
        )
        await asyncio.wait_for(guest2.start(), 30)
        ended = await asyncio.wait_for(asyncio.gather(host2.wait(), guest2.wait()), 120)
        heads = host2.session.log.head, guest2.session.log.head
        await host2.close()
        await guest2.close()
        return ended, heads, host2.code, host.code

    ended, heads, code_after, code = asyncio.run(scenario())
    assert [e.reason for e in ended] == ["finished", "finished"]
    assert heads[0] == heads[1] and code_after == code


def test_a_guesser_who_stays_in_the_nameplate_gets_the_host_a_new_code(servers, monkeypatch):  # noqa: F811
    """Someone claims the host's nameplate with a wrong guess and never leaves (the server
    gives a nameplate one meeting): the host takes a new nameplate, says the new code in
    its status line, and the friend gets in with that code."""
    import gin3d.net.friend as friend_mod
    from gin3d.net.friendcode import seal

    monkeypatch.setattr(friend_mod, "REMEET_FOR", 1.5)
    said: list[str] = []
    codes: list[str] = []  # what the app's hosting screen is told

    async def scenario():
        where = servers.mailbox_url, servers.transit_at
        told = Callbacks(on_status=said.append, on_new_code=codes.append)
        options = MatchOptions(callbacks=told, retry=0.1)
        host = FriendHost(GreedyPlayer(), None, "127.0.0.1", 0, options, *where)
        await host.start()
        first = host.code
        squatter = MailboxClient(servers.mailbox_url)
        await squatter.connect()
        await squatter.claim(first.split("-")[0])
        await squatter.add("pake", b"\x00" * 33)  # no SPAKE2 message at all
        await squatter.add("hello", seal(b"k" * 32, "guest hello", {"v": 1}))
        while host.code == first:
            await asyncio.sleep(0.05)
        guest = FriendGuest(GreedyPlayer(), host.code, _options(), *where)
        await asyncio.wait_for(guest.start(), 30)
        await asyncio.wait_for(host.ready.wait(), 10)
        result = first, host.code, host.wrong_codes
        await guest.close()
        await host.close()
        await squatter.close()
        return result

    first, second, wrong = asyncio.run(asyncio.wait_for(scenario(), 50))
    assert second != first and second.split("-")[1] == first.split("-")[1]
    assert wrong == 1 and f"new join code {second}" in said, said
    assert codes == [second]


def test_the_apps_hosting_screen_is_told_the_new_code(servers, monkeypatch):  # noqa: F811
    """Through the app's handle (``NetService.host(friend=True)``): the first code spoiled
    by a squatter, a ``hosting`` event carries the new code for the screen."""
    import time

    import gin3d.net.friend as friend_mod
    from gin3d.net.api import NetService
    from gin3d.net.friendcode import seal

    monkeypatch.setattr(friend_mod, "REMEET_FOR", 1.5)
    for name, value in servers.env.items():
        monkeypatch.setenv(name, value)
    net = NetService("Ann").start()
    try:
        info = net.host(None, lan=False, listen="127.0.0.1", port=0, friend=True).result(20)

        async def squat():
            squatter = MailboxClient(servers.mailbox_url)
            await squatter.connect()
            await squatter.claim(info.code.split("-")[0])
            await squatter.add("pake", b"\x00" * 33)
            await squatter.add("hello", seal(b"k" * 32, "guest hello", {"v": 1}))
            return squatter

        loop = asyncio.new_event_loop()
        squatter = loop.run_until_complete(squat())
        deadline = time.monotonic() + 30  # the bound only turns a hang into a failure
        told = []
        while not told:
            assert time.monotonic() < deadline, "no new code was told"
            told = [e.data["info"].code for e in net.poll() if e.kind == "hosting"]
            told = [code for code in told if code != info.code]  # (the first event's)
            loop.run_until_complete(asyncio.sleep(0.05))
        loop.run_until_complete(squatter.close())
        loop.close()
    finally:
        net.stop()
    assert told[-1].split("-")[1] == info.code.split("-")[1]  # a new number, the same secret
