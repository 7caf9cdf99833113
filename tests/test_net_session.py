"""A whole match between two sessions in memory, and a dishonest peer being refused."""

import asyncio
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from net_harness import MATCH, ScriptedPlayer, play_pair, snapshot

from gin3d.engine import Discard, RuleSet
from gin3d.net.group import random_scalar
from gin3d.net.protocol import key_hex
from gin3d.net.session import CHEATED, MatchSession

SHORT = RuleSet.preset("classic", game_target=30)


def _finished(h, g, results, target=100):
    assert [r.reason for r in results] == ["finished", "finished"]
    assert h.log.head == g.log.head and h.log.verify()
    assert h.games[0].totals() == g.games[0].totals()
    assert max(h.games[0].score.running()) >= target


def test_full_game_to_100_in_memory():
    h, g, results = asyncio.run(play_pair())
    _finished(h, g, results)
    assert not h.refusals and not g.refusals
    # the verified games rebuild from their decks and actions alone
    replay = h.games[0].replay()
    assert replay.totals() == h.games[0].totals()


def _discard_turn(view):
    return view.phase == "discard"


async def _inject(session, forged_act, raw=False):
    """Send a forged message as the guest, wait until the host refused it, check the host's
    state did not move."""
    host = session.peer_session
    while len(host.log.entries) < len(session.log.entries) or host.got < session.sent:
        await asyncio.sleep(0)  # let the host catch up with the guest's earlier messages
    before = snapshot(host)
    host.refused_event.clear()
    if raw:
        await session.raw_link.send_raw(forged_act)
    else:
        await session._send(forged_act)
    await host.refused_event.wait()
    assert snapshot(host) == before
    session.injected = True


def _forged_game(make_forged, raw=False, cheat=False):
    async def hook(session, view):
        forged = make_forged(session, view)
        if forged is None:  # nothing to forge on this turn: try again on the next one
            guest.times += 1
            return
        await _inject(session, forged, raw)

    # a short game on a random deal can end before the guest's first move, where the
    # forgery is sent; such a match is played again (at most five in all)
    for _ in range(5):
        guest = ScriptedPlayer(hook, _discard_turn)
        h, g, results = asyncio.run(play_pair(guest_player=guest, rules=SHORT))
        if getattr(g, "injected", False):
            break
    assert getattr(g, "injected", False)
    if cheat:  # a key that is not the one locked at the deal: refused, then a cheat verdict
        assert results[0].reason == CHEATED and "evidence" in results[0].detail
    else:
        _finished(h, g, results, 30)  # the refused move changed nothing; the game went on
    assert len(h.refusals) == 1
    return h.refusals[0]


def test_discarding_a_card_it_does_not_hold_is_refused():
    def forge(session, view):
        theirs = session.peer_session.tracker.hand.hands[0][0]  # a card the host holds
        return {
            "t": "act",
            "hand": view.hand_number,
            "a": f"discard {theirs}",
            "prev": session.log.head,
        }

    assert "not legal" in _forged_game(forge)


def test_wrong_key_is_refused():
    def forge(session, view):
        t = session.tracker
        slot = next(
            (
                s
                for s in t.held_slots(1)
                if s not in session._opened_by_me and t.known[s] in view.hand
            ),
            None,
        )
        if slot is None:  # every held card is already open: forge on a later turn
            return None
        return {
            "t": "act",
            "hand": view.hand_number,
            "a": f"discard {t.known[slot]}",
            "prev": session.log.head,
            "keys": [[slot, key_hex(random_scalar())]],
        }

    assert "does not match its lock" in _forged_game(forge, cheat=True)


def test_illegal_move_is_refused():
    def forge(session, view):
        return {"t": "act", "hand": view.hand_number, "a": "draw stock", "prev": session.log.head}

    assert "not legal" in _forged_game(forge)


def test_move_log_out_of_step_is_refused():
    def forge(session, view):
        card = next(a.card for a in view.legal if isinstance(a, Discard))
        return {"t": "act", "hand": view.hand_number, "a": f"discard {card}", "prev": "00" * 32}

    assert "hash chain" in _forged_game(forge)


def test_out_of_order_sequence_number_is_refused():
    def forge(session, view):
        msg = {"t": "chat", "seq": session.sent + 5, "text": "hello"}
        return json.dumps(msg).encode()

    assert "out of order" in _forged_game(forge, raw=True)


class WrongDrawKey(MatchSession):
    """Answers the first stock draw of the opponent with a wrong key first."""

    async def _send(self, msg):
        if (
            msg["t"] == "keys"
            and self.tracker is not None
            and self.tracker.actions
            and not getattr(self, "lied", False)
        ):
            self.lied = True
            while self.peer_session.got < self.sent:
                await asyncio.sleep(0)
            before = snapshot(self.peer_session)
            self.refused_event_peer = self.peer_session.refused_event
            self.refused_event_peer.clear()
            bad = [[s, key_hex(random_scalar())] for s, _ in msg["keys"]]
            await super()._send({**msg, "keys": bad})
            await self.refused_event_peer.wait()
            assert snapshot(self.peer_session) == before
        await super()._send(msg)


