"""A modified peer cheats at the deal: the honest side refuses the first bad step at once.

Each attacker is a ``MatchSession`` that changes what it sends at one step of the deal (the
cards of a deck message, or a key), exactly as a modified client would, and then tries to use
what it gained: read the victim's hand, or hold gin. The honest side must refuse that step
with a cheat verdict and evidence, before any card is dealt, with its state unchanged (no
card learned, no move, none of its keys published), and the attacker learns no card it may
not know. The attacks only touch the messages and the attacker's own keys, so they run the
same against a deal without proofs, where each of them succeeds.
"""

import asyncio
import json
import secrets

from net_harness import play_pair

from gin3d.engine import CARDS
from gin3d.net import fairdeal
from gin3d.net.group import ORDER, ProofError, mul, random_scalar
from gin3d.net.protocol import key_hex
from gin3d.net.session import CHEATED, MatchSession


def _unhex(cards):
    return [bytes.fromhex(x) for x in cards]


class Attacker(MatchSession):
    """Records every deck it receives; ``patch_keys`` fixes its own keys after the deal so it
    can open what it rigged."""

    patch: dict[int, int] | None = None  # slot -> the key that opens the rigged slot
    attack_hand = 0  # the hand whose deal it cheats at (plays the ones before honestly)

    def attacking(self, msg) -> bool:
        return msg.get("hand") == self.attack_hand

    def _dispatch(self, msg):
        if msg["t"] == "deck":
            self.__dict__.setdefault("seen", {})[msg["step"]] = _unhex(msg["cards"])
        super()._dispatch(msg)

    async def _shuffle(self, points, hand_no):
        self.card_points = points
        return await super()._shuffle(points, hand_no)

    def rig(self, msg, cards):
        return {**msg, "cards": [x.hex() for x in cards]}

    async def _deal_keys(self, hand_no):
        if hand_no != self.attack_hand:
            return await super()._deal_keys(hand_no)
        self.reached_deal_keys = True
        for slot, key in (self.patch or {}).items():
            self.deal.mine.slot_keys[slot] = key
        await super()._deal_keys(hand_no)
        self.after_deal()
        # got what it came for: leave before the end-of-hand audit could catch it
        await self.leave("left the table")
        raise self.ended

    def after_deal(self):
        pass

    def gained(self) -> str:
        """What the attack got (shown when a test finds the attack was not stopped)."""
        if hasattr(self, "stolen"):
            victim = self.peer_session.deal  # what those slots really hold
            held = [
                CARDS[victim.open_slot(k, self.deal.mine.slot_keys[k], record=False)]
                for k in self.stolen
            ]
            return (
                f"read the victim's cards {sorted(self.stolen.values())}"
                f" (the victim holds {sorted(held)})"
            )
        if hasattr(self, "dealt_gin"):
            return f"dealt itself {self.dealt_gin}"
        return "the deal went on"


class PeekingHost(Attacker):
    """Step 3: copies the guest's entries into its own slots, to open the guest's cards."""

    async def _send(self, msg):
        if msg["t"] == "deck" and msg["step"] == 3:
            t = self.tracker
            cards = _unhex(msg["cards"])
            self.copied = {}
            for j, k in zip(t.deal_slots(0), t.deal_slots(1)):
                r = random_scalar()
                cards[j] = mul(r, cards[k])  # = (r a_k / a) * D2_k: opens with key r * a_k
                self.copied[j] = (k, r)
            msg = self.rig(msg, cards)
        await super()._send(msg)

    async def _deal_keys(self, hand_no):
        keys = self.deal.mine.slot_keys
        self.patch = {j: r * keys[k] % ORDER for j, (k, r) in self.copied.items()}
        await super()._deal_keys(hand_no)

    def after_deal(self):
        self.stolen = {k: self.tracker.known[j] for j, (k, _) in self.copied.items()}


class PeekingGuest(Attacker):
    """Step 2: puts multiples of the host's entries into its own slots, to open the host's."""

    async def _send(self, msg):
        if msg["t"] == "deck" and msg["step"] == 2:
            t = self.tracker
            cards = _unhex(msg["cards"])
            self.copied = {}
            for j, k in zip(t.deal_slots(1), t.deal_slots(0)):
                r = random_scalar()
                cards[j] = mul(r, cards[k])  # D4_j = r a_j b_j M: opens with key r * b_j
                self.copied[j] = (k, r)
            msg = self.rig(msg, cards)
        await super()._send(msg)

    async def _deal_keys(self, hand_no):
        keys = self.deal.mine.slot_keys
        self.patch = {j: r * keys[j] % ORDER for j, (k, r) in self.copied.items()}
        await super()._deal_keys(hand_no)

    def after_deal(self):
        self.stolen = {k: self.tracker.known[j] for j, (k, _) in self.copied.items()}


