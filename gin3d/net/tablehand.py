"""One hand of a three- or four-player table: a two-player match of exactly one hand.

A table's hand is always between two players, so it is played by today's ``MatchSession``
unchanged in what it checks: the seed's commit-reveal, the four proven deal steps, every
key against its lock, every move with the tracker, the reveal and the replay with every
card open. Only the script differs: one hand, dealt by the hand seat the table's engine
names, with the table's rules (a pair host offering other rules is refused), and no step 1
sent ahead (the pair may not meet again in the next hand). Its links are ``PairLink``s
through the table (``gin3d.net.tablelink``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from gin3d.engine import Hand

from .ended import MatchEnded
from .group import card_points
from .session import MatchSession


def hand_match_id(table_id: str, hand: int, players: tuple[int, int]) -> str:
    """The match id of table hand ``hand`` between ``players`` (hand seats 0 and 1): every
    proof of its deal is bound to it, so no step can be replayed in another hand."""
    text = f"gin3d-table-hand|{table_id}|{hand}|{players[0]}|{players[1]}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class TableHandSession(MatchSession):
    """``MatchSession`` for one hand dealt by hand seat ``dealer``; ``full`` is the verified
    hand once ``run`` ends as finished."""

    dealer: int = 1
    deal_ahead: bool = False

    async def _play_match(self) -> None:
        seed = await self._fix_seed()
        self._seeds.append(seed.hex())
        points = card_points(seed)
        self._game_out_start = len(self.outbox)
        self.full: Hand = await self._play_hand(points, seed, self.dealer, 0, None)

    def stop(self, ended: MatchEnded) -> None:
        """The table stopped (a player left, a dispute): end this hand's match with it."""
        if self.ended is None:
            self._end(ended)

    async def _hang_up(self, reason: str) -> None:
        """No bye on a cheat verdict: at a table the cheater's hand ends with the host's
        verdict (``tableconduct``); a bye would first end its table and, with its ``tend``,
        everyone's."""

    def record(self) -> tuple[list[int], list[str]]:
        """The verified hand as the table hears it: its deck (slot order) and its moves."""
        deck = [int(c) for c in self.game.decks[0]]
        return deck, [str(a) for a in self.full.actions]
