"""Two-party SRA mental poker with a zero-knowledge proof at every step of the deal.

The group is the prime-order subgroup (order ``ORDER`` = l = 2^252 + ...) of edwards25519, used
through libsodium via PyNaCl (``crypto_scalarmult_ed25519_noclamp``, ``crypto_core_ed25519_*``):
no field arithmetic of our own. Every point a peer sends must pass libsodium's
``crypto_core_ed25519_is_valid_point`` (canonical encoding, on the curve, not of small order, in
the prime-order subgroup), so each group element has exactly one encoding and no torsion can
hide in it. (PyNaCl has no ristretto255 bindings; with that check the subgroup is the same
prime-order group ristretto255 encodes.) Commutative encryption is scalar multiplication:
``E_a(P) = a*P``, ``E_a(E_b(P)) = E_ab(P)``, undone by ``E_{1/a}``.

The deck (slot ``i`` of the final deck is dealt ``i``-th, exactly like the engine's deck):

1. both peers fix a seed by commit-reveal; card ``c`` is the point hashed from (seed, c);
2. host: ``D1 = perm_a(a*M)`` with ``A = a*G`` and a shuffle proof;
3. guest: ``D2 = perm_b(b*D1)`` with ``B = b*G`` and a shuffle proof;
4. host: ``D3_i = (a_i/a)*D2_i`` with locks ``A_i = a_i*G`` and a re-key proof;
5. guest: ``D4_i = (b_i/b)*D3_i`` with locks ``B_i = b_i*G`` and a re-key proof,
   so ``D4_i = a_i*b_i*M_card``.

Each proof is checked the moment its deck arrives (``Deal.accept``); a key published later is
checked against its lock (``a_i*G == A_i``) before it is used. The proofs:

* **shuffle** (``commit_shuffle``/``open_shuffle``/``verify_shuffle``): "out is a permutation
  of x*in, where X = x*G", a cut-and-choose over ``ROUNDS`` = 40 intermediate decks
  ``E_j = s_j(t_j*in)``, ``T_j = t_j*G``, committed to by one root hash in the deck message.
  The challenge is the *verifier's*: a nonce keyed with its secret master key, sent after the
  root arrived (``Deal.challenge``), so no search before the commitment can pick it. Bit 0
  opens the round's seed (so ``s_j, t_j``), bit 1 opens ``(r_j, u_j)`` with
  ``out = r_j(u_j*E_j)``, ``X = u_j*T_j``. Answering both bits of one round yields the
  witness, so a false statement passes one live attempt with probability 2^-40, and a failed
  attempt is a cheat verdict; for the same reason a prover answers one challenge per
  commitment (``DealerSecrets.answer``).
* **re-key** (``prove_rekey``/``verify_rekey``): for every slot, Chaum-Pedersen
  ``log_X(X_i) = log_{in_i}(out_i)``: one challenge for all 52 (soundness ~2^-252), so
  ``out_i = (x_i/x)*in_i`` with ``X_i = x_i*G`` and ``X`` the shuffle step's commitment.

Every challenge hashes the match context (match, game, hand), the step, both decks and the
commitments: a proof cannot be replayed in another hand, step or match. docs/net.md weighs
this proof against the alternatives and states the threat model.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from nacl import bindings as _nb
from nacl.exceptions import CryptoError as _CryptoError

ORDER = 2**252 + 27742317777372353535851937790883648493  # l, the prime order of the group
DECK = 52
POINT_BYTES = 32
ROUNDS = 40  # cut-and-choose rounds of a shuffle proof: 2^-40 a live attempt (docs/net.md)
SHUFFLE_STEPS = (1, 2)
REKEY_STEPS = (3, 4)
SEED_OPENING_HEX = 2 * (1 + 32)  # a shuffle-proof opening of bit 0: the round's seed
OPENING_HEX = 2 * (1 + DECK + 32)  # ... of bit 1: the permutation and the scalar


class DealError(ValueError):
    """A peer's deck, key or transcript is wrong: the message is refused or the hand voided."""


class ProofError(DealError):
    """A proof or a lock does not hold: the peer's client is provably dishonest."""


