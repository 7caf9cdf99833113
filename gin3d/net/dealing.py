"""The fair deal of each hand, step by step: the shuffles with their proofs (each answering
the other peer's challenge), the next hand's deal run ahead during this one, the keys that
open cards, and replaying a resumed hand's deal. A part of ``MatchSession``
(``gin3d.net.session``), whose state it shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars

from gin3d.engine import (
    CARDS,
    Card,
)

from .constants import (
    CAUGHT,
    CHEATED,
)
from .ended import MatchEnded
from .evidence import write_evidence
from .fairdeal import SHUFFLE_STEPS, ChallengeError, Deal, DealerSecrets
from .group import DealError, ProofError, check_deck
from .protocol import key_hex, key_int

# whether the task running now deals the next hand ahead: its waits start no stall clock (the
# peer owes it nothing while this hand is played) and its deal is not yet ``self.deal``
_AHEAD: contextvars.ContextVar[bool] = contextvars.ContextVar("gin3d_ahead", default=False)


class DealProtocol:
    """Each hand's mental-poker deal, every step proven when it arrives; the next hand's deal
    runs ahead, during this hand, so nobody waits for it at Next hand."""

    # -- the deal --------------------------------------------------------------------
    def _deal_context(self, hand_no: int) -> bytes:
        """What every proof of this hand's deal is bound to: match, game and hand."""
        return f"gin3d-deal|{self.match_id}|{self._game_no}|{hand_no}".encode()

    def _start_ahead(self, points: list[bytes], hand_no: int) -> None:
        """Deal hand ``hand_no`` now, in the background, while the hand before is played
        (both peers start it once this hand's cards are open). Nothing of it is published
        before that hand begins: its keys are sent only then."""

        async def ahead() -> Deal | None:
            _AHEAD.set(True)  # this task's context only
            try:
                return await self._shuffle(points, hand_no)
            except MatchEnded:
                return None  # the verdict is out (``_caught``); the match ends with it

        self._ahead = (self._game_no, hand_no, self._spawn(ahead()))

    async def _stop_ahead(self) -> None:
        """The game ended: the deal run ahead is for a hand that will never be played."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and not ahead[2].done():
            ahead[2].cancel()
            with contextlib.suppress(asyncio.CancelledError, MatchEnded):
                await ahead[2]

    def _drop_stale_deals(self) -> None:
        """A new game's seed is fixed: drop what is left of a deal the peer ran ahead in the
        game before (a hand never played). Those messages came before the peer's part of the
        seed, the last message read (one ordered link): none of them is still to come."""
        after = self._current.get("seq", 0) if isinstance(self._current, dict) else 0
        queue = self._deal_inbox
        kept = [queue.get_nowait() for _ in range(queue.qsize())]
        for msg in kept:
            if msg["seq"] > after:
                queue.put_nowait(msg)

    async def _deal_hand(self, points: list[bytes], hand_no: int) -> Deal:
        """This hand's deal: the one run ahead if there is one (awaited: the peer owes its
        part now), else made now."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[:2] == (self._game_no, hand_no):
            if self._owed_since is None:
                self._owed_since = self.clock()
            deal = await ahead[2]
            if deal is None:  # caught cheating while it ran
                raise self.ended or MatchEnded(CHEATED, "the deal run ahead was refused")
            self.deal, self.next_deal = deal, None
            return deal
        if ahead is not None:
            ahead[2].cancel()
        if self._replay is not None and self._replay["secrets"] is not None:
            return await self._replay_shuffle(points, hand_no, self._deal_context(hand_no))
        return await self._shuffle(points, hand_no)

    @staticmethod
    def _step_msg(msg: dict) -> dict:
        return {
            "cards": [bytes.fromhex(x) for x in msg["cards"]],
            "commits": [bytes.fromhex(x) for x in msg["commits"]],
            "proof": msg["proof"],
        }

    @staticmethod
    def _deck_msg(hand_no: int, step: int, step_msg: dict) -> dict:
        return {
            "t": "deck",
            "hand": hand_no,
            "step": step,
            "cards": [x.hex() for x in step_msg["cards"]],
            "commits": [x.hex() for x in step_msg["commits"]],
            "proof": list(step_msg["proof"]),
        }

    async def _deal_expect(self, kind: str, hand_no: int) -> dict:
        """The peer's next deal message of ``kind`` for hand ``hand_no``."""
        return await self._expect(kind, hand_no, owe=not _AHEAD.get())

    async def _recv_deck(self, deal: Deal, hand_no: int, step: int, then=None):
        """The peer's deck for ``step``, verified (its proof) as it arrives, and, if ``then``
        is given, ``then(cards)`` (our next step) computed meanwhile.

        A malformed deck is refused (it proves nothing, and nothing changes); a deck whose
        proof does not hold ends the match as cheating, with the evidence."""
        while True:
            msg = await self._deal_expect("deck", hand_no)
            if msg["step"] != step:
                await self._refuse(f"expected deck step {step}, got {msg['step']}")
                continue
            step_msg = self._step_msg(msg)
            try:  # the form (a shuffle step's proof follows our challenge)
                if step in SHUFFLE_STEPS:
                    deal.check(step, step_msg)
                else:
                    check_deck(step_msg["cards"])
            except DealError as exc:
                await self._refuse(f"bad deck: {exc}")
                continue
            if step in SHUFFLE_STEPS:
                jobs = [self._challenge(deal, hand_no, step, msg, step_msg)]
            else:
                jobs = [asyncio.to_thread(deal.check, step, step_msg)]
            if then is not None:
                jobs.append(asyncio.to_thread(then, step_msg["cards"]))
            results = await asyncio.gather(*jobs, return_exceptions=True)
            verdict = results[0]
            if isinstance(verdict, ProofError):
                await self._caught(f"deck step {step} refused: {verdict}", msg, deal)
            if isinstance(verdict, DealError):
                await self._refuse(f"bad deck: {verdict}")
                continue
            if isinstance(verdict, BaseException):
                raise verdict
            deal.add(step, step_msg)
            if then is None:
                return None
            if isinstance(results[1], BaseException):
                raise results[1]
            return results[1]

    async def _challenge(
        self, deal: Deal, hand_no: int, step: int, msg: dict, step_msg: dict
    ) -> None:
        """Challenge the peer's shuffle step (its rounds committed in ``msg``) and check the
        openings it answers with; a false one is caught with the deck, the challenge and
        the openings as evidence."""
        nonce = deal.challenge(step, step_msg)
        await self._send({"t": "chal", "hand": hand_no, "step": step, "nonce": nonce.hex()})
        while True:
            op = await self._deal_expect("opening", hand_no)
            if op["step"] == step:
                break
            await self._refuse(f"expected the openings of step {step}, got {op['step']}")
        try:
            await asyncio.to_thread(deal.check_opening, step, step_msg, nonce, op["proof"])
        except ProofError as exc:
            refused = {**msg, "nonce": nonce.hex(), "openings": op["proof"]}
            await self._caught(f"deck step {step} refused: {exc}", refused, deal)

    async def _answer(self, deal: Deal, hand_no: int, step: int, step_msg: dict) -> None:
        """Our shuffle step is sent: the peer's challenge to it, then our openings. A second,
        different challenge for the same step is never answered (it would give our shuffle
        away): the saves of the two players hold different deals."""
        while True:
            chal = await self._deal_expect("chal", hand_no)
            if chal["step"] == step:
                break
            await self._refuse(f"expected the challenge of step {step}, got {chal['step']}")
        nonce = bytes.fromhex(chal["nonce"])
        try:
            openings = await asyncio.to_thread(
                deal.mine.answer, step, deal._input(step), step_msg, deal.context, nonce
            )
        except ChallengeError as exc:
            await self._saves_differ(str(exc))
        await self._send({"t": "opening", "hand": hand_no, "step": step, "proof": openings})

    async def _send_deck(self, deal: Deal, hand_no: int, step: int, step_msg: dict) -> None:
        """Our step: recorded and sent; a shuffle step's openings follow the peer's challenge."""
        deal.add(step, step_msg)
        await self._send(self._deck_msg(hand_no, step, step_msg))
        if step in SHUFFLE_STEPS:
            await self._answer(deal, hand_no, step, step_msg)

    async def _shuffle(self, points: list[bytes], hand_no: int) -> Deal:
        """The four steps, each proven by its maker and verified by the other on arrival;
        nobody publishes a key before all four hold. Each side's next step is computed while
        the step before is being checked."""
        context = self._deal_context(hand_no)
        mine = DealerSecrets()
        deal = Deal(points, mine, context=context, seat=self.seat)
        if _AHEAD.get():
            self.next_deal = deal
        else:
            self.deal = deal
        if self.seat == 0:
            step1 = await asyncio.to_thread(mine.shuffle_message, points, context, 1)
            await self._send_deck(deal, hand_no, 1, step1)
            step3 = await self._recv_deck(
                deal, hand_no, 2, lambda d2: mine.rekey_message(d2, context, 3)
            )
            await self._send_deck(deal, hand_no, 3, step3)
            await self._recv_deck(deal, hand_no, 4)
        else:
            step2 = await self._recv_deck(
                deal, hand_no, 1, lambda d1: mine.shuffle_message(d1, context, 2)
            )
            await self._send_deck(deal, hand_no, 2, step2)
            step4 = await self._recv_deck(
                deal, hand_no, 3, lambda d3: mine.rekey_message(d3, context, 4)
            )
            await self._send_deck(deal, hand_no, 4, step4)
        return deal

    async def _replay_shuffle(self, points: list[bytes], hand_no: int, context: bytes) -> Deal:
        """A resumed hand's deal: our saved secrets and steps, the peer's steps (sent again)
        verified as on the first run; a step we had not made yet is made now."""
        replay = self._replay
        mine, replay["secrets"] = replay["secrets"], None
        self.deal = deal = Deal(points, mine, context=context, seat=self.seat)
        for step in range(1, 5):
            if (step % 2 == 1) != (self.seat == 0):
                await self._recv_deck(deal, hand_no, step)
                continue
            head = replay["out"][0] if replay["out"] else None
            if head is not None and head["t"] == "deck" and head["step"] == step:
                step_msg = self._step_msg(head)
            else:
                make = mine.shuffle_message if step <= 2 else mine.rekey_message
                step_msg = await asyncio.to_thread(
                    make, points if step == 1 else deal.decks[-1], context, step
                )
            await self._send_deck(deal, hand_no, step, step_msg)
        return deal

    async def _saves_differ(self, detail: str):
        """Our save and the peer's cannot go on together: say why, end the match."""
        ended = MatchEnded("saves differ", detail)
        await self._farewell({"t": "bye", "reason": f"saves differ: {detail}"[:300]}, ended)
        raise ended

    async def _caught(self, why: str, msg: dict | None = None, deal: Deal | None = None):
        """The peer's step or key fails its proof: refuse it, keep the evidence, tell the peer
        and end the match as cheating (nothing of ours is published after it). ``deal``: the
        deal it belongs to when that is not ``self.deal`` (the next hand's, run ahead)."""
        await self._refuse(why)
        path = write_evidence(self, why, None, message=msg, deal=deal)
        self.callbacks.fire("on_cheat", f"{CHEATED}: {why}", str(path))
        ended = MatchEnded(CHEATED, f"{why} (evidence: {path})")
        await self._farewell({"t": "bye", "reason": f"{CAUGHT}: {why}"[:300]}, ended)
        raise ended

    def _my_keys(self, slots) -> list[list]:
        return [[s, key_hex(self.deal.mine.slot_keys[s])] for s in sorted(slots)]

    def _open(self, pairs: list[list], expected: set[int]) -> dict[int, Card]:
        """Open the peer's keys for exactly the ``expected`` slots (nothing recorded yet)."""
        slots = {s for s, _ in pairs}
        if slots != expected:
            raise DealError(f"keys for slots {sorted(slots)}, expected {sorted(expected)}")
        return {s: CARDS[self.deal.open_slot(s, key_int(k), record=False)] for s, k in pairs}

    def _record(self, pairs: list[list]) -> None:
        for s, k in pairs:
            self.deal.peer_keys[s] = key_int(k)

    async def _deal_keys(self, hand_no: int) -> None:
        t = self.tracker
        up = {t.upcard_slot} if t.upcard_slot is not None else set()
        await self._send(
            {"t": "keys", "hand": hand_no, "keys": self._my_keys(set(t.deal_slots(self.peer)) | up)}
        )
        self._opened_by_me |= up
        await self._await_keys(hand_no, set(t.deal_slots(self.seat)) | up, "deal keys", t.learn)

    async def _await_keys(
        self, hand_no: int, expected: set[int], what: str = "keys", learn=None
    ) -> dict[int, Card]:
        """The peer's keys for exactly the ``expected`` slots, opened (and handed to
        ``learn``, which may refuse them as opening does) and then recorded. Keys that do not
        fit are refused and the next message awaited; a false proof is caught."""
        while True:
            msg = await self._expect("keys", hand_no)
            try:
                cards = self._open(msg["keys"], expected)
                if learn is not None:
                    learn(cards)
            except ProofError as exc:
                await self._caught(f"{what} refused: {exc}", msg)
            except (DealError, ValueError) as exc:
                await self._refuse(f"{what} refused: {exc}")
                continue
            self._record(msg["keys"])
            return cards
