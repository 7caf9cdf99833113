"""The match's move log: every action with a sequence number, chained by SHA-256.

Both peers build the same log move by move; every move sent carries the sender's head hash
from before the move, so a peer that is out of step (or rewrites history) is caught on the
next move, and two finished logs can be compared by one hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class MoveLog:
    match_id: str
    entries: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._heads = [hashlib.sha256(b"gin3d-movelog|" + self.match_id.encode()).hexdigest()]

    @property
    def head(self) -> str:
        return self._heads[-1]

    def append(self, game: int, hand: int, seat: int, action: str) -> str:
        entry = {
            "n": len(self.entries) + 1,
            "game": game,
            "hand": hand,
            "seat": seat,
            "action": action,
        }
        record = json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()
        head = hashlib.sha256(bytes.fromhex(self.head) + record).hexdigest()
        self.entries.append({**entry, "hash": head})
        self._heads.append(head)
        return head

    def lines(self) -> list[str]:
        """One line per move: ``n game hand seat action hash``."""
        return [
            f"{e['n']} g{e['game']} h{e['hand']} s{e['seat']} {e['action']} {e['hash'][:16]}"
            for e in self.entries
        ]

    def verify(self) -> bool:
        """Recompute the chain from the entries."""
        copy = MoveLog(self.match_id)
        for e in self.entries:
            copy.append(e["game"], e["hand"], e["seat"], e["action"])
        return copy.head == self.head

    def save(self, path: str | Path) -> None:
        from gin3d.paths import write_atomic

        write_atomic(path, json.dumps({"match": self.match_id, "moves": self.entries}, indent=1))

    @classmethod
    def load(cls, path: str | Path) -> MoveLog:
        from gin3d.paths import read_json

        data = read_json(path)
        log = cls(data["match"])
        for e in data["moves"]:
            log.append(e["game"], e["hand"], e["seat"], e["action"])
        if log.head != data["moves"][-1]["hash"] if data["moves"] else False:
            raise ValueError("the saved move log's hash chain does not match its moves")
        return log
