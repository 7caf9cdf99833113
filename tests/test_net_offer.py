"""The host's rules before and during a match: advertised on the LAN, confirmed by the guest,
and refused when the host's match does not use the rules it offered (or changes them in a
rematch, or two saves hold different rules). Also saving and leaving, and the saves list."""

from __future__ import annotations

import asyncio
import json

import pytest
from net_harness import MATCH, ScriptedPlayer

from gin3d.engine import RuleSet
from gin3d.net.discovery import table_from_info
from gin3d.net.links import memory_pair
from gin3d.net.offer import rules_digest, rules_from_token, rules_label, rules_token
from gin3d.net.savelist import delete_saved, list_saved, read_save
from gin3d.net.session import (
    DECLINED,
    RULES_REFUSED,
    SAVED_BYE,
    Callbacks,
    MatchEnded,
    MatchSession,
)
from gin3d.players import GreedyPlayer

PAGAT = RuleSet.preset("pagat", game_target=50, last_chance=True)
OKLAHOMA = RuleSet.preset("oklahoma")


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        PAGAT,
        OKLAHOMA,
        RuleSet.preset("pagat", game_target=250, allow_throw_back=True, straight_gin=True),
    ],
)
def test_rules_token_round_trips(rules):
    token = rules_token(rules)
    assert len(token) <= 240 and rules_from_token(token) == rules
    assert rules_digest(rules_from_token(token)) == rules_digest(rules)


@pytest.mark.parametrize(
    "token",
    [
        "",
        "poker",
        "classic;game_target=abc",
        "classic;bogus=1",
        "classic;last_chance=2",
        "classic;name=x",
        "classic;game_target=50;game_target=60",
        "x" * 300,
        "classic;match_target=" + "9" * 200,
    ],
)
def test_bad_rules_tokens_are_refused(token):
    with pytest.raises(ValueError):
        rules_from_token(token)


def test_lan_advertisement_carries_the_rules():
    class Info:
        name = "Den._gin3d._tcp.local."
        port = 47470

        def __init__(self, props):
            self.properties = props

        def parsed_addresses(self):
            return ["127.0.0.1"]

    base = {b"name": b"Den", b"v": b"1", b"fp": b"a" * 64, b"open": b"1"}
    table = table_from_info(Info({**base, b"rules": rules_token(PAGAT).encode()}))
    assert table.rules == PAGAT
    assert rules_label(table.rules) == "Pagat, game to 50, last chance"
    # unreadable rules: still listed, rules unknown (and not pinned)
    assert table_from_info(Info({**base, b"rules": b"poker;x=1"})).rules is None
    assert table_from_info(Info(base)).rules is None


async def _pair(host_rules, guest_expects=None, accept=None, guest_player=None):
    a, b = memory_pair()
    h = MatchSession(0, GreedyPlayer(), MATCH, rules=host_rules)
    g = MatchSession(
        1,
        guest_player or GreedyPlayer(),
        MATCH,
        expect_rules=guest_expects,
        callbacks=Callbacks(accept_rules=accept),
    )
    await asyncio.gather(h.attach(a), g.attach(b))
    results = await asyncio.wait_for(asyncio.gather(h.run(), g.run()), 60)
    await h.close()
    await g.close()
    return h, g, results


def test_a_host_claiming_other_rules_than_it_offered_is_refused():
    h, g, (hr, gr) = asyncio.run(_pair(OKLAHOMA, guest_expects=PAGAT))
    assert gr.reason == RULES_REFUSED and "Oklahoma" in gr.detail and "Pagat" in gr.detail
    assert hr.reason == "opponent left" and hr.detail.startswith(RULES_REFUSED)
    assert g.tracker is None and h.tracker is None  # not a card was dealt


def test_the_offered_rules_are_played_and_the_guest_saw_them_first():
    seen = []

    async def accept(rules):
        seen.append(rules)
        return True

    async def scenario():
        stop = asyncio.Event()

        async def hook(session, view):
            stop.set()
            await asyncio.Event().wait()

        a, b = memory_pair()
        h = MatchSession(0, GreedyPlayer(), MATCH, rules=PAGAT)
        g = MatchSession(
            1,
            ScriptedPlayer(hook),
            MATCH,
            expect_rules=PAGAT,
            callbacks=Callbacks(accept_rules=accept),
        )
        await asyncio.gather(h.attach(a), g.attach(b))
        runs = [asyncio.ensure_future(s.run()) for s in (h, g)]
        await asyncio.wait_for(stop.wait(), 30)
        for r in runs:
            r.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        return h, g

    h, g = asyncio.run(scenario())
    assert seen == [PAGAT]
    assert g.rules == h.rules == PAGAT and g.tracker.hand.rules == PAGAT


def test_the_guest_may_decline_the_rules():
    h, g, (hr, gr) = asyncio.run(_pair(OKLAHOMA, accept=lambda rules: False))
    assert (gr.reason, gr.detail) == ("you left", DECLINED)
    assert (hr.reason, hr.detail) == ("opponent left", DECLINED)


def test_a_rematch_with_changed_rules_is_refused():
    class Switcher(MatchSession):
        """A host that offers other rules for the rematch."""

        async def _fix_seed(self):
            if self._game_no == 1:
                self.rules = OKLAHOMA
            return await super()._fix_seed()

    async def scenario():
        a, b = memory_pair()
        short = RuleSet.preset("classic", game_target=10)
        h = Switcher(
            0, GreedyPlayer(), MATCH, rules=short, callbacks=Callbacks(rematch=lambda: True)
        )
        g = MatchSession(1, GreedyPlayer(), MATCH, callbacks=Callbacks(rematch=lambda: True))
        await asyncio.gather(h.attach(a), g.attach(b))
        results = await asyncio.wait_for(asyncio.gather(h.run(), g.run()), 120)
        await h.close()
        await g.close()
        return g, results

    g, (hr, gr) = asyncio.run(scenario())
    assert gr.reason == RULES_REFUSED and "of this match" in gr.detail
    assert len(g.games) == 1 and g.rules.game_target == 10