GIN = [CARDS[i] for i in range(10)]  # AS..TS: a run of ten spades


class StackingHost(Attacker):
    """Deals itself gin: step 1 marks the ten spades (each also sent doubled, so it can find
    them after the guest's shuffle), step 3 puts them into its own slots."""

    async def _send(self, msg):
        if msg["t"] == "deck" and msg["step"] == 1 and self.attacking(msg):
            m = self.card_points
            self.x = x = random_scalar()
            marked = [mul(x, m[c]) for c in range(10)] + [
                mul(2 * x % ORDER, m[c]) for c in range(10)
            ]
            marked += [mul(x, m[c]) for c in range(10, 42)]
            order = list(range(52))
            secrets.SystemRandom().shuffle(order)
            msg = self.rig(msg, [marked[i] for i in order])
        elif msg["t"] == "deck" and msg["step"] == 3 and self.attacking(msg):
            d2 = self.seen[2]
            index = {p: i for i, p in enumerate(d2)}
            doubled = {i: index.get(mul(2, p)) for i, p in enumerate(d2)}
            gin = [i for i, m in doubled.items() if m is not None]  # b x M_spade
            markers = {m for m in doubled.values() if m is not None}
            rest = [i for i in range(52) if i not in gin and i not in markers] + sorted(markers)
            mine = self.tracker.deal_slots(0)
            source = {}
            for slot in range(52):
                source[slot] = gin.pop() if slot in mine else rest.pop(0)
            ys = {slot: random_scalar() for slot in range(52)}
            cards = [mul(ys[s], d2[source[s]]) for s in range(52)]
            self.patch = {s: ys[s] * self.x % ORDER for s in range(52)}
            msg = self.rig(msg, cards)
        await super()._send(msg)

    def after_deal(self):
        self.dealt_gin = sorted(self.tracker.known[s] for s in self.tracker.deal_slots(0))


class WrongDealKey(Attacker):
    """Publishes a wrong key for one of the guest's cards at the deal (then the right one)."""

    async def _send(self, msg):
        if (
            msg["t"] == "keys"
            and self.tracker is not None
            and not self.tracker.actions
            and not getattr(self, "lied", False)
        ):
            self.lied = True
            victim = self.peer_session
            victim.refused_event.clear()
            bad = [list(p) for p in msg["keys"]]
            bad[0][1] = key_hex(random_scalar())
            await super()._send({**msg, "keys": bad})
            await victim.refused_event.wait()
        await super()._send(msg)


def _play(tmp_path, **kw):
    return asyncio.run(play_pair(evidence_dir=str(tmp_path), timeout=60, **kw))


def _check_refused(victim, attacker, result, tmp_path, step_text):
    """The victim refused the bad step with a cheat verdict and evidence, before any card was
    dealt, its state untouched; the attacker learned nothing."""
    assert result.reason == CHEATED, (result, attacker.gained())
    assert step_text in result.detail
    assert victim.refusals and step_text in victim.refusals[0]
    # before any card is dealt: nothing learned, no move, no deal finished
    t = victim.tracker
    assert t.known == {} and t.actions == [] and victim.log.entries == []
    assert victim.deal_times == []
    # the attacker learned no card: the victim published none of its keys for the hand
    # beyond the attacker's own cards, and the attacker never opened anything it rigged
    # (its own cards and the upcard, which both see at the deal)
    may_know = set(t.deal_slots(attacker.seat)) | {t.upcard_slot}
    sent_keys = [p[0] for m in victim.outbox if m["t"] == "keys" for p in m["keys"]]
    assert set(sent_keys) <= may_know
    assert not hasattr(attacker, "stolen") and not hasattr(attacker, "dealt_gin")
    assert set(attacker.deal.peer_keys) <= may_know
    # the attacker was told, and ended too
    assert any(m["t"] == "bye" and "cheating detected" in m["reason"] for m in victim.outbox)
    # evidence: the refused message and every step accepted before it
    files = sorted(tmp_path.glob(f"gin3d-evidence-*-seat{victim.seat}-*.json"))
    assert files
    ev = json.loads(files[0].read_text())
    assert ev["verdict"] == CHEATED and step_text in ev["reason"]
    assert ev["refused_message"] is not None
    assert ev["context"] == victim.deal.context.decode()
    assert len(ev["decks"]) == len(ev["commits"]) == len(ev["proofs"]) == victim.deal.step
    return ev


