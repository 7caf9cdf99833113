"""Two-party SRA mental poker with a zero-knowledge proof at every step of the deal.

The group is the prime-order subgroup (order ``ORDER`` = l = 2^252 + ...) of edwards25519, used
through libsodium via PyNaCl (``group``: no field arithmetic of our own, canonical points only;
PyNaCl has no ristretto255 bindings, and with libsodium's subgroup check the group is the same
prime-order group ristretto255 encodes). Commutative encryption is scalar multiplication:
``E_a(P) = a*P``, ``E_a(E_b(P)) = E_ab(P)``, undone by ``E_{1/a}``. The shuffle proof is its
own module (``shuffleproof``); this one holds the re-key proof, one peer's secrets, the deal
as one peer sees it, and the end-of-hand audit.

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

from collections.abc import Sequence
from dataclasses import dataclass, field

from nacl.exceptions import CryptoError as _CryptoError

from .group import (
    DECK,
    ORDER,
    DealError,
    ProofError,
    base,
    check_deck,
    check_permutation,
    check_point,
    check_scalar,
    hash_scalar,
    inverse,
    is_hex32,
    mul,
    point_sub,
    pool_map,
    random_permutation,
    random_scalar,
    scalar_bytes,
    transcript,
    u_coords,
    unsigned,
)
from .shuffleproof import (
    ShuffleCommitment,
    challenge_nonce,
    commit_shuffle,
    open_shuffle,
    shuffle_ctx,
    verify_shuffle,
)

SHUFFLE_STEPS = (1, 2)
REKEY_STEPS = (3, 4)


class ChallengeError(DealError):
    """The peer challenged one of our commitments a second time, differently: we answer
    no more (its save and ours hold different deals, or it fishes for our shuffle)."""


def _rekey_ctx(context, step, commit, deck_in, deck_out, locks) -> bytes:
    return transcript(
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
    pairs = pool_map(lambda i: mul(rs[i], commit) + mul(rs[i], deck_in[i]), range(DECK))
    c = hash_scalar(_rekey_ctx(context, step, commit, deck_in, deck_out, locks), *pairs)
    zs = [scalar_bytes((rs[i] + c * w[i]) % ORDER).hex() for i in range(DECK)]
    return [scalar_bytes(c).hex(), *zs]


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
            return point_sub(mul(z, commit), mul(c, locks[i])) + point_sub(
                mul(z, deck_in[i]), mul(c, deck_out[i])
            )
        except (DealError, _CryptoError):
            return b""

    pairs = pool_map(rebuild, range(DECK))
    if hash_scalar(_rekey_ctx(context, step, commit, deck_in, deck_out, locks), *pairs) != c:
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
        out = pool_map(lambda i: mul(self.master, deck_in[self.perm[i]]), range(DECK))
        c = commit_shuffle(self.master, deck_in, out, context, step)
        self._commitments[step] = c
        u_coords(out)  # the peer's proof of the next step starts from it: convert it now
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
        out = pool_map(lambda i: mul(self.slot_keys[i] * inv % ORDER, deck_in[i]), range(DECK))
        locks = pool_map(lambda i: base(self.slot_keys[i]), range(DECK))
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
            if not isinstance(proof, list) or len(proof) != 1 or not is_hex32(proof[0]):
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
        return shuffle_ctx(self.context, step, self._input(step), msg["cards"], msg["commits"][0])

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
        if pool_map(lambda i: mul(master, deal.points[perm[i]]), range(DECK)) != d1:
            raise DealError("the host's shuffle (step 1) does not match its keys")
        if theirs.rekey_step(d2) != d3:
            raise DealError("the host's re-keying (step 3) does not match its keys")
        host_perm, guest_perm = perm, deal.mine.perm
    else:
        if pool_map(lambda i: mul(master, d1[perm[i]]), range(DECK)) != d2:
            raise DealError("the guest's shuffle (step 2) does not match its keys")
        if theirs.rekey_step(d3) != d4:
            raise DealError("the guest's re-keying (step 4) does not match its keys")
        host_perm, guest_perm = deal.mine.perm, perm
    # D2[i] = E(M[host_perm[guest_perm[i]]]) and the re-keying keeps slots in place
    deck = [host_perm[guest_perm[i]] for i in range(DECK)]
    if sorted(deck) != list(range(DECK)):
        raise DealError("the deck does not hold 52 distinct cards")
    return deck
