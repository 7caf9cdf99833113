"""Modified peers that try to crash the other side: every such message is refused, never an
exception, and the honest side's table, match and state carry on unchanged."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import stat
from pathlib import Path

import pytest
from net_harness import MATCH, ScriptedPlayer, play_pair, play_until_hooked, snapshot

from gin3d import paths
from gin3d.engine import CARDS, Card, RuleSet
from gin3d.net.links import memory_pair
from gin3d.net.offer import rules_label
from gin3d.net.peer import HostedMatch, JoinedMatch
from gin3d.net.protocol import HEADER
from gin3d.net.session import (
    CHAT_KEPT,
    CHEATED,
    MOVE_REFUSED,
    STALLED,
    Callbacks,
    MatchEnded,
    MatchSession,
)
from gin3d.net.tracker import DuplicateCard, HandTracker
from gin3d.net.transport import Identity, handshake, open_table_code, tls_link
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)
LOOP = "127.0.0.1"
HUGE = b"9" * 5000  # a JSON integer Python refuses to convert (over 4,300 digits)


async def _open_table() -> HostedMatch:
    host = HostedMatch(GreedyPlayer(), SHORT, listen=LOOP, port=0, open_table=True)
    await host.start()
    return host


async def _raw(link, body: bytes) -> None:
    link.writer.write(HEADER.pack(len(body)) + body)
    await link.writer.drain()


async def _closed(link) -> bool:
    """Whether the other end closed the link (read until EOF, bounded in time)."""
    try:
        while await asyncio.wait_for(link.reader.read(65536), 10):
            pass
    except (ConnectionError, OSError):
        pass
    return True


async def _honest_guest_plays(host: HostedMatch) -> list[str]:
    guest = JoinedMatch(
        GreedyPlayer(), "", direct=(LOOP, host.port), open_fingerprint=host.identity.fingerprint
    )
    await guest.start()
    ended = await asyncio.wait_for(asyncio.gather(host.wait(), guest.wait()), 60)
    await guest.close()
    return [e.reason for e in ended]


def test_huge_integer_before_authentication_is_refused_and_the_table_stays_open():
    async def scenario():
        host = await _open_table()
        reader, writer = await asyncio.open_connection(LOOP, host.port)
        link, _ = await tls_link(reader, writer, "guest", Identity.generate())
        await _raw(link, b'{"t":"hello","v":' + HUGE + b',"app":"gin3d","role":"guest"}')
        assert await _closed(link)
        assert host.session is None
        assert any("digits" in f for f in host.failures)
        reasons = await _honest_guest_plays(host)
        await host.close()
        return reasons

    assert asyncio.run(scenario()) == ["finished", "finished"]


def test_huge_integer_after_authentication_does_not_pin_an_open_table():
    async def scenario():
        host = await _open_table()
        reader, writer = await asyncio.open_connection(LOOP, host.port)
        me = Identity.generate()
        link, host_fp = await tls_link(reader, writer, "guest", me)
        await handshake(link, "guest", me, open_table_code(host_fp), host_fp)
        await link.recv()  # the host's resume
        await _raw(link, b'{"t":"resume","match":"' + b"ab" * 32 + b'","got":' + HUGE + b"}")
        assert await _closed(link)
        assert host.session is None and host.peer_fingerprint is None  # the table is free
        assert any("resume failed" in f for f in host.failures)
        reasons = await _honest_guest_plays(host)
        await host.close()
        return reasons

    assert asyncio.run(scenario()) == ["finished", "finished"]


# -- modified peers inside a match (both seats in one loop, see net_harness) ------------------
def _discard_turn(view) -> bool:
    return view.phase == "discard"


async def _caught_up(session) -> None:
    """Until the host has handled everything the guest sent so far (no timing involved)."""
    host = session.peer_session
    while len(host.log.entries) < len(session.log.entries) or host.got < session.sent:
        await asyncio.sleep(0)


async def _forge(session, body: bytes | dict) -> None:
    """Send one forged message as the guest and wait until the host refused it; the host's
    state must not have moved."""
    host = session.peer_session
    await _caught_up(session)
    before = snapshot(host)
    host.refused_event.clear()
    if isinstance(body, bytes):
        await session.raw_link.send_raw(body)
    else:
        await session._send(body)
    await host.refused_event.wait()
    assert snapshot(host) == before


def _told(session) -> list[str]:
    """The refusals ``session`` sent to its peer: all the peer learns from them."""
    return [m["reason"] for m in session.outbox if m["t"] == "refused"]


def test_refusals_of_probing_discards_are_the_same_whatever_the_hidden_cards(tmp_path, monkeypatch):
    """The attack: "discard X" with no key for many X; the old refusal said "not legal"
    when the honest side held X and "a hidden card is discarded with its slot and key" when
    not. Now the words and the work done are the same, and the third probe is a verdict."""
    replays: list[int] = []  # the host's replays while it handles each probe
    watch: dict = {"tracker": None}
    real_replay = HandTracker._replay

    def counted(self, known, actions):
        if self is watch["tracker"]:
            replays[-1] += 1
        return real_replay(self, known, actions)

    monkeypatch.setattr(HandTracker, "_replay", counted)

    async def probe(session, view):
        host = session.peer_session
        held = list(host.tracker.hand.hands[0])  # cards the host holds (hidden from us)
        seen = set(view.hand) | set(view.pile) | set(held)
        unseen = [c for c in CARDS if c not in seen]  # in the stock: hidden from both
        for card in (held[0], unseen[0], held[1]):
            await _caught_up(session)
            replays.append(0)
            watch["tracker"] = host.tracker
            await _forge(
                session,
                {
                    "t": "act",
                    "hand": view.hand_number,
                    "a": f"discard {card}",
                    "prev": session.log.head,
                },
            )
            watch["tracker"] = None
        session.probed = (held[0], unseen[0], held[1])

    # the fair deal is random: now and then the host knocks before the guest's first discard
    # and wins the short game with that hand, so the probe never comes; such a match is
    # played again (a few times at most)
    for attempt in range(5):
        replays.clear()
        evidence_dir = tmp_path / f"match{attempt}"
        evidence_dir.mkdir()
        guest = ScriptedPlayer(probe, _discard_turn)
        h, g, results = asyncio.run(
            play_pair(guest_player=guest, rules=SHORT, timeout=30, evidence_dir=str(evidence_dir))
        )
        if hasattr(g, "probed"):
            break
    tmp_path = evidence_dir
    told = _told(h)
    assert len(told) == 3 and len(set(t.split(": ", 1)[1] for t in told)) == 1, told
    assert all(t.endswith(MOVE_REFUSED) for t in told)
    assert replays[0] == replays[1] == replays[2], replays  # the same work, held or unseen
    # the honest side learned of every attempt, and the third one ended the match
    assert len(h.refusals) == 3 and results[0].reason == CHEATED
    assert "3 illegal moves" in results[0].detail
    assert h.link is None and g.ended.reason == "opponent left"
    evidence = json.loads(next(tmp_path.glob("gin3d-evidence-*-seat0-*.json")).read_text())
    assert [i["message"]["a"] for i in evidence["refused"]] == [f"discard {c}" for c in g.probed]
    assert stat.S_IMODE(next(tmp_path.glob("gin3d-evidence-*")).stat().st_mode) == 0o600


class NumberNamedRules(MatchSession):
    """A host whose offer names its rules with a number (a bare write, past our encoder)."""

    async def _send(self, msg):
        if msg["t"] != "setup":
            return await super()._send(msg)
        async with self._send_lock:
            self.sent += 1
            bad = {**msg, "seq": self.sent, "rules": {**msg["rules"], "name": 5}}
            self.outbox.append(bad)
            await self.link.send_raw(json.dumps(bad).encode())


def test_rules_named_by_a_number_are_refused_before_any_screen_sees_them():
    asked = []

    async def scenario():
        a, b = memory_pair()
        stalled = asyncio.Event()
        h = NumberNamedRules(0, GreedyPlayer(), MATCH, rules=SHORT)
        g = MatchSession(
            1,
            GreedyPlayer(),
            MATCH,
            callbacks=Callbacks(
                accept_rules=lambda rules: asked.append(rules_label(rules)) or True,
                on_refused=lambda reason, by_peer: stalled.set(),
            ),
        )
        await asyncio.gather(h.attach(a), g.attach(b))
        runs = [asyncio.ensure_future(s.run()) for s in (h, g)]
        await asyncio.wait_for(stalled.wait(), 10)
        assert g.rules is None and not asked  # the offer never reached the player
        with pytest.raises(ValueError, match="claimed only once"):
            g.claim()
        later = g.clock() + g.timing.stall + 1
        g.clock = lambda: later  # the host never sends a usable offer: its time runs out
        assert g.claim_in() == 0
        g.claim()
        ended = await asyncio.wait_for(runs[1], 10)
        runs[0].cancel()
        await asyncio.gather(runs[0], return_exceptions=True)
        await h.close()
        await g.close()
        return g, ended

    g, ended = asyncio.run(scenario())
    assert (ended.reason, ended.detail) == ("claimed", STALLED)
    assert len(g.refusals) == 1 and "rule name" in g.refusals[0]


def test_a_card_opened_in_two_slots_is_a_duplicate_not_a_plain_refusal():
    """A deal whose keys open one card in two slots can no longer reach the table (the
    proofs refuse the copied entries at their step: tests/test_net_cheat_deal.py); should
    one ever get there, the tracker says DuplicateCard (a verdict), never a plain ValueError
    that would be taken for an ordinary refusal."""
    tracker = HandTracker(SHORT, dealer=0, hand_number=1, seat=0)
    tracker.learn({0: Card.parse("AS")})
    with pytest.raises(DuplicateCard, match="already known in slot 0"):
        tracker.learn({5: Card.parse("AS")})
    assert tracker.known == {0: Card.parse("AS")}  # nothing changed


class Prefers(GreedyPlayer):
    """The greedy player, but it always makes the first of ``kinds`` that is legal."""

    def __init__(self, *kinds) -> None:
        super().__init__()
        self.kinds = kinds

    def choose(self, view):
        for kind in self.kinds:
            for action in view.legal:
                if isinstance(action, kind):
                    return action
        return super().choose(view)


def test_a_huge_integer_mid_match_is_refused_and_the_game_goes_on():
    async def hook(session, view):
        await _forge(session, b'{"t":"chat","seq":' + HUGE + b',"text":"x"}')
        session.forged = True

    h, g, results = play_until_hooked(
        lambda: ScriptedPlayer(hook, _discard_turn), rules=SHORT, timeout=30
    )
    assert g.forged and [r.reason for r in results] == ["finished", "finished"]
    assert h.log.head == g.log.head
    assert len(h.refusals) == 1 and "digits" in h.refusals[0]


class Never:
    """A player (or a step) that never comes: it says when it started waiting."""

    def __init__(self) -> None:
        self.started = asyncio.Event()

    async def wait(self) -> None:
        self.started.set()
        await asyncio.Event().wait()


class NeverMoves(MatchSession):
    async def _my_turn(self, hand_no):
        await self.never.wait()


class WithholdsReveal(MatchSession):
    async def _reveal(self, hand_no):
        await self.never.wait()


class StallsTheDeal(MatchSession):
    async def _send_deck(self, deal, hand_no, step, deck):
        await self.never.wait()


@pytest.mark.parametrize("staller", [NeverMoves, WithholdsReveal, StallsTheDeal])
def test_a_peer_that_stops_playing_can_be_claimed_against_after_the_stated_time(staller):
    async def scenario():
        a, b = memory_pair()
        h = MatchSession(0, GreedyPlayer(), MATCH, rules=SHORT)
        g = staller(1, GreedyPlayer(), MATCH)
        g.never = Never()
        await asyncio.gather(h.attach(a), g.attach(b))
        runs = [asyncio.ensure_future(s.run()) for s in (h, g)]
        await asyncio.wait_for(g.never.started.wait(), 20)
        while h.claim_after is None:  # the host is now waiting for the guest's step
            await asyncio.sleep(0)
        assert h.status == "connected"  # the link is fine: heartbeats keep it up
        left = h.claim_in()
        assert 0 < left <= h.timing.stall  # what the screen counts down
        with pytest.raises(ValueError, match="claimed only once"):
            h.claim()
        before = snapshot(h) if h.tracker is not None and h.deal is not None else None
        later = h.claim_after + 0.5
        h.clock = lambda: later
        assert h.claim_in() == 0
        h.claim()
        ended = await asyncio.wait_for(runs[0], 10)
        gone = await asyncio.wait_for(runs[1], 10)  # the staller is told, and the line closed
        assert (gone.reason, gone.detail) == ("opponent left", f"claimed the match: {STALLED}")
        assert h.link is None
        if before is not None:
            assert snapshot(h) == before
        await h.close()
        await g.close()
        return ended

    ended = asyncio.run(scenario())
    assert (ended.reason, ended.detail) == ("claimed", STALLED)


def test_a_chat_flood_cannot_make_the_save_unresumable_and_saves_are_private(tmp_path):
    async def flood(session, view):
        for i in range(3000):
            await session.send_chat(f"spam {i} " + "x" * 150)
        await _caught_up(session)

    h, g, results = play_until_hooked(
        lambda: ScriptedPlayer(flood, _discard_turn), rules=SHORT, timeout=60
    )
    assert [r.reason for r in results] == ["finished", "finished"]
    assert len(h.chat) == CHAT_KEPT and h.chat[-1] == (1, "spam 2999 " + "x" * 150)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    for name in ("match.json", "match.json.tmp"):  # planted where the save is written
        (tmp_path / name).symlink_to(victim)
    path = h.save(tmp_path / "match.json")
    assert victim.read_text() == "precious" and not path.is_symlink()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the match's private key
    assert len(json.loads(path.read_text())["chat"]) == CHAT_KEPT


class FullDiskHost(MatchSession):
    """Autosaves during (``quiet``, ahead of its moves) and after every hand; once the first
    hand's save after it is written, the disk is full."""

    def __post_init__(self):
        super().__post_init__()
        self.save_errors = []
        self.callbacks.on_save_error = self.save_errors.append
        self.good = None

    def _autosave(self, quiet=False):
        if self.good is None:
            super()._autosave(quiet)
            if not quiet:
                self.good = Path(self.autosave).read_bytes()
            return
        real = paths.os.replace

        def full(*args):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        paths.os.replace = full
        try:
            super()._autosave(quiet)
        finally:
            paths.os.replace = real


