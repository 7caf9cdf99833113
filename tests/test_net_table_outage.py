"""A guest's link to the host drops mid-game, and while it is down its player says
something at the table: the line is kept, sent on the new link once the guest is back,
and reaches every player; the game then finishes with the same log everywhere. (Before,
a guest's table message sent while its link was down was neither sent nor kept: a
commitment lost that way stopped the table.)"""

from __future__ import annotations

import asyncio

from test_net_table_hostile import TIMING, _two_guests_play

from gin3d.engine import RuleSet
from gin3d.net.tablehost import TableHost
from gin3d.players import GreedyPlayer


async def _a_line_said_while_the_link_is_down():
    notes: asyncio.Queue[str] = asyncio.Queue()
    host = TableHost(
        GreedyPlayer(), RuleSet().but(game_target=15), 3, timing=TIMING, on_note=notes.put_nowait
    )
    await host.start()
    (away, other), games = await _two_guests_play(host, notes)
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
