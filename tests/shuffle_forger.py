"""A forger of shuffle proofs, as a cheater with a fast machine would build one.

For a *false* deck it prepares every cut-and-choose round several ways: some able to answer
bit 0 (an honest blinding of the input deck), some able to answer bit 1 (a blinding made
backwards from the false output). No one way answers both bits of a round, so it must commit
to a guess of every bit (and it has many commitments for each guess to try). Where the
prover can compute the challenge itself (a Fiat-Shamir challenge: a hash of what it sends),
it searches offline until the challenge agrees with its guess, a hash or two a try: that is
the attack the interactive challenge closes. It uses the proof's own internals, as a
modified client would.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gin3d.net import group as g
from gin3d.net import shuffleproof as sp


@dataclass
class Forgery:
    ctx: bytes
    ways: list[list[tuple[int, bytes, str]]]  # per round: (the bit it answers, digest, opening)

    def pick(self) -> list[int]:
        """A random way for every round."""
        return [secrets.randbelow(len(w)) for w in self.ways]

    def bits(self, choice: Sequence[int]) -> list[int]:
        return [w[c][0] for w, c in zip(self.ways, choice)]

    def root(self, choice: Sequence[int]) -> bytes:
        return sp._root([w[c][1] for w, c in zip(self.ways, choice)])

    def answer(self, choice: Sequence[int]) -> list[str]:
        return [w[c][2] for w, c in zip(self.ways, choice)]


def _opening(perm: Sequence[int], s: int) -> str:
    return (b"\x01" + bytes(perm) + g.scalar_bytes(s)).hex()


def prepare(
    x: int,
    deck_in: Sequence[bytes],
    false_out: Sequence[bytes],
    context: bytes,
    step: int,
    ways: int = 2,
) -> Forgery:
    """``ways`` one-bit answers of each bit, every round, for "``false_out`` is a shuffle
    of ``x*deck_in``" (with two, there are 4^ROUNDS commitments, 2^ROUNDS of them forgeries
    under a challenge the prover computes itself)."""
    commit = g.base(x)
    ctx = sp.shuffle_ctx(context, step, deck_in, false_out, commit)
    u_in, u_out = g.u_coords(deck_in), g.u_coords(false_out)
    rounds = []
    for _ in range(sp.ROUNDS):
        made = []
        for _ in range(ways):
            seed = secrets.token_bytes(32)  # bit 0 opens a round's seed: (t, sigma)
            t, sigma = sp._expand_round(seed)
            e0 = [g.umul(t, u_in[sigma[k]], deck_in[sigma[k]]) for k in range(g.DECK)]
            made.append((0, sp._round_digest(e0, g.ubase(t)), (b"\x00" + seed).hex()))
            u, rho = g.random_scalar(), g.random_permutation()
            v = g.inverse(u)  # E[rho(i)] = out[i] / u, T = X / u: opens as (rho, u)
            e1: list[bytes] = [b""] * g.DECK
            for i in range(g.DECK):
                e1[rho[i]] = g.umul(v, u_out[i], false_out[i])
            d1 = sp._round_digest(e1, g.umul(v, g.mont(commit), commit))
            made.append((1, d1, _opening(rho, u)))
        rounds.append(made)
    return Forgery(ctx, rounds)


def grind(
    forgery: Forgery, challenge: Callable[[bytes], list[int]], tries: int
) -> list[int] | None:
    """Search commitments offline until ``challenge(root)`` is the bits they answer (a
    hash or two a try); the choice of ways, or None."""
    for _ in range(tries):
        choice = forgery.pick()
        if challenge(forgery.root(choice)) == forgery.bits(choice):
            return choice
    return None


def false_deck(x: int, perm: Sequence[int], deck_in: Sequence[bytes]) -> list[bytes]:
    """``x*deck_in`` shuffled by ``perm``, but one card replaced by another card under a
    second key: a deck with a card twice, which no shuffle makes."""
    out = [g.mul(x, deck_in[perm[i]]) for i in range(g.DECK)]
    out[5] = g.mul(2, out[4])
    return out