def test_a_full_disk_mid_match_keeps_the_last_good_autosave_and_play_goes_on(tmp_path):
    class Host(FullDiskHost):
        def __post_init__(self):
            super().__post_init__()
            self.autosave = str(tmp_path / "auto.json")

    rules = RuleSet.preset("classic", game_target=200, match_target=500)  # several hands
    h, g, results = asyncio.run(play_pair(host_cls=Host, rules=rules, timeout=60))
    assert [r.reason for r in results] == ["finished", "finished"]
    assert len(h.game.hands) > 1 and len(h.save_errors) == len(h.game.hands) - 1
    assert "No space left" in h.save_errors[0]
    assert (tmp_path / "auto.json").read_bytes() == h.good
    assert [p.name for p in tmp_path.iterdir()] == ["auto.json"]  # no temporary file left


def test_a_revealed_deck_the_played_hand_does_not_fit_is_cheating():
    """The full replay of a hand with every card open (MatchSession._verify_hand): a
    revealed deck under which the moves played are not legal ends the match as cheating."""
    from types import SimpleNamespace

    from gin3d.engine import Hand
    from gin3d.players import GreedyPlayer

    rules = RuleSet()
    played = Hand.deal(rules, dealer=0, seed="fits")
    player = GreedyPlayer()
    while not played.over:
        played.apply(player.choose(played.view(played.turn)))
    tracker = SimpleNamespace(known={}, hand_number=0, actions=played.actions, hand=played)

    def cheated(why, peer=None):
        raise MatchEnded(CHEATED, why)

    session = SimpleNamespace(rules=rules, tracker=tracker, game=None, _cheated=cheated)
    full = MatchSession._verify_hand(session, [int(c) for c in played.deck], b"s", 0)
    assert full.over and session.game is not None  # the deck it was played with fits
    other = [int(c) for c in reversed(played.deck)]
    session.game = None
    with pytest.raises(MatchEnded, match="with all cards open the hand is not legal: "):
        MatchSession._verify_hand(session, other, b"s", 0)
    assert session.game is None