def _rerun(ev, victim):
    """Anyone can rerun the failed check from the evidence alone (with the victim's secrets
    it holds: our challenge is keyed with them)."""
    mine = ev["my_secrets"]
    deal = fairdeal.Deal(
        [bytes.fromhex(x) for x in ev["card_points"]],
        fairdeal.DealerSecrets(
            int(mine["master"], 16), mine["perm"], [int(k, 16) for k in mine["keys"]]
        ),
        context=ev["context"].encode(),
        seat=ev["seat"],
    )
    for step, (cards, commits, proof) in enumerate(
        zip(ev["decks"], ev["commits"], ev["proofs"]), 1
    ):
        deal.add(step, {"cards": _unhex(cards), "commits": _unhex(commits), "proof": proof})
    bad = ev["refused_message"]
    msg = {"cards": _unhex(bad["cards"]), "commits": _unhex(bad["commits"]), "proof": bad["proof"]}
    try:
        deal.check(bad["step"], msg)
        if bad["step"] in fairdeal.SHUFFLE_STEPS:  # the challenge we sent and its answer
            assert bytes.fromhex(bad["nonce"]) == deal.challenge(bad["step"], msg)
            deal.check_opening(bad["step"], msg, bytes.fromhex(bad["nonce"]), bad["openings"])
    except ProofError:
        return True
    return False


def test_host_copying_the_guests_entries_at_rekey_is_refused(tmp_path):
    h, g, results = _play(tmp_path, host_cls=PeekingHost)
    ev = _check_refused(g, h, results[1], tmp_path, "deck step 3")
    assert g.deal.step == 2  # steps 1 and 2 held; nothing after the bad step 3
    assert not any(m["t"] == "deck" and m["step"] == 4 for m in g.outbox)
    assert not getattr(h, "reached_deal_keys", False)
    assert _rerun(ev, g)


def test_guest_copying_the_hosts_entries_at_its_shuffle_is_refused(tmp_path):
    h, g, results = _play(tmp_path, guest_cls=PeekingGuest)
    ev = _check_refused(h, g, results[0], tmp_path, "deck step 2")
    assert h.deal.step == 1
    assert not any(m["t"] == "deck" and m["step"] == 3 for m in h.outbox)
    assert _rerun(ev, h)


def test_host_stacking_the_deck_is_refused_at_its_shuffle(tmp_path):
    h, g, results = _play(tmp_path, host_cls=StackingHost)
    ev = _check_refused(g, h, results[1], tmp_path, "deck step 1")
    assert g.deal.step == 0
    assert not any(m["t"] == "deck" for m in g.outbox)  # the guest never shuffled on it
    assert _rerun(ev, g)


def test_wrong_key_at_the_deal_is_a_cheat_verdict(tmp_path):
    h, g, results = _play(tmp_path, host_cls=WrongDealKey)
    assert h.lied
    ev = _check_refused(g, h, results[1], tmp_path, "does not match its lock")
    assert g.deal.step == 4  # the deal itself held; the key did not match its lock
    assert ev["refused_message"]["t"] == "keys"


class StackingHostLater(StackingHost):
    """The same at the second hand, whose step 1 the host sends while the first is played."""

    attack_hand = 1


def test_stacking_at_a_step_sent_ahead_is_refused_when_it_arrives(tmp_path):
    h, g, results = _play(tmp_path, host_cls=StackingHostLater)
    result = results[1]
    assert result.reason == CHEATED and "deck step 1" in result.detail, (result, h.gained())
    assert g.refusals and "deck step 1" in g.refusals[0]
    # the guest sent nothing for that hand but its challenge: no deck of its own
    assert [m["t"] for m in g.outbox if m.get("hand") == 1] == ["chal"]
    assert not getattr(h, "reached_deal_keys", False)
    files = sorted(tmp_path.glob("gin3d-evidence-*-seat1-*.json"))
    ev = json.loads(files[0].read_text())
    assert ev["refused_message"]["hand"] == 1 and ev["decks"] == []
    assert _rerun(ev, g)
