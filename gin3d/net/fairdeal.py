"""Two-party SRA mental poker on P-256: a fair deal that neither peer can peek at or stack.

Commutative encryption is scalar multiplication on the P-256 group, done through the
`cryptography` package's ECDH: ``exchange(k, P)`` returns the x-coordinate of ``k*P``. Working
with x-coordinates only is consistent because ``x(k*P) == x(k*(-P))``, so
``E_k(x) = x(k * point_with_x(x))`` is well defined, ``E_a(E_b(x)) == E_b(E_a(x)) == E_ab(x)``
and ``E_{k^-1}`` (inverse mod the group order) undoes ``E_k``. Decoding a peer's x-coordinate
through ``from_encoded_point`` refuses anything that is not on the curve.

The deck (slot ``i`` of the final deck is dealt ``i``-th, exactly like the engine's deck):

1. both peers fix a seed by commit-reveal; card ``c`` is the curve point hashed from (seed, c);
2. host: ``D1 = shuffle_a([a*M_c])``; 3. guest: ``D2 = shuffle_b([b*D1_i])``;
4. host: ``D3_i = (a_i/a) * D2_i``; 5. guest: ``D4_i = (b_i/b) * D3_i`` so ``D4_i = a_i b_i M``.

Opening slot ``i`` needs both per-card keys ``a_i`` and ``b_i``: dealing or drawing a card is the
other peer publishing its key, a face-up card is its owner publishing its own. At the end of a
hand both reveal everything and ``verify_peer`` checks the other's steps were honest.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric import ec

CURVE = ec.SECP256R1()
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
DECK = 52
POINT_BYTES = 32


class DealError(ValueError):
    """A peer's deck, key or transcript is wrong: the message is refused or the hand voided."""


def _point(x: bytes):
    """The public key for x-coordinate ``x`` (either sign); DealError if not on the curve."""
    if not isinstance(x, bytes) or len(x) != POINT_BYTES:
        raise DealError("a curve point is 32 bytes")
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + x)
    except ValueError as exc:
        raise DealError("not a point on P-256") from exc


def check_point(x: bytes) -> None:
    """Refuse anything that is not the x-coordinate of a P-256 point."""
    _point(x)


