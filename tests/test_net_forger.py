"""The shuffle proof against a forger with time and a fast machine.

A prover that can compute its own challenge (Fiat-Shamir: a hash of what it sends) can
search offline, one hash a try, for commitments whose challenge it can answer: the forger in
``shuffle_forger`` does so at a reduced round count and makes a false deck pass. With the
verifier's own challenge, sent after the prover committed to its rounds, there is nothing to
search: each try is made online, and a failed try is a cheat verdict with its evidence.
"""

import asyncio
import secrets

import pytest
from net_harness import play_pair
from shuffle_forger import false_deck, grind, prepare
from test_net_cheat_deal import PeekingGuest, _check_refused, _rerun

from gin3d.net import shuffleproof as sp
from gin3d.net.fairdeal import ChallengeError, Deal, DealerSecrets
from gin3d.net.group import ProofError, base, card_points, random_permutation, random_scalar

CONTEXT = b"gin3d-deal|forger|0|0"
ROUNDS = 16  # a search of about 2^16 hashes: a second here (2^40 at the real count)


def test_a_forger_who_grinds_the_challenge_offline_is_refused(monkeypatch):
    monkeypatch.setattr(sp, "ROUNDS", ROUNDS)
    points = card_points(b"forger".ljust(32, b"."))
    x = random_scalar()
    out = false_deck(x, random_permutation(), points)
    forgery = prepare(x, points, out, CONTEXT, 1)
    # where the prover can compute the challenge, the offline search finds a forgery...
    known = bytes(32)
    guess = grind(forgery, lambda root: sp.challenge_bits(forgery.ctx, root, known), 1 << 22)
    assert guess is not None
    root = forgery.root(guess)
    sp.verify_shuffle(points, out, base(x), root, known, forgery.answer(guess), CONTEXT, 1)
    # ...but the verifier's challenge comes after the root: the same forgery is refused
    verifier = Deal(points, DealerSecrets(), context=CONTEXT, seat=1)
    msg = {"cards": out, "commits": [base(x)], "proof": [root.hex()]}
    verifier.check(1, msg)  # its form holds: only the openings can tell
    nonce = verifier.challenge(1, msg)
    assert nonce != known
    with pytest.raises(ProofError):
        verifier.check_opening(1, msg, nonce, forgery.answer(guess))
    assert verifier.step == 0  # nothing recorded


def test_a_prover_answers_one_challenge_per_commitment_and_the_same_again_on_resume():
    points = card_points(b"resume".ljust(32, b"."))
    host = DealerSecrets()
    msg = host.shuffle_message(points, CONTEXT, 1)
    guest = Deal(points, DealerSecrets(), context=CONTEXT, seat=1)
    guest.check(1, msg)
    nonce = guest.challenge(1, msg)
    assert guest.challenge(1, msg) == nonce  # the same commitment, the same challenge
    opened = host.answer(1, points, msg, CONTEXT, nonce)
    guest.check_opening(1, msg, nonce, opened)
    # a second, different challenge would open both sides of some round: never answered
    with pytest.raises(ChallengeError):
        host.answer(1, points, msg, CONTEXT, secrets.token_bytes(32))
    # the secrets as a save holds them answer the same challenge with the same openings
    saved = DealerSecrets(host.master, host.perm, host.slot_keys, dict(host.answered))
    assert saved.answer(1, points, msg, CONTEXT, nonce) == opened
    with pytest.raises(ChallengeError):
        saved.answer(1, points, msg, CONTEXT, bytes(32))


class ForgingGuest(PeekingGuest):
    """Step 2: copies the host's entries into its own slots (to read the host's hand) and
    backs the false deck with a forged proof: rounds prepared for one guessed bit each."""

    def rig(self, msg, cards):
        deal = self.deal
        self.forgery = prepare(deal.mine.master, deal.decks[0], cards, deal.context, 2)
        self.guess = self.forgery.pick()
        root = self.forgery.root(self.guess)
        deal.decks[-1] = list(cards)  # its own record holds the deck it sent
        return {**msg, "cards": [x.hex() for x in cards], "proof": [root.hex()]}

    async def _send(self, msg):
        if msg["t"] == "opening" and msg["step"] == 2 and hasattr(self, "forgery"):
            msg = {**msg, "proof": self.forgery.answer(self.guess)}
        await super()._send(msg)


def test_a_guest_with_a_forged_step_2_is_refused_and_reads_no_card(tmp_path, monkeypatch):
    monkeypatch.setattr(sp, "ROUNDS", ROUNDS)
    h, g, results = asyncio.run(
        play_pair(guest_cls=ForgingGuest, evidence_dir=str(tmp_path), timeout=60)
    )
    assert hasattr(g, "forgery")  # the attack was made
    ev = _check_refused(h, g, results[0], tmp_path, "deck step 2")
    assert h.deal.step == 1  # step 1 held; the false step 2 was never recorded
    assert not any(m["t"] == "deck" and m["step"] == 3 for m in h.outbox)
    assert not any(m["t"] == "keys" for m in h.outbox)  # not one card of the host's opened
    assert g.tracker.known == {}
    assert ev["refused_message"]["openings"] == g.forgery.answer(g.guess)
    assert _rerun(ev, h)