def test_save_and_leave_keeps_both_saves_and_they_list(tmp_path):
    async def scenario():
        ready = asyncio.Event()

        async def hook(session, view):
            ready.set()
            await asyncio.Event().wait()

        a, b = memory_pair()
        h = MatchSession(
            0,
            GreedyPlayer(),
            MATCH,
            rules=RuleSet.preset("classic"),
            autosave=str(tmp_path / "gin3d-match-x-host.json"),
        )
        h.save_extra = {
            "role": "host",
            "peer_name": "Bob",
            "kind": "lan",
            "identity": {},
            "code": "c",
            "peer_fingerprint": "f",
        }
        g = MatchSession(
            1,
            ScriptedPlayer(hook, lambda v: v.hand_number == 1),
            MATCH,
            autosave=str(tmp_path / "gin3d-match-x-guest.json"),
        )
        g.save_extra = {
            "role": "guest",
            "peer_name": "Ann",
            "kind": "lan",
            "identity": {},
            "code": "c",
            "peer_fingerprint": "f",
        }
        await asyncio.gather(h.attach(a), g.attach(b))
        runs = [asyncio.ensure_future(s.run()) for s in (h, g)]
        with pytest.raises(ValueError, match="nothing to resume"):
            await g.save_and_leave(tmp_path / "early.json")  # no hand verified yet
        await asyncio.wait_for(ready.wait(), 60)
        (tmp_path / "gin3d-match-x-host.json").unlink()  # only the bye brings it back
        path = await g.save_and_leave(tmp_path / "gin3d-match-x-guest.json")
        results = await asyncio.wait_for(asyncio.gather(*runs), 10)
        await h.close()
        await g.close()
        return path, results

    path, (hr, gr) = asyncio.run(scenario())
    assert (hr.reason, hr.detail) == ("opponent left", SAVED_BYE)
    assert (gr.reason, gr.detail) == ("you left", SAVED_BYE)
    assert not (tmp_path / "early.json").exists()
    host_save = read_save(tmp_path / "gin3d-match-x-host.json")
    assert read_save(path)["games"][0]["hands"] == host_save["games"][0]["hands"]
    (tmp_path / "gin3d-match-bad-guest.json").write_text('{"format": "gin3d-net-save/1", ')
    listed = {m.path.name: m for m in list_saved(tmp_path)}
    assert set(listed) == {
        "gin3d-match-x-host.json",
        "gin3d-match-x-guest.json",
        "gin3d-match-bad-guest.json",
    }
    bad = listed["gin3d-match-bad-guest.json"]
    assert not bad.ok and "not valid JSON" in bad.error and "unreadable" in bad.summary()
    assert (tmp_path / "gin3d-match-bad-guest.json").exists()  # listed, never deleted
    ok = listed["gin3d-match-x-host.json"]
    assert ok.ok and ok.opponent == "Bob" and ok.role == "host" and ok.hands == 1
    assert ok.saved_at and ok.rules == RuleSet.preset("classic")
    with pytest.raises(ValueError):
        delete_saved(tmp_path / "notes.txt")
    delete_saved(bad.path)
    assert not bad.path.exists()


def test_saves_with_different_rules_do_not_resume(tmp_path):
    from test_net_resume import _resume, _stop_in_hand

    asyncio.run(_stop_in_hand(tmp_path, stop_hand=2))
    host = json.loads((tmp_path / "host.json").read_text())
    guest = json.loads((tmp_path / "guest.json").read_text())
    # the guest's save claims other rules: every hand still replays under them (same
    # knock limit), but the rules are not the match's
    guest["rules"] = {**guest["rules"], "gin_bonus": 99}

    _, _, results = asyncio.run(_resume(host, guest))
    assert all(
        isinstance(r, MatchEnded) and r.reason == "saves differ" and "different rules" in r.detail
        for r in results
    )


def test_a_finished_match_is_listed_but_not_resumable(tmp_path):
    from gin3d.net.api import NetService

    async def scenario():
        a, b = memory_pair()
        short = RuleSet.preset("classic", game_target=10)
        h = MatchSession(
            0,
            GreedyPlayer(),
            MATCH,
            rules=short,
            autosave=str(tmp_path / "gin3d-match-f-host.json"),
        )
        h.save_extra = {
            "role": "host",
            "peer_name": "Bob",
            "identity": {},
            "code": "c",
            "peer_fingerprint": "f",
        }
        g = MatchSession(1, GreedyPlayer(), MATCH)
        await asyncio.gather(h.attach(a), g.attach(b))
        out = await asyncio.wait_for(asyncio.gather(h.run(), g.run()), 120)
        await h.close()
        await g.close()
        return out

    assert [r.reason for r in asyncio.run(scenario())] == ["finished", "finished"]
    (entry,) = list_saved(tmp_path)
    assert entry.ok and entry.finished and not entry.resumable
    assert "(finished)" in entry.summary()
    service = NetService("Ann").start()
    try:
        with pytest.raises(ValueError, match="finished"):
            service.resume(entry.path).result(10)
    finally:
        service.stop()
