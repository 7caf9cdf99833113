"""Leaving a match over a line that just dropped: the bye must still reach the opponent.

Over real loopback TLS: a link the peer has closed can swallow a write without an error, so
a bye sent then is lost unless the leaving side reconnects and resends it before it ends.
"""

import asyncio
import json

from net_harness import ScriptedPlayer

from gin3d.engine import RuleSet
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.session import GONE, SAVED_BYE, WAITING, Timing
from gin3d.players import GreedyPlayer

LOOP = "127.0.0.1"
RULES = RuleSet.preset("classic", game_target=150)


async def _paused_pair(tmp_path, timing: Timing):
    """Host and guest over TLS, the guest paused on its first turn of hand 2."""
    paused = asyncio.Event()

    async def hook(session, view):
        paused.set()
        await asyncio.Event().wait()  # the player is in the pause menu

    (tmp_path / "host").mkdir()
    (tmp_path / "guest").mkdir()
    host = HostedMatch(
        GreedyPlayer(),
        RULES,
        listen=LOOP,
        port=0,
        options=MatchOptions(save_dir=str(tmp_path / "host"), timing=timing, retry=0.05),
    )
    await host.start()
    guest = JoinedMatch(
        ScriptedPlayer(hook, lambda v: v.hand_number == 1),
        host.code,
        direct=(LOOP, host.port),
        options=MatchOptions(save_dir=str(tmp_path / "guest"), timing=timing, retry=0.05),
    )
    await guest.start()
    await asyncio.wait_for(paused.wait(), 60)
    return host, guest


def test_save_and_leave_right_after_the_line_drops_reaches_the_opponent(tmp_path):
    async def scenario():
        host, guest = await _paused_pair(tmp_path, Timing(farewell=60))
        try:
            h = host.session
            h._drop(h.link, "no heartbeat")  # the host gave up on this link
            # the guest has not noticed yet: its bye goes out on the dead link
            path = await asyncio.wait_for(
                guest.session.save_and_leave(tmp_path / "guest" / "mine.json"), 60
            )
            ended = await asyncio.wait_for(asyncio.gather(host.wait(), guest.wait()), 60)
            return ended, path, host.session.autosave
        finally:
            await host.close()
            await guest.close()

    (hr, gr), path, host_file = asyncio.run(scenario())
    assert (hr.reason, hr.detail) == ("opponent left", SAVED_BYE)
    assert (gr.reason, gr.detail) == ("you left", SAVED_BYE)
    mine = json.loads(path.read_text())
    theirs = json.loads(open(host_file).read())
    assert mine["games"][0]["hands"] == theirs["games"][0]["hands"]
    assert len(mine["games"][0]["hands"]) == 1 and mine["moves"] == theirs["moves"]


def test_leaving_while_the_line_stays_down_leaves_the_other_side_a_save(tmp_path):
    async def scenario():
        host, guest = await _paused_pair(tmp_path, Timing(farewell=0.2, grace=0.2))
        try:
            host.server.close()  # no way back: the guest cannot reconnect
            h = host.session
            gone = asyncio.Event()
            h.callbacks.on_status = lambda s: gone.set() if s == GONE else None
            h._drop(h.link, "no heartbeat")
            assert h.status == WAITING
            await guest.session.save_and_leave(tmp_path / "guest" / "mine.json")
            gr = await guest.wait()  # ends after the farewell, without the host's word
            await asyncio.wait_for(gone.wait(), 60)
            assert not host.done  # the host never heard the bye
            kept = json.loads(open(h.autosave).read())
            await h.save_and_leave(tmp_path / "host" / "mine.json")  # it may leave too
            return gr, await host.wait(), kept
        finally:
            await host.close()
            await guest.close()

    gr, hr, kept = asyncio.run(scenario())
    assert (gr.reason, gr.detail) == ("you left", SAVED_BYE)
    assert (hr.reason, hr.detail) == ("you left", SAVED_BYE)
    assert len(kept["games"][0]["hands"]) == 1
