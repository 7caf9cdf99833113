"""One misbehaving player never ends a table for the others (docs/lobby.md, *A player who
misbehaves at a table*). A table of three in one event loop over loopback TLS:

- a guest floods the chat: its lines past the budget are dropped, it is muted and told so,
  the others hear that it was muted, and the game finishes as usual;
- a guest stops playing (its link stays up, it never makes its move): after the stall time
  its opponent claims the hand, the host removes it (every honest player hears the verdict),
  the computer plays its seat, and the game finishes with the same log at the honest players;
- a guest sends the host message after refused message: at the limit it is removed as a
  cheater (and cannot take its seat back), and the game goes on to its end.
"""

from __future__ import annotations

import asyncio

from test_net_table_hostile import TIMING, _two_guests_play
from test_net_table_outage import _until

from gin3d.engine import RuleSet
from gin3d.net.session import Timing
from gin3d.net.tablehost import TableHost
from gin3d.players import GreedyPlayer

STALLING = Timing(heartbeat=0.3, dead_after=2.5, grace=60, stall=4)


async def _table(target: int, timing: Timing, players=(None, None)):
    """A host and two guests (players 1 and 2, ``players`` their players, Greedy if None),
    each able to run the computer player of a removed one; the games under way."""
    notes: asyncio.Queue[str] = asyncio.Queue()
    heard: list[str] = []

    def note(text: str) -> None:
        heard.append(text)
        notes.put_nowait(text)

    rules = RuleSet().but(game_target=target)
    host = TableHost(GreedyPlayer(), rules, 3, timing=timing, on_note=note, stand_in=GreedyPlayer())
    await host.start()
    guests, games = await _two_guests_play(host, notes, timing, players, stand_in=GreedyPlayer())
    return host, guests, games, heard


async def _close(*tables) -> None:
    for t in tables:
        await t.close()


async def _a_chat_flood():
    host, (flooder, other), games, heard = await _table(15, TIMING)
    for n in range(60):  # as fast as it can
        await flooder.send_chat(f"line {n}")
    ended = await asyncio.wait_for(asyncio.gather(*games), 60)
    await _close(host, flooder, other)
    return ended, host, flooder, other, heard


def test_a_chat_flooder_is_muted_and_the_game_goes_on():
    ended, host, flooder, other, heard = asyncio.run(_a_chat_flood())
    assert [e.reason for e in ended] == ["finished"] * 3, [e.detail for e in ended]
    assert len({t.table.log.head for t in (host, flooder, other)}) == 1
    shown = [text for p, text in host.chat if p == 1]
    assert 8 <= len(shown) < 60 and shown == [f"line {n}" for n in range(len(shown))], shown
    assert [text for p, text in other.chat if p == 1] == shown  # the host passes on no more
    assert host.refusals == [] and other.refusals == []  # a flood is no refusal
    assert "player 1 is muted: too many chat lines" in heard  # the host's own note
    assert (0, "player 1 is muted: too many chat lines") in other.notes
    told = [note for p, note in flooder.notes if p == 0]
    assert any(note.startswith("you are muted: too many chat lines") for note in told), told


class Staller(GreedyPlayer):
    """Deals and keeps its link up as any player, but never makes a move."""

    def __init__(self) -> None:
        super().__init__()
        self.stuck = asyncio.Event()

    async def choose_async(self, view):
        self.stuck.set()
        await asyncio.Event().wait()  # never: its opponent waits for the move


async def _a_staller():
    staller = Staller()
    host, (other, stalling), games, heard = await _table(100, STALLING, (None, staller))
    ended = await asyncio.wait_for(asyncio.gather(*games), 120)
    assert staller.stuck.is_set()
    await _close(host, other, stalling)
    return ended, host, other, stalling, heard


def test_a_player_who_stops_playing_is_removed_and_the_computer_plays_its_seat():
    ended, host, other, stalling, heard = asyncio.run(_a_staller())
    assert [e.reason for e in ended[:2]] == ["finished"] * 2, [e.detail for e in ended]
    assert host.table.log.head == other.table.log.head
    assert 2 in host.removed and 2 in host.away and 2 in other.away
    verdict = [text for text in heard if text.startswith("player 2 was removed")]
    assert verdict and "for not playing" in verdict[0], heard
    assert (0, verdict[0]) in other.notes  # the host's verdict, at the other honest player
    # from the hand it was removed at, the computer played its seat to the end
    entries = host.table.log.entries
    assert any(e["seat"] == 2 and e["hand"] >= host.away[2] for e in entries)


async def _a_guest_sends_refused_messages():
    host, (cheater, other), games, heard = await _table(30, TIMING)
    await _until(lambda: host.table is not None and other.table is not None, "the game")
    link = cheater.links[0]
    for _ in range(25):  # in another player's name: refused by the host, each of them
        await link.send(cheater.sig.sign({"t": "tcommit", "p": 2, "commit": "00" * 32}))
    ended = await asyncio.wait_for(asyncio.gather(*games[0::2]), 90)
    await _close(host, cheater, other)
    games[1].cancel()
    return ended, host, cheater, other, heard


def test_a_guest_caught_cheating_is_removed_and_the_game_goes_on():
    ended, host, cheater, other, heard = asyncio.run(_a_guest_sends_refused_messages())
    assert [e.reason for e in ended] == ["finished"] * 2, [e.detail for e in ended]
    assert host.table.log.head == other.table.log.head
    assert 1 in host.removed and 1 in other.away and 1 not in host.back
    assert len(host.refusals) == 20  # past the verdict its messages are not heard
    verdict = [text for text in heard if text.startswith("player 1 was removed")]
    assert verdict and "refused" in verdict[0], heard
    assert (0, verdict[0]) in other.notes
    assert (0, verdict[0]) in cheater.notes  # the cheater is told too