def test_wrong_key_for_a_drawn_card_is_refused():
    # A short game on a random deal can end before the host first draws from the stock, so
    # the lie never comes; such a match is played again (at most five in all).
    for _ in range(5):
        h, g, results = asyncio.run(play_pair(guest_cls=WrongDrawKey, rules=SHORT))
        if getattr(g, "lied", False):
            break
    assert g.lied
    assert results[0].reason == CHEATED and "does not match its lock" in results[0].detail
    assert len(h.refusals) == 1 and "keys refused" in h.refusals[0]


class LyingReveal(MatchSession):
    """Claims a different shuffle than the one it did when the hand is revealed."""

    async def _reveal(self, hand_no):
        self.deal.mine.perm = self.deal.mine.perm[1:] + self.deal.mine.perm[:1]
        return await super()._reveal(hand_no)


def test_lying_about_the_shuffle_ends_the_match_with_evidence(tmp_path):
    h, g, results = asyncio.run(play_pair(guest_cls=LyingReveal, evidence_dir=str(tmp_path)))
    assert results[0].reason == CHEATED
    assert "step 2" in results[0].detail
    files = sorted(tmp_path.glob("gin3d-evidence-*-seat0-*.json"))
    assert files
    evidence = json.loads(files[0].read_text())
    assert evidence["verdict"] == CHEATED and len(evidence["decks"]) == 4
    assert evidence["peer_reveal"]["perm"]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.binary(min_size=0, max_size=200), min_size=1, max_size=4))
def test_random_bytes_from_the_peer_are_refused(frames):
    async def scenario():
        stop = asyncio.Event()

        async def hook(session, view):
            for body in frames:
                await _inject(session, body, raw=True)
            stop.set()

        guest = ScriptedPlayer(hook, _discard_turn)
        task = asyncio.ensure_future(play_pair(guest_player=guest, max_refusals=1000))
        await stop.wait()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return guest.session.peer_session

    host = asyncio.run(scenario())
    assert len(host.refusals) == len(frames)


def test_rematch_plays_another_game_with_a_fresh_seed():
    answers = {0: [True, False], 1: [True, False]}

    class Rematching(MatchSession):
        def __post_init__(self):
            super().__post_init__()
            self.callbacks.rematch = lambda: answers[self.seat].pop(0)

    h, g, results = asyncio.run(play_pair(host_cls=Rematching, guest_cls=Rematching, rules=SHORT))
    assert [r.reason for r in results] == ["finished", "finished"]
    assert len(h.games) == len(g.games) == 2
    assert [x.totals() for x in h.games] == [x.totals() for x in g.games]
    assert h.log.head == g.log.head
    assert {e["game"] for e in h.log.entries} == {0, 1}
    assert h.games[0].hands[0].deck != h.games[1].hands[0].deck


def test_vanished_opponent_can_be_claimed_and_the_match_saved(tmp_path):
    from gin3d.net.links import memory_pair
    from gin3d.net.session import GONE, WAITING, Callbacks, Timing

    async def scenario():
        a, b = memory_pair()
        statuses = []
        gone = asyncio.Event()

        def status(text):
            statuses.append(text)
            if text == GONE:
                gone.set()

        async def vanish(session, view):
            await session.send_chat("brb")
            while not session.peer_session.chat:
                await asyncio.sleep(0)  # let the chat arrive before the line goes
            session.link.close()  # the line drops and never comes back
            await gone.wait()
            host = session.peer_session
            path = host.save(tmp_path / "saved.json")
            host.claim()
            session.vanished = path

        timing = Timing(heartbeat=0.05, dead_after=10, grace=0.2)
        h = MatchSession(
            0,
            ScriptedPlayer(),
            MATCH,
            rules=SHORT,
            timing=timing,
            callbacks=Callbacks(on_status=status),
        )
        guest_player = ScriptedPlayer(vanish, _discard_turn)
        g = MatchSession(1, guest_player, MATCH, timing=timing)
        guest_player.session = g
        g.peer_session = h
        await asyncio.gather(h.attach(a), g.attach(b))
        guest_run = asyncio.ensure_future(g.run())
        ended = await h.run()
        guest_run.cancel()
        await asyncio.gather(guest_run, return_exceptions=True)
        return h, g, ended, statuses

    # a short game on a random deal can end before the guest's first move, where it
    # vanishes; such a match is played again (at most five in all)
    for _ in range(5):
        h, g, ended, statuses = asyncio.run(scenario())
        if getattr(g, "vanished", None) is not None:
            break
    assert ended.reason == "claimed"
    assert statuses[-2:] == [WAITING, GONE]
    saved = json.loads(g.vanished.read_text())
    assert saved["match"] == MATCH and saved["moves"] == h.log.entries
    assert saved["chat"] == [[1, "brb"]]
    assert saved["current_hand"]["my_cards"]


def test_the_real_computer_players_plug_in_as_seats():
    from gin3d.ai import LEVELS, make_player

    levels = list(LEVELS)
    h, g, results = asyncio.run(
        play_pair(make_player(levels[0], seed=1), make_player(levels[-1], seed=2), rules=SHORT)
    )
    _finished(h, g, results, 30)
    assert not h.refusals and not g.refusals
