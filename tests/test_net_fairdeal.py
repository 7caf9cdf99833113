"""The fair deal: commutative encryption, opening cards, and catching a dishonest transcript."""

import secrets

import pytest

from gin3d.net.fairdeal import Deal, DealerSecrets, verify_peer
from gin3d.net.group import (
    DealError,
    ProofError,
    card_points,
    check_deck,
    inverse,
    mul,
    random_scalar,
)


def _deal():
    points = card_points(b"seed" * 8)
    host, guest = DealerSecrets(), DealerSecrets()
    hd, gd = Deal(points, host, seat=0), Deal(points, guest, seat=1)
    steps = []
    steps.append(host.shuffle_message(points, b"", 1))
    steps.append(guest.shuffle_message(steps[0]["cards"], b"", 2))
    steps.append(host.rekey_message(steps[1]["cards"], b"", 3))
    steps.append(guest.rekey_message(steps[2]["cards"], b"", 4))
    for step, msg in enumerate(steps, 1):
        (gd if step % 2 else hd).accept(step, msg, guest if step % 2 == 0 else host)
        (hd if step % 2 else gd).add(step, msg)
    return points, host, guest, hd, gd


def test_encryption_commutes_and_inverts():
    x = card_points(b"x" * 32)[7]
    a, b = random_scalar(), random_scalar()
    assert mul(a, mul(b, x)) == mul(b, mul(a, x))
    assert mul(inverse(a), mul(a, x)) == x
    assert mul(a, x) != x


def test_card_points_are_distinct_and_seeded():
    p = card_points(b"a" * 32)
    assert len(set(p)) == 52
    assert p == card_points(b"a" * 32)
    assert p != card_points(b"b" * 32)


def test_both_peers_open_the_same_cards_and_verify_each_other():
    points, host, guest, hd, gd = _deal()
    deck_seen_by_host = verify_peer(hd, guest.to_wire(), peer_is_host=False)
    deck_seen_by_guest = verify_peer(gd, host.to_wire(), peer_is_host=True)
    assert deck_seen_by_host == deck_seen_by_guest
    assert sorted(deck_seen_by_host) == list(range(52))
    for slot in range(52):
        assert hd.open_slot(slot, guest.slot_keys[slot]) == deck_seen_by_host[slot]
        assert gd.open_slot(slot, host.slot_keys[slot]) == deck_seen_by_host[slot]


def test_wrong_key_does_not_open_a_card_and_is_not_recorded():
    _, _, guest, hd, _ = _deal()
    with pytest.raises(ProofError, match="does not match its lock"):
        hd.open_slot(3, random_scalar())
    assert 3 not in hd.peer_keys
    hd.open_slot(3, guest.slot_keys[3])
    with pytest.raises(DealError, match="different key"):
        hd.open_slot(3, guest.slot_keys[4])


def test_lying_reveal_is_caught():
    _, host, guest, hd, gd = _deal()
    wire = guest.to_wire()
    wire["perm"] = wire["perm"][1:] + wire["perm"][:1]
    with pytest.raises(DealError, match="step 2"):
        verify_peer(hd, wire, peer_is_host=False)
    wire = host.to_wire()
    wire["keys"] = [random_scalar()] + wire["keys"][1:]
    with pytest.raises(DealError, match="step 3"):
        verify_peer(gd, wire, peer_is_host=True)


def test_key_published_during_the_hand_must_match_the_reveal():
    _, _, guest, hd, _ = _deal()
    hd.open_slot(5, guest.slot_keys[5])
    wire = guest.to_wire()
    wire["keys"][5] = random_scalar()
    with pytest.raises(DealError, match="slot 5"):
        verify_peer(hd, wire, peer_is_host=False)


def test_marked_cards_are_caught_at_the_end():
    points, host, guest, hd, _ = _deal()
    # the guest encrypts one card with a different key (to recognise it later)
    hd.decks[1] = list(hd.decks[1])
    hd.decks[1][0] = mul(random_scalar(), hd.decks[0][0])
    with pytest.raises(DealError):
        verify_peer(hd, guest.to_wire(), peer_is_host=False)


def test_bad_decks_are_refused():
    points = card_points(b"z" * 32)
    with pytest.raises(DealError, match="52"):
        check_deck(points[:51])
    with pytest.raises(DealError, match="twice"):
        check_deck(points[:51] + points[:1])
    off_curve = next(bytes([i]) * 32 for i in range(256) if _off(bytes([i]) * 32))
    with pytest.raises(DealError, match="not a point"):
        check_deck(points[:51] + [off_curve])


