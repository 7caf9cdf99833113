"""The end of each hand: both decks revealed, the whole hand replayed by the engine with every
card open, and a verdict with the evidence when it does not hold. A part of
``MatchSession`` (``gin3d.net.session``), whose state it shares.
"""

from __future__ import annotations

from gin3d.engine import (
    CARDS,
    Game,
    Hand,
    LogError,
    NextHand,
)

from .constants import (
    CHEATED,
)
from .ended import MatchEnded
from .evidence import write_evidence
from .fairdeal import verify_peer
from .group import DealError
from .protocol import key_hex, key_int


class Verifier:
    """A finished hand checked with every card open."""

    # -- end of hand -----------------------------------------------------------------
    async def _reveal(self, hand_no: int) -> list[int]:
        wire = self.deal.mine.to_wire()
        await self._send(
            {
                "t": "reveal",
                "hand": hand_no,
                "master": key_hex(wire["master"]),
                "perm": wire["perm"],
                "keys": [key_hex(k) for k in wire["keys"]],
            }
        )
        msg = await self._expect("reveal", hand_no)
        peer = {
            "master": key_int(msg["master"]),
            "perm": msg["perm"],
            "keys": [key_int(k) for k in msg["keys"]],
        }
        try:
            return verify_peer(self.deal, peer, self.peer == 0)
        except DealError as exc:
            self._cheated(str(exc), peer)

    def _verify_hand(self, deck: list[int], seed: bytes, dealer: int) -> Hand:
        """Replay the hand with every card open; it must agree with what was played."""
        t = self.tracker
        for slot, c in t.known.items():
            if deck[slot] != c:
                self._cheated(f"slot {slot} was opened as {c} but holds {CARDS[deck[slot]]}")
        try:
            full = Hand.from_log(self.rules, dealer, deck, t.actions, t.hand_number)
        except LogError as exc:
            if exc.part != "action":
                raise
            self._cheated(f"with all cards open the hand is not legal: {exc.reason}")
        if (full.phase, full.winner, full.result and full.result.points) != (
            t.hand.phase,
            t.hand.winner,
            t.hand.result and t.hand.result.points,
        ):
            self._cheated("with all cards open the hand ends differently")
        if self.game is None:
            self.game = Game(self.rules, seed.hex(), first_dealer=dealer, decks=[deck])
        else:
            self.game.add_deck(deck)
            self.game.apply(NextHand())
        if self.game.hand.dealer != dealer:
            raise RuntimeError("dealer rotation out of step with the engine")
        for a in t.actions:
            self.game.apply(a)
        return self.game.hand

    def _verdict(self, why: str, peer: dict | None = None) -> MatchEnded:
        """The cheat verdict: write the evidence, tell the app; the caller ends the match."""
        try:
            where = str(write_evidence(self, why, peer))
        except (OSError, TypeError, ValueError) as exc:
            where = f"not written: {exc}"
        self.callbacks.fire("on_cheat", f"{CHEATED}: {why}", where)
        return MatchEnded(CHEATED, f"{why} (evidence: {where})")

    def _cheated(self, why: str, peer: dict | None = None):
        raise self._verdict(why, peer)