def check_scalar(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 < k < ORDER:
        raise DealError("a key is a whole number in 1..n-1")


def mul(k: int, x: bytes) -> bytes:
    """``E_k(x)``: the x-coordinate of ``k`` times the point with x-coordinate ``x``."""
    check_scalar(k)
    return ec.derive_private_key(k, CURVE).exchange(ec.ECDH(), _point(x))


def mul_many(k: int, xs: Sequence[bytes]) -> list[bytes]:
    """``E_k`` of many points with one key (one private-key object)."""
    check_scalar(k)
    priv = ec.derive_private_key(k, CURVE)
    return [priv.exchange(ec.ECDH(), _point(x)) for x in xs]


def inverse(k: int) -> int:
    return pow(k, -1, ORDER)


def random_scalar() -> int:
    return secrets.randbelow(ORDER - 1) + 1


def card_points(seed: bytes) -> list[bytes]:
    """The 52 card points for a seed: hash-and-try, so nobody knows a discrete log between them."""
    points: list[bytes] = []
    seen: set[bytes] = set()
    for card in range(DECK):
        counter = 0
        while True:
            x = hashlib.sha256(b"gin3d-card|" + seed + bytes([card]) + counter.to_bytes(4, "big")
                               ).digest()
            counter += 1
            if x in seen:
                continue
            try:
                _point(x)
            except DealError:
                continue
            points.append(x)
            seen.add(x)
            break
    return points


def random_permutation(n: int = DECK) -> list[int]:
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def check_deck(deck: Sequence[bytes]) -> None:
    """A received deck: 52 distinct points on the curve."""
    if len(deck) != DECK:
        raise DealError(f"a deck has {DECK} cards, got {len(deck)}")
    if len(set(deck)) != DECK:
        raise DealError("a deck holds the same encrypted card twice")
    for x in deck:
        _point(x)


def check_permutation(perm: Sequence[int]) -> None:
    if sorted(perm) != list(range(DECK)):
        raise DealError("a shuffle is not a permutation of 0..51")


@dataclass
class DealerSecrets:
    """One peer's secrets for one hand: master key, shuffle, and one key per slot."""

    master: int = field(default_factory=random_scalar)
    perm: list[int] = field(default_factory=random_permutation)
    slot_keys: list[int] = field(default_factory=lambda: [random_scalar() for _ in range(DECK)])

    def shuffle_step(self, deck_in: Sequence[bytes]) -> list[bytes]:
        """Step 1 (host) / 2 (guest): encrypt every card with the master key and shuffle."""
        enc = mul_many(self.master, deck_in)
        return [enc[self.perm[i]] for i in range(DECK)]

    def rekey_step(self, deck_in: Sequence[bytes]) -> list[bytes]:
        """Step 3 (host) / 4 (guest): swap the master key for one key per slot."""
        inv = inverse(self.master)
        return [mul(self.slot_keys[i] * inv % ORDER, x) for i, x in enumerate(deck_in)]

    def to_wire(self) -> dict:
        return {"master": self.master, "perm": list(self.perm), "keys": list(self.slot_keys)}


@dataclass
class Deal:
    """One hand's encrypted deck, as both peers see it, and the cards each can open."""

    points: list[bytes]  # card c's point (from the shared seed)
    mine: DealerSecrets
    decks: list[list[bytes]] = field(default_factory=list)  # D1..D4 as exchanged
    peer_keys: dict[int, int] = field(default_factory=dict)  # slot -> peer's key, once published

    def __post_init__(self) -> None:
        self.by_point = {x: c for c, x in enumerate(self.points)}

    @property
    def final(self) -> list[bytes]:
        return self.decks[3]

    def open_slot(self, slot: int, peer_key: int, record: bool = True) -> int:
        """The card in ``slot`` given the peer's key for it; DealError if that key is wrong.

        With ``record=False`` nothing is stored (to check a message before accepting it).
        """
        if not 0 <= slot < DECK:
            raise DealError(f"slot {slot} is outside 0..51")
        check_scalar(peer_key)
        if slot in self.peer_keys and self.peer_keys[slot] != peer_key:
            raise DealError(f"a second, different key for slot {slot}")
        both = self.mine.slot_keys[slot] * peer_key % ORDER
        card = self.by_point.get(mul(inverse(both), self.final[slot]))
        if card is None:
            raise DealError(f"the key for slot {slot} does not open a card")
        if record:
            self.peer_keys[slot] = peer_key
        return card


def verify_peer(deal: Deal, peer: dict, peer_is_host: bool) -> list[int]:
    """Check the peer's revealed secrets against the transcript; return the deck (card per slot).

    ``peer`` is the peer's ``DealerSecrets.to_wire()``. Raises DealError naming the first step
    that does not match: a peer that shuffled or keyed dishonestly is caught here.
    """
    master, perm, keys = peer["master"], peer["perm"], peer["keys"]
    check_scalar(master)
    check_permutation(perm)
    if len(keys) != DECK:
        raise DealError("the reveal must hold 52 slot keys")
    for k in keys:
        check_scalar(k)
    for slot, k in deal.peer_keys.items():
        if keys[slot] != k:
            raise DealError(f"the revealed key for slot {slot} differs from the one published")
    theirs = DealerSecrets(master, list(perm), list(keys))
    d1, d2, d3, d4 = deal.decks
    if peer_is_host:
        if theirs.shuffle_step(deal.points) != d1:
            raise DealError("the host's shuffle (step 1) does not match its keys")
        if theirs.rekey_step(d2) != d3:
            raise DealError("the host's re-keying (step 3) does not match its keys")
        host_perm, guest_perm = perm, deal.mine.perm
    else:
        if theirs.shuffle_step(d1) != d2:
            raise DealError("the guest's shuffle (step 2) does not match its keys")
        if theirs.rekey_step(d3) != d4:
            raise DealError("the guest's re-keying (step 4) does not match its keys")
        host_perm, guest_perm = deal.mine.perm, perm
    # D2[i] = E(M[host_perm[guest_perm[i]]]) and the re-keying keeps slots in place
    deck = [host_perm[guest_perm[i]] for i in range(DECK)]
    if sorted(deck) != list(range(DECK)):
        raise DealError("the deck does not hold 52 distinct cards")
    return deck