def _off(x: bytes) -> bool:
    try:
        mul(2, x)
    except DealError:
        return True
    return False


def _answered(prover, msg, deck_in, context, step, nonce=None):
    """``(root, nonce, openings)``: ``prover``'s answer to a challenge (random by default)."""
    nonce = nonce if nonce is not None else secrets.token_bytes(32)
    openings = prover.answer(step, deck_in, msg, context, nonce)
    return bytes.fromhex(msg["proof"][0]), nonce, openings


def test_each_step_verifies_on_arrival_and_a_bad_step_is_a_proof_error():
    from gin3d.net.fairdeal import verify_rekey
    from gin3d.net.shuffleproof import verify_shuffle

    points = card_points(b"p" * 32)
    host = DealerSecrets()
    m1 = host.shuffle_message(points, b"hand 0", 1)
    root, nonce, opened = _answered(host, m1, points, b"hand 0", 1)
    verify_shuffle(points, m1["cards"], m1["commits"][0], root, nonce, opened, b"hand 0", 1)
    swapped = list(m1["cards"])
    swapped[0], swapped[1] = swapped[1], swapped[0]  # the proof is bound to the order too
    marked = list(m1["cards"])
    marked[5] = mul(2, marked[4])  # a card twice (one marked): not a permutation of a*M
    for cards in (swapped, marked):
        with pytest.raises(ProofError):
            verify_shuffle(points, cards, m1["commits"][0], root, nonce, opened, b"hand 0", 1)
    other = DealerSecrets()  # a commitment to another master key
    with pytest.raises(ProofError):
        verify_shuffle(points, m1["cards"], other.commit, root, nonce, opened, b"hand 0", 1)
    with pytest.raises(ProofError):  # openings of this commitment for another challenge
        verify_shuffle(points, m1["cards"], m1["commits"][0], root, bytes(32), opened, b"hand 0", 1)
    guest = DealerSecrets()
    m2 = guest.shuffle_message(m1["cards"], b"hand 0", 2)
    m3 = host.rekey_message(m2["cards"], b"hand 0", 3)
    verify_rekey(host.commit, m2["cards"], m3["cards"], m3["commits"], m3["proof"], b"hand 0", 3)
    moved = list(m3["cards"])
    moved[2] = mul(random_scalar(), m2["cards"][7])  # slot 7's entry copied into slot 2
    with pytest.raises(ProofError):
        verify_rekey(host.commit, m2["cards"], moved, m3["commits"], m3["proof"], b"hand 0", 3)


def test_proofs_do_not_replay_in_another_hand_step_or_match():
    from gin3d.net.fairdeal import verify_rekey
    from gin3d.net.shuffleproof import verify_shuffle

    points = card_points(b"r" * 32)
    host, guest = DealerSecrets(), DealerSecrets()
    m1 = host.shuffle_message(points, b"m|0|3", 1)
    root, nonce, opened = _answered(host, m1, points, b"m|0|3", 1)
    for context, step in ((b"m|0|4", 1), (b"m|1|3", 1), (b"n|0|3", 1), (b"m|0|3", 2)):
        with pytest.raises(ProofError):
            verify_shuffle(
                points, m1["cards"], m1["commits"][0], root, nonce, opened, context, step
            )
    m2 = guest.shuffle_message(m1["cards"], b"m|0|3", 2)
    m3 = host.rekey_message(m2["cards"], b"m|0|3", 3)
    with pytest.raises(ProofError):
        verify_rekey(host.commit, m2["cards"], m3["cards"], m3["commits"], m3["proof"], b"m|0|4", 3)


def test_x25519_fast_path_agrees_with_the_group_and_cards_ignore_sign():
    from gin3d.net import group as fd

    p = card_points(b"u" * 32)[3]
    tried = {True: 0, False: 0}
    while min(tried.values()) < 3:
        s = random_scalar()
        fast = fd.clamped(s) is not None
        tried[fast] += 1
        assert fd.umul(s, fd.mont(p), p) == fd.mont(mul(s, p))
    neg = p[:31] + bytes([p[31] ^ 0x80])
    assert fd.mont(neg) == fd.mont(p) and fd.unsigned(neg) == fd.unsigned(p)
    with pytest.raises(DealError, match="twice"):
        check_deck(card_points(b"u" * 32)[:51] + [neg])