class ChallengeError(DealError):
    """The peer challenged one of our commitments a second time, differently: we answer
    no more (its save and ours hold different deals, or it fishes for our shuffle)."""


# -- the group -----------------------------------------------------------------------------
def _sc(k: int) -> bytes:
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
        return _nb.crypto_scalarmult_ed25519_noclamp(_sc(k), p)
    except (_CryptoError, TypeError, ValueError) as exc:
        raise DealError("not a point of the prime-order group") from exc


def base(k: int) -> bytes:
    """``k*G``."""
    check_scalar(k)
    return _nb.crypto_scalarmult_ed25519_base_noclamp(_sc(k))


def _sub(p: bytes, q: bytes) -> bytes:
    return _nb.crypto_core_ed25519_sub(p, q)


def mul_many(k: int, ps: Sequence[bytes]) -> list[bytes]:
    return [mul(k, p) for p in ps]


def inverse(k: int) -> int:
    return pow(k, -1, ORDER)


def random_scalar() -> int:
    return secrets.randbelow(ORDER - 1) + 1


def _hash_scalar(*parts: bytes) -> int:
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


def _inverse_perm(perm: Sequence[int]) -> list[int]:
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


def _is_hex32(v) -> bool:
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


def _map(fn: Callable, items: Sequence) -> list:
    """``[fn(x) for x in items]`` on the proof pool (never call it from a pool thread)."""
    return list(_POOL.map(fn, items))


# -- the proofs ----------------------------------------------------------------------------
def _transcript(label: bytes, context: bytes, step: int, *parts: bytes) -> bytes:
    h = hashlib.sha512(b"gin3d-fairdeal/2|" + label)
    for part in (context, bytes([step]), *parts):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def _round_digest(deck: Sequence[bytes], t: bytes) -> bytes:
    return hashlib.sha256(b"".join(deck) + t).digest()


def _root(digests: Sequence[bytes]) -> bytes:
    """The prover's commitment to all its rounds: one hash of their digests."""
    return hashlib.sha256(b"gin3d-shuffle-rounds|" + b"".join(digests)).digest()


