"""A player back at a table after an absence is sent every hand it missed at once (their
records, then the first frames of the hand it plays again), before its own table has
replayed them: none of it may be refused as "not near", or the table waits for a record
it threw away until the stall time."""

from __future__ import annotations

import asyncio

from gin3d.net.session import CHEATED
from gin3d.net.table import MAX_TABLE_REFUSALS, RECORDS_AHEAD, TablePeer
from gin3d.net.tablelink import AHEAD, PairInbox
from gin3d.players import GreedyPlayer


def test_the_first_frames_of_the_hand_we_play_again_are_kept_while_we_catch_up():
    inbox = PairInbox()
    far = AHEAD + 4
    assert inbox.put(far, 1, "frame") == f"a frame for hand {far + 1}, which is not near"
    inbox.rejoin(far)
    assert inbox.put(far, 1, "frame") is None
    assert inbox.put(far + AHEAD + 1, 1, "frame") is not None  # still bounded
    assert inbox.queue(far, 1).qsize() == 1


def test_taking_our_seat_back_opens_the_hand_we_play_again_from():
    peer = TablePeer(GreedyPlayer())
    peer.index, peer.players = 2, 3
    peer._set_away(2, 1)
    peer._set_back(2, 8)
    assert peer.inbox.put(8, 0, "frame") is None
    peer._set_back(1, 20)  # another player's seat changes nothing for us
    assert peer.inbox.put(20, 0, "frame") is not None


def test_records_of_the_hands_we_missed_are_kept_however_many():
    peer = TablePeer(GreedyPlayer())
    peer.index, peer.players = 2, 3

    async def send_records() -> None:
        for hand in range(12):  # a long absence: far more than AHEAD hands
            msg = {"t": "trecord", "p": 0, "hand": hand, "deck": list(range(52)), "actions": []}
            await peer._take_record(msg)

    asyncio.run(send_records())
    assert peer.refusals == []
    assert sorted(h for h, _ in peer.records) == list(range(12))


def test_a_flood_of_records_for_hands_far_ahead_is_refused_and_bounded():
    """A modified player sending records for hands no table could have reached: refused
    past ``RECORDS_AHEAD`` hands, so what one player can make us hold stays bounded."""
    peer = TablePeer(GreedyPlayer())
    peer.index, peer.players = 0, 3

    async def flood() -> None:
        for hand in range(RECORDS_AHEAD - 2, RECORDS_AHEAD + 40):
            msg = {"t": "trecord", "p": 1, "hand": hand, "deck": list(range(52)), "actions": []}
            await peer._take_record(msg)

    asyncio.run(flood())
    assert sorted(h for h, _ in peer.records) == [
        RECORDS_AHEAD - 2,
        RECORDS_AHEAD - 1,
        RECORDS_AHEAD,
    ]
    assert len(peer.refusals) == MAX_TABLE_REFUSALS  # later ones are not even told of
    # that many refusals from one player is a cheat verdict: a host or a guest has the
    # player removed (tests/test_net_table_misbehave.py); a bare peer, with nobody to ask,
    # stops the table
    assert peer.ended is not None and peer.ended.reason == CHEATED
    assert peer.refusals[0] == f"player 1 sent a record of hand {RECORDS_AHEAD + 2} out of turn"
