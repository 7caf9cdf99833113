"""The fair deal of each hand, step by step: the shuffles with their proofs, a step sent ahead,
the keys that open cards, and replaying a resumed hand's deal. A part of ``MatchSession``
(``gin3d.net.session``), whose state it shares.
"""

from __future__ import annotations

import asyncio

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
from .fairdeal import (
    Deal,
    DealError,
    DealerSecrets,
    ProofError,
    check_deck,
)
from .protocol import key_hex, key_int


class DealProtocol:
    """Each hand's mental-poker deal, every step proven when it arrives."""

    # -- the deal --------------------------------------------------------------------
    def _deal_context(self, hand_no: int) -> bytes:
        """What every proof of this hand's deal is bound to: match, game and hand."""
        return f"gin3d-deal|{self.match_id}|{self._game_no}|{hand_no}".encode()

    def _prepare(self, points: list[bytes], hand_no: int, early: bool = False) -> None:
        """Host: compute hand ``hand_no``'s shuffle and its proof in the background (they
        depend on nothing from the guest), so the deal does not wait for them. With
        ``early`` (during the hand before) it is sent as soon as it is made, so the guest
        checks it, and makes its own step 2, while that hand is played."""
        if self.seat != 0:
            return
        context = self._deal_context(hand_no)

        def work():
            mine = DealerSecrets()
            return mine, mine.shuffle_message(points, context, 1)

        prep = {
            "context": context,
            "future": asyncio.ensure_future(asyncio.to_thread(work)),
            "sent": False,
        }
        self._early_secrets = {}
        self._prepared = prep
        if early:
            self._spawn(self._send_early(prep, hand_no))

    async def _send_early(self, prep: dict, hand_no: int) -> None:
        try:
            mine, step1 = await prep["future"]
        except Exception:  # noqa: BLE001 - the deal makes it again
            return
        t = self.tracker
        # only while the hand before is still on: the guest then has it before this game ends
        if (
            self._prepared is prep
            and self.ended is None
            and t is not None
            and t.hand_number == hand_no - 1
            and not t.over
        ):
            prep["sent"] = True
            self._early_secrets = {prep["context"]: mine}  # a save holds them from now
            await self._send(self._deck_msg(hand_no, 1, step1))

    def _early_deck(self, msg: dict) -> bool:
        """Guest: the host's step 1 for the next hand, sent while this one is played: check
        its proof now, and make step 2, in the background (``_shuffle`` takes them up)."""
        t, deal = self.tracker, self.deal
        if (
            self.seat != 1
            or msg["step"] != 1
            or t is None
            or deal is None
            or deal.step != 4
            or msg["hand"] != t.hand_number + 1
            or self._points is None
            or self._early is not None
        ):  # one per hand: a second is not checked ahead
            return False
        points, context = self._points, self._deal_context(msg["hand"])

        def work():
            pending = Deal(points, DealerSecrets(), context=context, seat=1)
            step1 = self._step_msg(msg)
            check_deck(step1["cards"])
            pending.check(1, step1)
            return pending, step1, pending.mine.shuffle_message(step1["cards"], context, 2)

        early = (msg["hand"], msg, asyncio.ensure_future(asyncio.to_thread(work)))
        self._early = early

        def done(fut: asyncio.Future) -> None:  # a false proof: the verdict comes at once
            if (
                not fut.cancelled()
                and isinstance(fut.exception(), ProofError)
                and self._early is early
                and self.ended is None
            ):
                self._spawn(self._caught_early(early, fut.exception(), points, context))

        early[2].add_done_callback(done)
        return True

    async def _caught_early(self, early, exc: ProofError, points, context) -> None:
        self._early = None
        deal = Deal(points, DealerSecrets(), context=context, seat=1)
        try:
            await self._caught(f"deck step 1 refused: {exc}", early[1], deal)
        except MatchEnded:
            pass

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

    async def _recv_deck(self, hand_no: int, step: int, then=None):
        """The peer's deck for ``step``, verified (its proof) the moment it arrives, and, if
        ``then`` is given, ``then(cards)`` (our next step) computed meanwhile.

        A malformed deck is refused (it proves nothing, and nothing changes); a deck whose
        proof does not hold ends the match as cheating, with the evidence."""
        deal = self.deal
        while True:
            msg = await self._expect("deck", hand_no)
            if msg["step"] != step:
                await self._refuse(f"expected deck step {step}, got {msg['step']}")
                continue
            step_msg = self._step_msg(msg)
            try:
                check_deck(step_msg["cards"])
            except DealError as exc:
                await self._refuse(f"bad deck: {exc}")
                continue
            jobs = [asyncio.to_thread(deal.check, step, step_msg)]
            if then is not None:
                jobs.append(asyncio.to_thread(then, step_msg["cards"]))
            results = await asyncio.gather(*jobs, return_exceptions=True)
            verdict = results[0]
            if isinstance(verdict, ProofError):
                await self._caught(f"deck step {step} refused: {verdict}", msg)
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

    async def _send_deck(self, hand_no: int, step: int, step_msg: dict) -> None:
        self.deal.add(step, step_msg)
        await self._send(self._deck_msg(hand_no, step, step_msg))

    async def _shuffle(self, points: list[bytes], hand_no: int) -> Deal:
        """The four steps, each proven by its maker and verified by the other on arrival;
        nobody publishes a key before all four hold."""
        context = self._deal_context(hand_no)
        prepared, self._prepared = self._prepared, None
        early, self._early = self._early, None
        if self._replay is not None and self._replay["secrets"] is not None:
            return await self._replay_shuffle(points, hand_no, context)
        step1 = None
        if self.seat == 0 and prepared is not None and prepared["context"] == context:
            mine, step1 = await prepared["future"]
        else:
            mine = DealerSecrets()
        self.deal = deal = Deal(points, mine, context=context, seat=self.seat)
        if self.seat == 1 and early is not None and early[0] == hand_no:
            step2 = await self._take_early(early)
            if step2 is not None:
                deal = self.deal
                await self._send_deck(hand_no, 2, step2)
                step4 = await self._recv_deck(
                    hand_no, 3, lambda d3: deal.mine.rekey_message(d3, context, 4)
                )
                await self._send_deck(hand_no, 4, step4)
                return deal
        if self.seat == 0:
            if step1 is None:
                step1 = await asyncio.to_thread(mine.shuffle_message, points, context, 1)
            if prepared is not None and prepared["sent"]:
                deal.add(1, step1)  # sent during the hand before
            else:
                await self._send_deck(hand_no, 1, step1)
            step3 = await self._recv_deck(hand_no, 2, lambda d2: mine.rekey_message(d2, context, 3))
            await self._send_deck(hand_no, 3, step3)
            await self._recv_deck(hand_no, 4)
        else:
            step2 = await self._recv_deck(
                hand_no, 1, lambda d1: mine.shuffle_message(d1, context, 2)
            )
            await self._send_deck(hand_no, 2, step2)
            step4 = await self._recv_deck(hand_no, 3, lambda d3: mine.rekey_message(d3, context, 4))
            await self._send_deck(hand_no, 4, step4)
        return deal

    async def _replay_shuffle(self, points: list[bytes], hand_no: int, context: bytes) -> Deal:
        """A resumed hand's deal: our saved secrets and steps, the peer's steps (sent again)
        verified as on the first run; a step we had not made yet is made now."""
        replay = self._replay
        mine, replay["secrets"] = replay["secrets"], None
        self.deal = deal = Deal(points, mine, context=context, seat=self.seat)
        for step in range(1, 5):
            if (step % 2 == 1) != (self.seat == 0):
                await self._recv_deck(hand_no, step)
                continue
            head = replay["out"][0] if replay["out"] else None
            if head is not None and head["t"] == "deck" and head["step"] == step:
                step_msg = self._step_msg(head)
            else:
                make = mine.shuffle_message if step <= 2 else mine.rekey_message
                step_msg = await asyncio.to_thread(
                    make, points if step == 1 else deal.decks[-1], context, step
                )
            await self._send_deck(hand_no, step, step_msg)
        return deal

    async def _saves_differ(self, detail: str):
        """Our save and the peer's cannot go on together: say why, end the match."""
        ended = MatchEnded("saves differ", detail)
        await self._farewell({"t": "bye", "reason": f"saves differ: {detail}"[:300]}, ended)
        raise ended

    async def _take_early(self, early) -> dict | None:
        """Guest: the step 1 that came during the hand before, checked meanwhile; our step 2
        for it, or None when it was malformed (refused: the deal waits for another)."""
        _, msg, work = early
        try:
            pending, step1, step2 = await work
        except ProofError as exc:
            await self._caught(f"deck step 1 refused: {exc}", msg)
        except DealError as exc:
            await self._refuse(f"bad deck: {exc}")
            return None
        pending.add(1, step1)
        self.deal = pending
        return step2

    async def _caught(self, why: str, msg: dict | None = None, deal: Deal | None = None):
        """The peer's step or key fails its proof: refuse it, keep the evidence, tell the peer
        and end the match as cheating (nothing of ours is published after it). ``deal``: the
        deal it belongs to when that is not ``self.deal`` (a step sent ahead)."""
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
