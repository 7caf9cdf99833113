"""The shuffle proof: "``out`` is a permutation of ``x*in`` (each card up to its sign) and
``X = x*G``", a cut-and-choose over ``ROUNDS`` intermediate decks whose challenge is the
verifier's (docs/net.md, *The shuffle proof*).

The prover commits to its rounds with one root hash (``commit_shuffle``); the verifier's
nonce, keyed with its secret and sent after the root, picks the bits (``challenge_nonce``,
``challenge_bits``); the prover opens each round for its bit (``open_shuffle``): bit 0 the
round's seed, bit 1 the permutation and scalar linking the round to ``out``; the verifier
rebuilds every round from its opening and checks the root (``verify_shuffle``). Answering
both bits of one round gives the witness, so a false statement passes one live attempt with
probability 2^-ROUNDS, and a prover never answers two challenges for one commitment.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from nacl import bindings as _nb

from .group import (
    DECK,
    ORDER,
    DealError,
    ProofError,
    base,
    check_point,
    clamped,
    inverse,
    inverse_perm,
    mont,
    pool_map,
    scalar_bytes,
    transcript,
    u_coords,
    ubase,
    umul,
)

ROUNDS = 40  # cut-and-choose rounds of a shuffle proof: 2^-40 a live attempt (docs/net.md)
SEED_OPENING_HEX = 2 * (1 + 32)  # a shuffle-proof opening of bit 0: the round's seed
OPENING_HEX = 2 * (1 + DECK + 32)  # ... of bit 1: the permutation and the scalar


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
    return hmac.new(scalar_bytes(secret), b"gin3d-challenge|" + ctx + root, hashlib.sha256).digest()


def shuffle_ctx(context: bytes, step: int, deck_in, deck_out, commit: bytes) -> bytes:
    return transcript(b"shuffle", context, step, b"".join(deck_in), b"".join(deck_out), commit)


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
        seed = hashlib.sha256(label + scalar_bytes(x) + ctx).digest()
        t, _ = _expand_round(seed)
        if clamped(t) is not None and clamped(t * x_inv % ORDER) is not None:
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
    ctx = shuffle_ctx(context, step, deck_in, deck_out, base(x))
    u_in = u_coords(deck_in)

    def commit_round(j):
        seed = _round_seed(x, ctx, j)
        t, sigma = _expand_round(seed)
        k = clamped(t)
        e = [_nb.crypto_scalarmult(k, u_in[sigma[i]]) for i in range(DECK)]
        return seed, _round_digest(e, ubase(t))

    made = pool_map(commit_round, range(ROUNDS))
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
        inv = inverse_perm(sigma)
        rho, s = [inv[perm[i]] for i in range(DECK)], x * inverse(t) % ORDER
        proof.append((b"\x01" + bytes(rho) + scalar_bytes(s)).hex())
    return proof


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
    ctx = shuffle_ctx(context, step, deck_in, deck_out, commit)
    if challenge_bits(ctx, root, nonce) != [o[0] for o in openings]:
        raise ProofError(f"the shuffle proof of step {step} answers another challenge")
    u_in, u_out, u_commit = u_coords(deck_in), u_coords(deck_out), mont(commit)

    def rebuild(opening):
        bit, p, s = opening
        try:
            if bit == 0:  # E[k] = s * in[p(k)], T = s*G
                e = [umul(s, u_in[p[k]], deck_in[p[k]]) for k in range(DECK)]
                return _round_digest(e, ubase(s))
            v = inverse(s)  # E[p(i)] = out[i] / s, T = X / s
            e: list[bytes] = [b""] * DECK
            for i in range(DECK):
                e[p[i]] = umul(v, u_out[i], deck_out[i])
            return _round_digest(e, umul(v, u_commit, commit))
        except DealError:
            return b""

    if _root(pool_map(rebuild, openings)) != root:
        raise ProofError(f"the shuffle proof of step {step} does not hold")