def challenge_bits(ctx: bytes, root: bytes, nonce: bytes) -> list[int]:
    """The rounds' challenge bits: the statement, the prover's commitment to its rounds, and
    the verifier's nonce, chosen after that commitment arrived (so no search beforehand
    can pick them)."""
    d = hashlib.sha256(b"gin3d-shuffle-challenge/3|" + ctx + root + nonce).digest()
    return [(d[j // 8] >> (j % 8)) & 1 for j in range(ROUNDS)]


def challenge_nonce(secret: int, ctx: bytes, root: bytes) -> bytes:
    """The verifier's challenge for one commitment: secret to the prover (keyed with the
    verifier's master key for the hand, revealed only after the hand), and the same again if
    a resumed hand sends the same commitment, so an honest prover is never asked twice."""
    return hmac.new(_sc(secret), b"gin3d-challenge|" + ctx + root, hashlib.sha256).digest()


def _shuffle_ctx(context: bytes, step: int, deck_in, deck_out, commit: bytes) -> bytes:
    return _transcript(b"shuffle", context, step, b"".join(deck_in), b"".join(deck_out), commit)


# The shuffle proof works on Montgomery u-coordinates (a point up to its sign) with X25519's
# ladder, about three times faster than an edwards25519 multiplication with its subgroup
# check. X25519 clamps its scalar to 2^254 + 8m (m < 2^251), which on the prime-order
# subgroup is the scalar (2^254 + 8m) mod l: half of all scalars mod l can be written so.
_INV8 = pow(8, -1, ORDER)


@functools.lru_cache(maxsize=1024)
def _mont(p: bytes) -> bytes:
    """The u-coordinate of a (valid) point: the same for ``P`` and ``-P`` (kept for the
    decks of this deal, which the next proof reads again)."""
    try:
        return _nb.crypto_sign_ed25519_pk_to_curve25519(p)
    except (_CryptoError, TypeError, ValueError) as exc:
        raise DealError("not a point of the prime-order group") from exc


def _clamped(s: int) -> bytes | None:
    """An X25519 scalar that multiplies subgroup points by ``s``, or None where none exists."""
    m = (s - 2**254) * _INV8 % ORDER
    return _sc(2**254 + 8 * m) if m < 2**251 else None


def _umul(s: int, u: bytes, p: bytes) -> bytes:
    """u(s*P), given P's u-coordinate ``u`` and P itself ``p`` (for scalars X25519 can't take)."""
    k = _clamped(s)
    if k is not None:
        return _nb.crypto_scalarmult(k, u)
    return _mont(mul(s, p))


_U_G = _mont(base(1))


def _ubase(s: int) -> bytes:
    k = _clamped(s)
    return _nb.crypto_scalarmult_base(k) if k is not None else _mont(base(s))


def _us(deck: Sequence[bytes]) -> list[bytes]:
    return _map(_mont, deck)


def _expand_round(seed: bytes) -> tuple[int, list[int]]:
    """A round's blinding key and shuffle from its 32-byte seed (bit 0 opens the seed)."""
    stream = hashlib.shake_256(b"gin3d-shuffle-round/3|" + seed).digest(64 + 16 * (DECK - 1))
    t = int.from_bytes(stream[:64], "little") % ORDER or 1
    sigma = list(range(DECK))
    for n, i in enumerate(range(DECK - 1, 0, -1)):  # Fisher-Yates on 128-bit draws
        k = int.from_bytes(stream[64 + 16 * n : 80 + 16 * n], "little") % (i + 1)
        sigma[i], sigma[k] = sigma[k], sigma[i]
    return t, sigma


def _round_seed(x: int, ctx: bytes, j: int) -> bytes:
    """Round ``j``'s seed, derived from the prover's master key and the whole statement:
    unpredictable to anyone else, and the same when a resumed hand needs the round again (a
    new statement gets new rounds, so no round is ever opened both ways). The first whose key
    ``t`` lets both openings' scalars (``t`` and ``x/t``) be X25519 scalars."""
    x_inv = inverse(x)
    for counter in range(1 << 16):
        label = b"gin3d-shuffle-seed|" + j.to_bytes(2, "big") + counter.to_bytes(2, "big")
        seed = hashlib.sha256(label + _sc(x) + ctx).digest()
        t, _ = _expand_round(seed)
        if _clamped(t) is not None and _clamped(t * x_inv % ORDER) is not None:
            break
    return seed


@dataclass
class ShuffleCommitment:
    """A prover's rounds for one shuffle statement, before any challenge: the root goes in
    the deck message, the rounds stay with the prover until the verifier's nonce comes."""

    ctx: bytes
    rounds: list[bytes]  # each round's seed: (t, sigma), E = t*in[sigma], T = t*G
    root: bytes


def commit_shuffle(
    x: int,
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    context: bytes,
    step: int,
) -> ShuffleCommitment:
    """The prover's first move for "``deck_out`` is a shuffle of ``x*deck_in``": ``ROUNDS``
    intermediate decks ``E_j = sigma_j(t_j*in)``, committed to by one root hash."""
    ctx = _shuffle_ctx(context, step, deck_in, deck_out, base(x))
    u_in = _us(deck_in)

    def commit_round(j):
        seed = _round_seed(x, ctx, j)
        t, sigma = _expand_round(seed)
        k = _clamped(t)
        e = [_nb.crypto_scalarmult(k, u_in[sigma[i]]) for i in range(DECK)]
        return seed, _round_digest(e, _ubase(t))

    made = _map(commit_round, range(ROUNDS))
    return ShuffleCommitment(ctx, [r for r, _ in made], _root([d for _, d in made]))


def open_shuffle(c: ShuffleCommitment, x: int, perm: Sequence[int], nonce: bytes) -> list[str]:
    """The openings answering the verifier's ``nonce``: bit 0 opens the round's seed (so
    ``(sigma_j, t_j)``), bit 1 opens ``(rho_j, x/t_j)`` with ``out = rho_j((x/t_j)*E_j)``.
    Call it once per commitment: both answers of one round would give the shuffle away."""
    proof = []
    for bit, seed in zip(challenge_bits(c.ctx, c.root, nonce), c.rounds):
        if bit == 0:
            proof.append((b"\x00" + seed).hex())
            continue
        t, sigma = _expand_round(seed)  # out[i] = u * E[rho(i)]: rho = sigma^-1 perm, u = x/t
        inv = _inverse_perm(sigma)
        rho, s = [inv[perm[i]] for i in range(DECK)], x * inverse(t) % ORDER
        proof.append((b"\x01" + bytes(rho) + _sc(s)).hex())
    return proof


def prove_shuffle(
    x: int,
    perm: Sequence[int],
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    context: bytes,
    step: int,
    nonce_of: Callable[[bytes, bytes], bytes],
) -> tuple[bytes, bytes, list[str]]:
    """The whole exchange in one call (for a prover and verifier in one process, as the
    benchmarks and tests run them): ``(root, nonce, openings)``; ``nonce_of(ctx, root)`` is
    the verifier's answer to the commitment."""
    c = commit_shuffle(x, deck_in, deck_out, context, step)
    nonce = nonce_of(c.ctx, c.root)
    return c.root, nonce, open_shuffle(c, x, perm, nonce)


def _openings(proof) -> list[tuple[int, list[int], int]]:
    if not isinstance(proof, list) or len(proof) != ROUNDS:
        raise ProofError(f"a shuffle proof has {ROUNDS} openings")
    out = []
    for text in proof:
        if not isinstance(text, str) or len(text) not in (SEED_OPENING_HEX, OPENING_HEX):
            raise ProofError("a shuffle-proof opening has the wrong length")
        try:
            raw = bytes.fromhex(text)
        except ValueError:
            raise ProofError("a shuffle-proof opening is not hex") from None
        if raw[0] == 0 and len(raw) == 1 + 32:
            t, sigma = _expand_round(raw[1:])
            out.append((0, sigma, t))
            continue
        perm, s = list(raw[1 : 1 + DECK]), int.from_bytes(raw[1 + DECK :], "little")
        if raw[0] != 1 or sorted(perm) != list(range(DECK)) or not 0 < s < ORDER:
            raise ProofError("a shuffle-proof opening is malformed")
        out.append((1, perm, s))
    return out


def verify_shuffle(
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    commit: bytes,
    root: bytes,
    nonce: bytes,
    proof,
    context: bytes,
    step: int,
) -> None:
    """ProofError unless ``proof`` (the openings sent for ``nonce``) shows ``deck_out`` is a
    shuffle of ``x*deck_in``, X = x*G, each card up to its sign (which no card's identity
    depends on: see ``Deal.by_point``): every round rebuilt from its opening must give the
    committed ``root``, and the bits opened must be the challenge.

    ``deck_in`` and ``deck_out`` must already be checked (``check_deck``)."""
    check_point(commit)
    openings = _openings(proof)
    ctx = _shuffle_ctx(context, step, deck_in, deck_out, commit)
    if challenge_bits(ctx, root, nonce) != [o[0] for o in openings]:
        raise ProofError(f"the shuffle proof of step {step} answers another challenge")
    u_in, u_out, u_commit = _us(deck_in), _us(deck_out), _mont(commit)

    def rebuild(opening):
        bit, p, s = opening
        try:
            if bit == 0:  # E[k] = s * in[p(k)], T = s*G
                e = [_umul(s, u_in[p[k]], deck_in[p[k]]) for k in range(DECK)]
                return _round_digest(e, _ubase(s))
            v = inverse(s)  # E[p(i)] = out[i] / s, T = X / s
            e: list[bytes] = [b""] * DECK
            for i in range(DECK):
                e[p[i]] = _umul(v, u_out[i], deck_out[i])
            return _round_digest(e, _umul(v, u_commit, commit))
        except DealError:
            return b""

    if _root(_map(rebuild, openings)) != root:
        raise ProofError(f"the shuffle proof of step {step} does not hold")


def _rekey_ctx(context, step, commit, deck_in, deck_out, locks) -> bytes:
    return _transcript(
        b"rekey", context, step, commit, b"".join(deck_in), b"".join(deck_out), b"".join(locks)
    )


def prove_rekey(
    x: int,
    keys: Sequence[int],
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    locks: Sequence[bytes],
    context: bytes,
    step: int,
) -> list[str]:
    """Chaum-Pedersen for every slot: ``log_X(locks[i]) == log_{in[i]}(out[i]) == keys[i]/x``."""
    commit = base(x)
    w = [k * inverse(x) % ORDER for k in keys]
    rs = [random_scalar() for _ in range(DECK)]
    pairs = _map(lambda i: mul(rs[i], commit) + mul(rs[i], deck_in[i]), range(DECK))
    c = _hash_scalar(_rekey_ctx(context, step, commit, deck_in, deck_out, locks), *pairs)
    return [_sc(c).hex()] + [_sc((rs[i] + c * w[i]) % ORDER).hex() for i in range(DECK)]


def verify_rekey(
    commit: bytes,
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
    locks: Sequence[bytes],
    proof,
    context: bytes,
    step: int,
) -> None:
    """ProofError unless every ``out[i] == (x_i/x)*in[i]`` with ``locks[i] == x_i*G``."""
    if (
        not isinstance(proof, list)
        or len(proof) != DECK + 1
        or not all(isinstance(z, str) and len(z) == 64 for z in proof)
    ):
        raise ProofError(f"a re-key proof has {DECK + 1} scalars")
    c, *zs = (int.from_bytes(bytes.fromhex(z), "little") for z in proof)
    if not all(0 <= z < ORDER for z in (c, *zs)) or c == 0:
        raise ProofError("a re-key proof scalar is out of range")

    def rebuild(i):
        z = zs[i]
        try:
            if z == 0:
                return b""
            return _sub(mul(z, commit), mul(c, locks[i])) + _sub(
                mul(z, deck_in[i]), mul(c, deck_out[i])
            )
        except (DealError, _CryptoError):
            return b""

    pairs = _map(rebuild, range(DECK))
    if _hash_scalar(_rekey_ctx(context, step, commit, deck_in, deck_out, locks), *pairs) != c:
        raise ProofError(f"the re-key proof of step {step} does not hold")


# -- one peer's part -----------------------------------------------------------------------
@dataclass
class DealerSecrets:
    """One peer's secrets for one hand: master key, shuffle, and one key per slot."""

    master: int = field(default_factory=random_scalar)
    perm: list[int] = field(default_factory=random_permutation)
    slot_keys: list[int] = field(default_factory=lambda: [random_scalar() for _ in range(DECK)])
    answered: dict[int, str] = field(default_factory=dict)  # step -> the nonce we answered
    _commitments: dict[int, ShuffleCommitment] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def commit(self) -> bytes:
        return base(self.master)

    def locks(self) -> list[bytes]:
        return [base(k) for k in self.slot_keys]

    def shuffle_step(self, deck_in: Sequence[bytes]) -> list[bytes]:
        """Step 1 (host) / 2 (guest): encrypt every card with the master key and shuffle."""
        return [mul(self.master, deck_in[self.perm[i]]) for i in range(DECK)]

    def rekey_step(self, deck_in: Sequence[bytes]) -> list[bytes]:
        """Step 3 (host) / 4 (guest): swap the master key for one key per slot."""
        inv = inverse(self.master)
        return [mul(self.slot_keys[i] * inv % ORDER, x) for i, x in enumerate(deck_in)]

    def shuffle_message(self, deck_in: Sequence[bytes], context: bytes, step: int) -> dict:
        """Step 1 / 2 with the commitment to its proof's rounds: ``{"cards", "commits",
        "proof": [root]}`` (points as bytes); the openings wait for the peer's challenge
        (``answer``)."""
        out = _map(lambda i: mul(self.master, deck_in[self.perm[i]]), range(DECK))
        c = commit_shuffle(self.master, deck_in, out, context, step)
        self._commitments[step] = c
        _us(out)  # the peer's proof of the next step starts from it: convert it now
        return {"cards": out, "commits": [self.commit], "proof": [c.root.hex()]}

    def answer(
        self, step: int, deck_in: Sequence[bytes], msg: dict, context: bytes, nonce: bytes
    ) -> list[str]:
        """The openings of our step ``step`` (``msg`` as sent) for the peer's ``nonce``.

        ChallengeError for a second, different nonce for the same step: answering two
        challenges of one commitment would give our shuffle away."""
        if not isinstance(nonce, bytes) or len(nonce) != 32:
            raise DealError("a challenge is 32 bytes")
        done = self.answered.get(step)
        if done is not None and done != nonce.hex():
            raise ChallengeError(f"a second, different challenge for deal step {step}")
        c = self._commitments.get(step)
        if c is None or c.root.hex() != msg["proof"][0]:  # a resumed hand: the same rounds
            c = commit_shuffle(self.master, deck_in, msg["cards"], context, step)
            if c.root.hex() != msg["proof"][0]:
                raise DealError(f"deal step {step} was not made from these secrets")
            self._commitments[step] = c
        self.answered[step] = nonce.hex()
        return open_shuffle(c, self.master, self.perm, nonce)

    def rekey_message(self, deck_in: Sequence[bytes], context: bytes, step: int) -> dict:
        """Step 3 / 4 with its locks and proof."""
        inv = inverse(self.master)
        out = _map(lambda i: mul(self.slot_keys[i] * inv % ORDER, deck_in[i]), range(DECK))
        locks = _map(lambda i: base(self.slot_keys[i]), range(DECK))
        proof = prove_rekey(self.master, self.slot_keys, deck_in, out, locks, context, step)
        return {"cards": out, "commits": locks, "proof": proof}

    def to_wire(self) -> dict:
        return {"master": self.master, "perm": list(self.perm), "keys": list(self.slot_keys)}


@dataclass
class Deal:
    """One hand's encrypted deck, as one peer sees it: the steps so far with their commitments
    and proofs, and the keys the peer has published."""

    points: list[bytes]  # card c's point (from the shared seed)
    mine: DealerSecrets
    decks: list[list[bytes]] = field(default_factory=list)  # D1..D4 as exchanged
    peer_keys: dict[int, int] = field(default_factory=dict)  # slot -> peer's key, once published
    context: bytes = b""  # what every proof of this hand is bound to (match, game, hand)
    seat: int = 0  # whose view this is (0 host: it makes steps 1 and 3)
    commits: list[list[bytes]] = field(default_factory=list)  # per step: [X] or the 52 locks
    proofs: list[list[str]] = field(default_factory=list)  # per step, as sent
    # shuffle steps: the verifier's challenge and the prover's openings, hex
    openings: dict[int, dict] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # a card is its point up to sign: the shuffle proofs hold up to each card's sign
        self.by_point = {unsigned(x): c for c, x in enumerate(self.points)}

    @property
    def final(self) -> list[bytes]:
        return self.decks[3]

    @property
    def step(self) -> int:
        """How many steps of the deal are in (0..4)."""
        return len(self.decks)

    def _input(self, step: int) -> list[bytes]:
        return self.points if step == 1 else self.decks[step - 2]

    def add(self, step: int, msg: dict) -> None:
        """Record a step (our own, or the peer's once ``check`` passed)."""
        if step != self.step + 1:
            raise DealError(f"deal step {step} out of order")
        self.decks.append(list(msg["cards"]))
        self.commits.append(list(msg["commits"]))
        self.proofs.append(list(msg["proof"]))

    def check(self, step: int, msg: dict) -> None:
        """Check the peer's step ``step`` (cards, commits, proof as bytes/hex) on arrival:
        DealError for a malformed deck, ProofError for a re-key proof that does not hold. A
        shuffle step's proof holds only once its openings answer our challenge
        (``challenge``, then ``check_opening``)."""
        if step != self.step + 1 or (step % 2 == 1) != (self.seat == 1):
            raise DealError(f"deal step {step} is not the peer's to make now")
        cards, commits, proof = msg["cards"], msg["commits"], msg["proof"]
        check_deck(cards)
        if step in SHUFFLE_STEPS:
            if len(commits) != 1:
                raise DealError("a shuffle step carries one commitment")
            check_point(commits[0])
            if not isinstance(proof, list) or len(proof) != 1 or not _is_hex32(proof[0]):
                raise DealError("a shuffle step carries the root of its rounds")
            return
        if len(commits) != DECK:
            raise DealError(f"a re-key step carries {DECK} locks")
        for p in commits:
            check_point(p)
        verify_rekey(
            self.commits[step - 3][0],
            self._input(step),
            cards,
            commits,
            proof,
            self.context,
            step,
        )

    def _shuffle_statement(self, step: int, msg: dict) -> bytes:
        return _shuffle_ctx(self.context, step, self._input(step), msg["cards"], msg["commits"][0])

    def challenge(self, step: int, msg: dict) -> bytes:
        """Our challenge to the peer's shuffle step (checked by ``check``): chosen after its
        rounds are committed, the same for the same commitment."""
        root = bytes.fromhex(msg["proof"][0])
        return challenge_nonce(self.mine.master, self._shuffle_statement(step, msg), root)

    def check_opening(self, step: int, msg: dict, nonce: bytes, openings) -> None:
        """ProofError unless ``openings`` answer ``nonce`` for the peer's shuffle ``msg``."""
        self.openings[step] = {"nonce": nonce.hex(), "openings": list(openings)}
        verify_shuffle(
            self._input(step),
            msg["cards"],
            msg["commits"][0],
            bytes.fromhex(msg["proof"][0]),
            nonce,
            openings,
            self.context,
            step,
        )

    def accept(self, step: int, msg: dict, prover: DealerSecrets | None = None) -> None:
        """Check and record the peer's step in one go (prover and verifier in one process:
        ``prover`` answers a shuffle step's challenge)."""
        self.check(step, msg)
        if step in SHUFFLE_STEPS:
            if prover is None:
                raise DealError("a shuffle step needs its prover to answer the challenge")
            nonce = self.challenge(step, msg)
            self.check_opening(
                step, msg, nonce, prover.answer(step, self._input(step), msg, self.context, nonce)
            )
        self.add(step, msg)

    @property
    def peer_locks(self) -> list[bytes]:
        return self.commits[2 if self.seat == 1 else 3]

    def check_key(self, slot: int, peer_key: int) -> None:
        """ProofError unless ``peer_key`` is the one the peer locked for ``slot``."""
        check_scalar(peer_key)
        if base(peer_key) != self.peer_locks[slot]:
            raise ProofError(f"the key for slot {slot} does not match its lock")

    def open_slot(self, slot: int, peer_key: int, record: bool = True) -> int:
        """The card in ``slot`` given the peer's key for it; DealError if that key is wrong
        (ProofError if it is not the key the peer locked at the deal).

        With ``record=False`` nothing is stored (to check a message before accepting it).
        """
        if not 0 <= slot < DECK:
            raise DealError(f"slot {slot} is outside 0..51")
        check_scalar(peer_key)
        if slot in self.peer_keys and self.peer_keys[slot] != peer_key:
            raise DealError(f"a second, different key for slot {slot}")
        self.check_key(slot, peer_key)
        both = self.mine.slot_keys[slot] * peer_key % ORDER
        card = self.by_point.get(unsigned(mul(inverse(both), self.final[slot])))
        if card is None:
            raise DealError(f"the key for slot {slot} does not open a card")
        if record:
            self.peer_keys[slot] = peer_key
        return card


def verify_peer(deal: Deal, peer: dict, peer_is_host: bool) -> list[int]:
    """Check the peer's revealed secrets against the transcript; return the deck (card per slot).

    ``peer`` is the peer's ``DealerSecrets.to_wire()``. Raises DealError naming the first step
    that does not match. (The proofs already held at the deal; this is the end-of-hand audit.)
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
        if _map(lambda i: mul(master, deal.points[perm[i]]), range(DECK)) != d1:
            raise DealError("the host's shuffle (step 1) does not match its keys")
        if theirs.rekey_step(d2) != d3:
            raise DealError("the host's re-keying (step 3) does not match its keys")
        host_perm, guest_perm = perm, deal.mine.perm
    else:
        if _map(lambda i: mul(master, d1[perm[i]]), range(DECK)) != d2:
            raise DealError("the guest's shuffle (step 2) does not match its keys")
        if theirs.rekey_step(d3) != d4:
            raise DealError("the guest's re-keying (step 4) does not match its keys")
        host_perm, guest_perm = deal.mine.perm, perm
    # D2[i] = E(M[host_perm[guest_perm[i]]]) and the re-keying keeps slots in place
    deck = [host_perm[guest_perm[i]] for i in range(DECK)]
    if sorted(deck) != list(range(DECK)):
        raise DealError("the deck does not hold 52 distinct cards")
    return deck
