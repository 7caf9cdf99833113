"""The group of the fair deal: edwards25519's prime-order subgroup through libsodium (PyNaCl),
and what the proofs share: canonical points only, scalars, card points, permutations, the
proof pool, transcripts, and the X25519 fast path on Montgomery u-coordinates.

Every point a peer sends must pass libsodium's ``crypto_core_ed25519_is_valid_point``
(canonical encoding, on the curve, not of small order, in the prime-order subgroup), so each
group element has exactly one encoding and no torsion can hide in it. Commutative encryption
is scalar multiplication: ``E_a(P) = a*P``, ``E_a(E_b(P)) = E_ab(P)``, undone by ``E_{1/a}``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from nacl import bindings as _nb
from nacl.exceptions import CryptoError as _CryptoError

ORDER = 2**252 + 27742317777372353535851937790883648493  # l, the prime order of the group
DECK = 52
POINT_BYTES = 32


class DealError(ValueError):
    """A peer's deck, key or transcript is wrong: the message is refused or the hand voided."""


class ProofError(DealError):
    """A proof or a lock does not hold: the peer's client is provably dishonest."""


# -- the group -----------------------------------------------------------------------------
def scalar_bytes(k: int) -> bytes:
    return k.to_bytes(32, "little")


def check_point(p: bytes) -> None:
    """Refuse anything that is not the canonical encoding of a prime-order-subgroup point."""
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise DealError("a group element is 32 bytes")
    if not _nb.crypto_core_ed25519_is_valid_point(p):
        raise DealError("not a point of the prime-order group")


def check_scalar(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or not 0 < k < ORDER:
        raise DealError("a key is a whole number in 1..l-1")


def mul(k: int, p: bytes) -> bytes:
    """``k*P`` (libsodium checks ``P`` is a valid subgroup point)."""
    check_scalar(k)
    try:
        return _nb.crypto_scalarmult_ed25519_noclamp(scalar_bytes(k), p)
    except (_CryptoError, TypeError, ValueError) as exc:
        raise DealError("not a point of the prime-order group") from exc


def base(k: int) -> bytes:
    """``k*G``."""
    check_scalar(k)
    return _nb.crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(k))


def point_sub(p: bytes, q: bytes) -> bytes:
    return _nb.crypto_core_ed25519_sub(p, q)


def mul_many(k: int, ps: Sequence[bytes]) -> list[bytes]:
    return [mul(k, p) for p in ps]


def inverse(k: int) -> int:
    return pow(k, -1, ORDER)


def random_scalar() -> int:
    return secrets.randbelow(ORDER - 1) + 1


def hash_scalar(*parts: bytes) -> int:
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return int.from_bytes(h.digest(), "little") % ORDER


def card_points(seed: bytes) -> list[bytes]:
    """The 52 card points for a seed: hashed to the group (two Elligator 2 maps, added), so
    nobody knows a discrete log between two cards or to the generator."""
    points: list[bytes] = []
    for card in range(DECK):
        counter = 0
        while True:
            h = hashlib.sha512(
                b"gin3d-card/2|" + seed + bytes([card]) + counter.to_bytes(4, "big")
            ).digest()
            counter += 1
            p = _nb.crypto_core_ed25519_add(
                _nb.crypto_core_ed25519_from_uniform(h[:32]),
                _nb.crypto_core_ed25519_from_uniform(h[32:]),
            )
            if unsigned(p) not in {
                unsigned(q) for q in points
            } and _nb.crypto_core_ed25519_is_valid_point(p):
                points.append(p)
                break
    return points


def random_permutation(n: int = DECK) -> list[int]:
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def inverse_perm(perm: Sequence[int]) -> list[int]:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def unsigned(p: bytes) -> bytes:
    """A point's encoding with its sign bit cleared: the same for ``P`` and ``-P``."""
    return p[:31] + bytes([p[31] & 0x7F])


def check_deck(deck: Sequence[bytes]) -> None:
    """A received deck: 52 points of the group, no two equal even up to sign."""
    if len(deck) != DECK:
        raise DealError(f"a deck has {DECK} cards, got {len(deck)}")
    if len({unsigned(p) for p in deck}) != DECK:
        raise DealError("a deck holds the same encrypted card twice")
    for p in deck:
        check_point(p)


def is_hex32(v) -> bool:
    if not isinstance(v, str) or len(v) != 64:
        return False
    try:
        bytes.fromhex(v)
    except ValueError:
        return False
    return True


def check_permutation(perm: Sequence[int]) -> None:
    if sorted(perm) != list(range(DECK)):
        raise DealError("a shuffle is not a permutation of 0..51")


# -- parallel work -------------------------------------------------------------------------
# libsodium calls through cffi release the GIL: proof rounds run on all cores at once.
_POOL = ThreadPoolExecutor(
    max_workers=max(2, min(4, os.cpu_count() or 2)), thread_name_prefix="gin3d-proof"
)


def pool_map(fn: Callable, items: Sequence) -> list:
    """``[fn(x) for x in items]`` on the proof pool (never call it from a pool thread)."""
    return list(_POOL.map(fn, items))


# -- transcripts --------------------------------------------------------------------------
def transcript(label: bytes, context: bytes, step: int, *parts: bytes) -> bytes:
    h = hashlib.sha512(b"gin3d-fairdeal/2|" + label)
    for part in (context, bytes([step]), *parts):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


# The shuffle proof works on Montgomery u-coordinates (a point up to its sign) with X25519's
# ladder, about three times faster than an edwards25519 multiplication with its subgroup
# check. X25519 clamps its scalar to 2^254 + 8m (m < 2^251), which on the prime-order
# subgroup is the scalar (2^254 + 8m) mod l: half of all scalars mod l can be written so.
_INV8 = pow(8, -1, ORDER)


@functools.lru_cache(maxsize=1024)
def mont(p: bytes) -> bytes:
    """The u-coordinate of a (valid) point: the same for ``P`` and ``-P`` (kept for the
    decks of this deal, which the next proof reads again)."""
    try:
        return _nb.crypto_sign_ed25519_pk_to_curve25519(p)
    except (_CryptoError, TypeError, ValueError) as exc:
        raise DealError("not a point of the prime-order group") from exc


def clamped(s: int) -> bytes | None:
    """An X25519 scalar that multiplies subgroup points by ``s``, or None where none exists."""
    m = (s - 2**254) * _INV8 % ORDER
    return scalar_bytes(2**254 + 8 * m) if m < 2**251 else None


def umul(s: int, u: bytes, p: bytes) -> bytes:
    """u(s*P), given P's u-coordinate ``u`` and P itself ``p`` (for scalars X25519 can't take)."""
    k = clamped(s)
    if k is not None:
        return _nb.crypto_scalarmult(k, u)
    return mont(mul(s, p))


U_G = mont(base(1))


def ubase(s: int) -> bytes:
    k = clamped(s)
    return _nb.crypto_scalarmult_base(k) if k is not None else mont(base(s))


def u_coords(deck: Sequence[bytes]) -> list[bytes]:
    return pool_map(mont, deck)
