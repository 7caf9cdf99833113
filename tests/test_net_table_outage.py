"""A guest's link to the host drops mid-game, and while it is down its player says
something at the table: the line is kept, sent on the new link once the guest is back,
and reaches every player; the game then finishes with the same log everywhere. (Before,
a guest's table message sent while its link was down was neither sent nor kept: a
commitment lost that way stopped the table.) Hands under way or starting when a link
drops go on once it is back."""

from __future__ import annotations

import asyncio

from test_net_table_hostile import LOOP, TIMING, _note, _two_guests_play

from gin3d.engine import RuleSet
from gin3d.net.tableguest import TableGuest
from gin3d.net.tablehost import TableHost
from gin3d.net.tablelink import is_resume
from gin3d.players import GreedyPlayer


async def _three_playing(target: int):
    """A host and two guests (players 1 and 2) playing a game to ``target``: the host,
    the guests and the games under way."""
    notes: asyncio.Queue[str] = asyncio.Queue()
    host = TableHost(
        GreedyPlayer(),
        RuleSet().but(game_target=target),
        3,
        timing=TIMING,
        on_note=notes.put_nowait,
    )
    await host.start()
    guests, games = await _two_guests_play(host, notes)
    return host, guests, games


async def _a_line_said_while_the_link_is_down():
    host, (away, other), games = await _three_playing(15)
    await away._lost(0, "the cable was pulled", away.links[0])  # as its reader would
    assert 0 not in away.links  # down: it dials the host again from here
    await away.send_chat("sorry, my link dropped")
    ended = await asyncio.wait_for(asyncio.gather(*games), 60)
    for t in (host, away, other):
        await t.close()
    return ended, host, away, other


def test_a_guests_line_said_while_its_link_is_down_reaches_every_player():
    ended, host, away, other = asyncio.run(_a_line_said_while_the_link_is_down())
    assert [e.reason for e in ended] == ["finished"] * 3, [e.detail for e in ended]
    for t in (host, other):
        assert (1, "sorry, my link dropped") in t.chat, t.chat
    assert len({t.table.log.head for t in (host, away, other)}) == 1


async def _until(ready, what: str, timeout: float = 20) -> None:
    """Poll ``ready`` (a state of the table, not a time) until it holds, or fail."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ready():
        assert loop.time() < deadline, f"no {what}"
        await asyncio.sleep(0.01)


class Hesitant(GreedyPlayer):
    """Greedy, but the first time it is to move in a hand with player 1 it waits to be let
    go (``go``), as a person thinks: the hand is then under way at both its players."""

    def __init__(self) -> None:
        super().__init__()
        self.table: TableGuest | None = None
        self.thinking = asyncio.Event()
        self.go = asyncio.Event()

    async def choose_async(self, view):
        if not self.go.is_set() and any(o == 1 for _, o in self.table.pairs):
            self.thinking.set()
            await self.go.wait()
        return self.choose(view)


async def _both_guests_of_a_hand_drop_and_the_first_comes_back_first():
    notes: asyncio.Queue[str] = asyncio.Queue()
    host = TableHost(
        GreedyPlayer(), RuleSet().but(game_target=100), 3, timing=TIMING, on_note=notes.put_nowait
    )
    await host.start()
    hesitant = Hesitant()
    first = TableGuest(GreedyPlayer(), host.code, (LOOP, host.port), timing=TIMING)
    second = TableGuest(hesitant, host.code, (LOOP, host.port), timing=TIMING)
    hesitant.table = second
    for i, guest in ((1, first), (2, second)):
        await guest.start()
        await _note(notes, f"seated player {i}")
    games = [asyncio.ensure_future(t.play()) for t in (host, first, second)]
    await asyncio.wait_for(hesitant.thinking.wait(), 30)  # a hand of the two guests
    hand = next(h for h, o in second.pairs if o == 1)
    second._gone(0, second.links[0])  # its link dies; it dials again only later
    await _until(lambda: 2 in host.waiting, "the host waiting for player 2")
    await first._lost(0, "the relay went down", first.links[0])  # it dials again at once
    # back, it resumes the hand with player 2: its resume reaches the host, player 2 away
    await _until(lambda: (hand, 1) in host.held.get(2, {}), "player 1's resume kept")
    second._spawn(second._redial())
    hesitant.go.set()
    ended = await asyncio.wait_for(asyncio.gather(*games), 90)
    for t in (host, first, second):
        await t.close()
    return ended, host, first, second


def test_a_hand_goes_on_when_both_its_guests_drop_and_come_back_one_after_the_other():
    """Both players of a hand are guests and both links drop; the first comes back and
    resumes the hand while the second is still away: the host keeps that resume for the
    second and gives it on its return, so the hand (and the game) goes on. (Before, it was
    lost: the second waited for it until the table was claimed.)"""
    ended, host, first, second = asyncio.run(
        _both_guests_of_a_hand_drop_and_the_first_comes_back_first()
    )
    assert [e.reason for e in ended] == ["finished"] * 3, [e.detail for e in ended]
    assert len({t.table.log.head for t in (host, first, second)}) == 1


async def _a_hand_begins_as_its_guests_link_dies():
    host, (first, away), games = await _three_playing(100)
    # the link dies just as the first frame of the host's next hand with player 2 comes
    # (that frame is lost with it, its match waiting for it); player 2 dials again at once
    link, lost = away.links[0], []
    recv = link.recv

    async def dying() -> dict:
        msg = await recv()
        if not lost and msg["t"] == "tpair" and msg["p"] == 0 and is_resume(msg["m"]):
            key = (msg["hand"], 0)
            if key not in away.pairs or key in away.attaching:  # a hand still starting
                lost.append(msg["hand"])
                link.close()
                raise ConnectionResetError("the link died")
        return msg

    link.recv = dying
    ended = await asyncio.wait_for(asyncio.gather(*games), 90)
    for t in (host, first, away):
        await t.close()
    return ended, lost[0], host, first, away


def test_a_hand_begun_as_its_guests_link_died_starts_when_it_comes_back():
    """The link between the host and player 2 dies just as their next hand begins: the
    first frame each sends (its resume) is lost, and each waits for the other's. When
    player 2 is back (within the grace time) each hand still starting sends its first frame
    again, and the hand and the game go on. (Before, neither did: player 2 waited until the
    hand was given up, 'it did not start', and the table ended.)"""
    ended, hand, host, first, away = asyncio.run(_a_hand_begins_as_its_guests_link_dies())
    assert [e.reason for e in ended] == ["finished"] * 3, [e.detail for e in ended]
    assert len({t.table.log.head for t in (host, first, away)}) == 1
    # that hand was played, by the host and player 2, and is in every log
    seats = {e["seat"] for e in host.table.log.entries if e["hand"] == hand}
    assert seats == {0, 2}, (hand, seats)
