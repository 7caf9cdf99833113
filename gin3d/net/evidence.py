"""Evidence of cheating: everything needed to check a refused transcript, in one JSON file.

Written when a step of the deal or a published key fails its proof (the refused message is
kept, with every step accepted before it: decks, commitments and proofs, and the context
they are bound to, so anyone can rerun ``fairdeal.Deal.check`` / ``verify_shuffle`` /
``verify_rekey`` and see the same failure), when a peer's end-of-hand reveal does not match
what it did (both sides' secrets too, for ``fairdeal.verify_peer``), or when it keeps sending
what an honest client never would; with the actions, the move log and the refused messages.
The file goes to the user's data folder (``evidence_dir`` overrides it), under a name nobody
can guess in advance, written atomically with mode 0600 (it holds secrets).
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Any

from gin3d.paths import data_dir, write_atomic

from .protocol import key_hex

EVIDENCE_DIR = "evidence"


def evidence_folder(configured: str | None = None) -> Path:
    """Where evidence files go: ``configured``, else ``<data folder>/evidence``."""
    return Path(configured) if configured else data_dir() / EVIDENCE_DIR


def write_evidence(
    session, why: str, peer: dict | None, message: dict | None = None, deal=None
) -> Path:
    """Write the evidence for ``session``'s current hand; return the file's path."""
    from .constants import CHEATED

    folder = evidence_folder(session.evidence_dir)
    path = folder / (
        f"gin3d-evidence-{session.match_id[:12]}-seat{session.seat}-"
        f"{int(time.time())}-{secrets.token_hex(4)}.json"
    )
    deal = deal if deal is not None else session.deal
    tracker = session.tracker
    data = {
        "verdict": CHEATED,
        "reason": why,
        "match": session.match_id,
        "seat": session.seat,
        "rules": session.rules.to_dict() if session.rules else None,
        "hand": None if tracker is None else tracker.hand_number,
        "actions": [] if tracker is None else [str(a) for a in tracker.actions],
        "decks": [] if deal is None else [[x.hex() for x in d] for d in deal.decks],
        "card_points": [] if deal is None else [x.hex() for x in deal.points],
        "context": None if deal is None else deal.context.decode(),
        "commits": [] if deal is None else [[x.hex() for x in c] for c in deal.commits],
        "proofs": [] if deal is None else [list(p) for p in deal.proofs],
        # our challenges to the peer's shuffle steps and the openings it answered with
        "openings": {} if deal is None else {str(s): o for s, o in deal.openings.items()},
        "refused_message": message,
        "my_secrets": None
        if deal is None
        else {
            "master": key_hex(deal.mine.master),
            "perm": list(deal.mine.perm),
            "keys": [key_hex(k) for k in deal.mine.slot_keys],
        },
        "peer_published_keys": {}
        if deal is None
        else {str(s): key_hex(k) for s, k in deal.peer_keys.items()},
        "peer_reveal": None
        if peer is None
        else {
            "master": key_hex(peer["master"]),
            "perm": peer["perm"],
            "keys": [key_hex(k) for k in peer["keys"]],
        },
        "last_message": clip(session._current),  # the peer's message that was being handled
        "refused": list(session.incidents),  # every refused message, oldest first
        "move_log": session.log.entries,
    }
    write_atomic(path, json.dumps(data, indent=1))
    return path


def clip(msg: Any, limit: int = 2000) -> Any:
    """A refused message as kept for the evidence: the message itself when small, else the
    start of its JSON (a flood of large messages cannot grow the evidence without bound)."""
    if msg is None:
        return None
    try:
        text = json.dumps(msg, sort_keys=True)
    except (TypeError, ValueError):
        return repr(msg)[:limit]
    return msg if len(text) <= limit else text[:limit]
