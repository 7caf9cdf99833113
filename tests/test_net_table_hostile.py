"""A table of three in one event loop over loopback TLS. A stranger with a wrong code is
turned away at the door (and counted); then one guest sends, through its real link, what an
honest client never sends: a frame that is not JSON, a message in another player's name, a
frame addressed to itself and a well-signed frame for a hand far ahead. Each is refused by
the player it reaches (nothing raises, nothing moves), the table hears of it, and the game
still finishes with the same log everywhere."""

from __future__ import annotations

import asyncio

import pytest

from gin3d.engine import RuleSet
from gin3d.net.protocol import HEADER
from gin3d.net.session import Timing
from gin3d.net.tableguest import TableGuest
from gin3d.net.tablehost import TableHost
from gin3d.net.transport import HandshakeError, Identity, connect_direct, make_code
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"
TIMING = Timing(heartbeat=0.3, dead_after=2.5, grace=60, stall=20)


async def _all_keys(table) -> None:
    """Until ``table`` holds every player's key (it is told of each message it takes)."""
    async with table.changed:
        await asyncio.wait_for(table.changed.wait_for(lambda: len(table.sig.keys) == 3), 20)


async def _note(notes: asyncio.Queue, text: str) -> None:
    while await asyncio.wait_for(notes.get(), 20) != text:
        pass


async def _two_guests_play(
    host: TableHost, notes: asyncio.Queue, timing: Timing = TIMING, players=(None, None), **kw
) -> tuple[list, list]:
    """Two guests join ``host`` one at a time (the first is player 1; ``players`` theirs,
    Greedy if None; ``kw`` more for ``TableGuest``) and the three play; returns the guests
    and the games under way, once every player holds every key."""
    guests = []
    for i, player in zip((1, 2), players):
        guest = TableGuest(
            player or GreedyPlayer(), host.code, (LOOP, host.port), timing=timing, **kw
        )
        await guest.start()
        await _note(notes, f"seated player {i}")
        guests.append(guest)
    games = [asyncio.ensure_future(t.play()) for t in (host, *guests)]
    for t in (host, *guests):
        await _all_keys(t)
    return guests, games


async def _table_with_a_hostile_guest():
    notes: asyncio.Queue[str] = asyncio.Queue()
    rules = RuleSet().but(game_target=15)
    host = TableHost(GreedyPlayer(), rules, 3, timing=TIMING, on_note=notes.put_nowait)
    await host.start()
    with pytest.raises(HandshakeError):  # a wrong code: refused at the door, and counted
        await connect_direct(LOOP, host.port, Identity.generate(), make_code())
    (hostile, other), games = await _two_guests_play(host, notes)
    link = hostile.links[0]
    link.writer.write(HEADER.pack(8) + b"not json")
    await link.send(hostile.sig.sign({"t": "tcommit", "p": 2, "commit": "00" * 32}))
    await link.send(hostile.sig.sign({"t": "tpair", "p": 1, "hand": 0, "m": "{}"}))
    await link.send(hostile.sig.sign({"t": "tpair", "p": 2, "hand": 50, "m": "{}"}))
    ended = await asyncio.wait_for(asyncio.gather(*games), 60)
    for t in (host, hostile, other):
        await t.close()
    return ended, host, hostile, other


def test_a_guests_hostile_messages_are_refused_and_the_game_goes_on():
    ended, host, hostile, other = asyncio.run(_table_with_a_hostile_guest())
    assert [e.reason for e in ended] == ["finished"] * 3
    heads = {t.table.log.head for t in (host, hostile, other)}
    assert len(heads) == 1 and host.table.over
    assert host.door.wrong_codes == 1 and host.failures
    assert host.refusals[0].startswith("a bad message from player 1: not a JSON message")
    assert host.refusals[1:] == [
        "player 1 sent tcommit as player 2",
        "player 1 sent a frame to player 1",
    ]
    assert other.refusals == ["player 1 sent a frame for hand 51, which is not near"]
    assert hostile.refusals == []
    # the hostile guest heard of every refusal, from the player who made it
    told = [(p, note) for p, note in hostile.notes if note.startswith("refused")]
    assert [p for p, _ in told] == [0, 0, 0, 2]


async def _table_with_a_chatty_guest():
    notes: asyncio.Queue[str] = asyncio.Queue()
    rules = RuleSet().but(game_target=15)
    heard: list[tuple[int, str]] = []
    host = TableHost(
        GreedyPlayer(), rules, 3, timing=TIMING, on_note=notes.put_nowait,
        on_emote=lambda p, name: heard.append((p, name)),
    )  # fmt: skip
    await host.start()
    (chatty, other), games = await _two_guests_play(host, notes)
    await host.send_chat("  good   luck,\tall  ")
    await chatty.send_emote("hello")
    for n in range(12):  # a flood: the first lines are shown, then its player is muted
        await chatty.send_chat(f"line {n}")
    ended = await asyncio.wait_for(asyncio.gather(*games), 60)
    for t in (host, chatty, other):
        await t.close()
    return ended, host, chatty, other, heard


def test_table_chat_reaches_everyone_and_a_flood_is_muted():
    ended, host, chatty, other, heard = asyncio.run(_table_with_a_chatty_guest())
    assert [e.reason for e in ended] == ["finished"] * 3
    assert heard == [(1, "hello")]
    for t in (host, chatty, other):  # the host's line, tidied, at every player
        assert (0, "good luck, all") in t.chat, t.chat
    for t in (host, other):  # the flood's first lines (the emote took one), the rest dropped
        shown = [text for p, text in t.chat if p == 1]
        assert shown == [f"line {n}" for n in range(7)], t.chat
        assert t.refusals == [], t.refusals  # a flood is no refusal: its player is muted
    assert (0, "player 1 is muted: too many chat lines") in other.notes
    assert any(p == 0 and note.startswith("you are muted") for p, note in chatty.notes)
    assert chatty.refusals == []
