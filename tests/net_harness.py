"""Run both seats of a network match in one event loop over an in-memory link."""

from __future__ import annotations

import asyncio

from gin3d.net.links import memory_pair
from gin3d.net.relay import claim_verifier
from gin3d.net.session import Callbacks, MatchSession, Timing
from gin3d.net.transport import room_claim, room_id
from gin3d.players import GreedyPlayer

MATCH = "ab" * 32


def relay_proofs(code: str) -> tuple[str, str, str]:
    """What a host and its guest show the relay: the room, the guest's claim, the verifier."""
    claim = room_claim(code)
    return room_id(code), claim, claim_verifier(claim)


def snapshot(s: MatchSession) -> tuple:
    """Everything a refused message must leave alone."""
    t = s.tracker
    return (
        list(t.actions),
        dict(t.known),
        s.log.head,
        len(s.log.entries),
        dict(s.deal.peer_keys),
        [list(h) for h in t.hand.hands],
        list(t.hand.pile),
    )


class ScriptedPlayer:
    """The greedy player, plus a hook run (once per call of ``when``) before it chooses."""

    def __init__(self, hook=None, when=lambda view: True, times: int = 1) -> None:
        self.base = GreedyPlayer()
        self.hook = hook
        self.when = when
        self.times = times
        self.session: MatchSession | None = None

    async def choose_async(self, view):
        if self.hook is not None and self.times > 0 and self.when(view):
            self.times -= 1
            await self.hook(self.session, view)
        return self.base.choose(view)


async def play_pair(
    host_player=None,
    guest_player=None,
    host_cls=MatchSession,
    guest_cls=MatchSession,
    evidence_dir=None,
    timeout: float = 60,
    max_refusals: int = 20,
    rules=None,
):
    a, b = memory_pair()
    refused = [asyncio.Event(), asyncio.Event()]

    def on_refused(seat):
        def fire(reason, by_peer):
            if not by_peer:
                refused[seat].set()

        return fire

    sessions = []
    for seat, cls, player in ((0, host_cls, host_player), (1, guest_cls, guest_player)):
        s = cls(
            seat,
            player or GreedyPlayer(),
            MATCH,
            rules=rules if seat == 0 else None,
            callbacks=Callbacks(on_refused=on_refused(seat)),
            timing=Timing(),
            evidence_dir=evidence_dir,
            max_refusals=max_refusals,
        )
        if isinstance(player, ScriptedPlayer):
            player.session = s
        s.refused_event = refused[seat]
        sessions.append(s)
    h, g = sessions
    h.peer_session, g.peer_session = g, h
    h.raw_link, g.raw_link = a, b
    await asyncio.gather(h.attach(a), g.attach(b))
    results = await asyncio.wait_for(asyncio.gather(h.run(), g.run()), timeout)
    await h.close()
    await g.close()
    return h, g, results


def play_until_hooked(make_guest, **kw):
    """``play_pair`` with a fresh guest from ``make_guest()`` until the guest's hook ran: a
    short game on a random deal can end before the guest's first move, where a scripted
    attack is made (at most five matches in all). Returns the last match's results."""
    for _ in range(5):
        guest = make_guest()
        h, g, results = asyncio.run(play_pair(guest_player=guest, **kw))
        if guest.times < 1:  # the hook ran (a guest whose hook was never called keeps 1)
            break
    return h, g, results
