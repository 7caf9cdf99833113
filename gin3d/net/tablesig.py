"""Signatures at a table: each player signs what it sends, so the host that passes it on
cannot alter or forge it.

Every player makes an Ed25519 key for the table and announces it (``tkey``); every later
message it sends carries its signature of the message (``signed_text``: the message without
``sig``, with ``p`` set to the sender, or, for a hand's frame, to the player it is for).
The host checks a guest's signature before passing a message on (a bad one is refused
there), so a bad signature arriving from the host proves the host changed the message. The
host could still announce made-up keys for the others; all players then see different
table safety codes (``safety_code``, from every key in seat order), as at an open LAN table.
"""

from __future__ import annotations

import hashlib
import json

from nacl.exceptions import CryptoError
from nacl.signing import SigningKey, VerifyKey

from .transport import safety_code


def signed_text(msg: dict, p: int) -> bytes:
    body = {k: v for k, v in msg.items() if k != "sig"}
    body["p"] = p
    return b"gin3d-table-sig|" + json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


class TableKeys:
    """This player's signing key and every player's verify key, by player."""

    def __init__(self) -> None:
        self.mine = SigningKey.generate()
        self.keys: dict[int, VerifyKey] = {}

    def key_message(self, me: int, name: str = "") -> dict:
        """Our key for the table, and the name we go by there (signed with it: the host
        cannot change what the others read)."""
        self.keys[me] = self.mine.verify_key
        msg = {"t": "tkey", "p": me, "key": self.mine.verify_key.encode().hex()}
        return self.sign({**msg, "name": name[:40]} if name else msg)

    def sign(self, msg: dict, p: int | None = None) -> dict:
        """``msg`` with its signature; ``p``: the player named in the signed text when it
        is not ``msg["p"]`` (a hand's frame names the player it is for)."""
        text = signed_text(msg, msg["p"] if p is None else p)
        return {**msg, "sig": self.mine.sign(text).signature.hex()}

    def holds(self, msg: dict, signer: int, p: int | None = None) -> bool:
        """Whether ``signer`` signed ``msg`` (a ``tkey`` with the key it announces)."""
        key = self.keys.get(signer)
        try:
            if msg["t"] == "tkey" and key is None:
                key = VerifyKey(bytes.fromhex(msg["key"]))
            if key is None:
                return False
            key.verify(signed_text(msg, msg["p"] if p is None else p), bytes.fromhex(msg["sig"]))
        except (CryptoError, ValueError, TypeError):
            return False
        return True

    def learn(self, msg: dict) -> bool:
        """Keep the key a (checked) ``tkey`` announces; False if that player has one."""
        if msg["p"] in self.keys:
            return False
        self.keys[msg["p"]] = VerifyKey(bytes.fromhex(msg["key"]))
        return True

    def safety_code(self, players: int) -> str:
        """Six digits every player shows: the same unless someone announced a made-up key."""
        digest = hashlib.sha256(
            b"gin3d-table-keys|" + b"".join(self.keys[p].encode() for p in range(players))
        )
        return safety_code(digest.hexdigest())
