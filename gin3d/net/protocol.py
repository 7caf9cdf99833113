"""Wire format: length-prefixed JSON frames and a strict schema for every message.

A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON (an object). Every
message is checked against its schema before anything reads it: an unknown type or field, a
missing field, a wrong type, a card slot outside 0..51, a key outside the group, a string
that is too long - all raise ``ProtocolError`` and nothing else happens.
"""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Callable
from typing import Any

from gin3d.paths import nests_deeper_than

from . import shuffleproof
from .group import DECK, ORDER
from .shuffleproof import OPENING_HEX, SEED_OPENING_HEX

PROTOCOL_VERSION = 3  # 3: shuffle proofs answer the verifier's challenge (2: ed25519 group)
MAX_FRAME = 64 * 1024
HEADER = struct.Struct(">I")
EMOTES = ("hello", "well_played", "oops", "thinking", "thanks", "good_game")
MAX_CHAT = 200
MAX_DIGITS = 20  # the largest number in any message is a ping's (below 2**62): 19 digits
MAX_DEPTH = 4  # message -> list of pairs -> pair -> value: nothing nests deeper


class ProtocolError(ValueError):
    """A frame or message that breaks the protocol; it is refused and changes nothing."""


class FrameError(ProtocolError):
    """The stream's framing is lost (a length over the limit): the link cannot go on."""


# -- field checkers ------------------------------------------------------------------------
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_HEXKEY = re.compile(r"[0-9a-f]{1,64}\Z")
_B64 = re.compile(r"[A-Za-z0-9+/=]{1,4096}\Z")


def _int_in(lo: int, hi: int) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ProtocolError(f"expected a whole number in {lo}..{hi}, got {v!r:.40}")

    return check


def _text(limit: int) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if not isinstance(v, str) or len(v) > limit:
            raise ProtocolError(f"expected text of at most {limit} characters")
        if any(ord(ch) < 32 for ch in v):
            raise ProtocolError("control characters are not allowed in text")

    return check


def _hex64(v: Any) -> None:
    if not isinstance(v, str) or not _HEX64.match(v):
        raise ProtocolError("expected 64 lowercase hex digits")


def _scalar(v: Any) -> None:
    if not isinstance(v, str) or not _HEXKEY.match(v) or not 0 < int(v, 16) < ORDER:
        raise ProtocolError("expected a key: hex, in 1..l-1 of the group")


def _b64(v: Any) -> None:
    if not isinstance(v, str) or not _B64.match(v):
        raise ProtocolError("expected base64 text")


def _bool(v: Any) -> None:
    if not isinstance(v, bool):
        raise ProtocolError("expected true or false")


def _points(v: Any) -> None:
    if not isinstance(v, list) or len(v) != DECK:
        raise ProtocolError(f"expected a list of {DECK} points")
    for x in v:
        _hex64(x)


def _commits(v: Any) -> None:
    """A deal step's commitments: the master key's (shuffle) or the 52 locks (re-key)."""
    if not isinstance(v, list) or len(v) not in (1, DECK):
        raise ProtocolError(f"expected 1 or {DECK} commitments")
    for x in v:
        _hex64(x)


_OPENING = re.compile(rf"(?:[0-9a-f]{{{SEED_OPENING_HEX}}}|[0-9a-f]{{{OPENING_HEX}}})\Z")


def _proof(v: Any) -> None:
    """A deal step's proof: a shuffle's commitment to its rounds (one hash, opened after
    the verifier's challenge), or a re-key challenge and 52 responses."""
    if not isinstance(v, list) or len(v) not in (1, DECK + 1):
        raise ProtocolError(f"expected a proof of 1 or {DECK + 1} parts")
    for x in v:
        if not isinstance(x, str) or not _HEX64.match(x):
            raise ProtocolError("a proof part is not hex of the right length")


def _openings(v: Any) -> None:
    """A shuffle proof's openings: one per round (``shuffleproof.ROUNDS``)."""
    if not isinstance(v, list) or len(v) != shuffleproof.ROUNDS:
        raise ProtocolError(f"expected {shuffleproof.ROUNDS} shuffle-proof openings")
    for x in v:
        if not isinstance(x, str) or not _OPENING.match(x):
            raise ProtocolError("an opening is not hex of the right length")


def _slot_keys(v: Any) -> None:
    if not isinstance(v, list) or len(v) > DECK:
        raise ProtocolError("expected a list of [slot, key] pairs")
    seen = set()
    for pair in v:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ProtocolError("expected a [slot, key] pair")
        _int_in(0, DECK - 1)(pair[0])
        _scalar(pair[1])
        if pair[0] in seen:
            raise ProtocolError(f"slot {pair[0]} appears twice")
        seen.add(pair[0])


def _perm(v: Any) -> None:
    if not isinstance(v, list) or sorted(
        x if isinstance(x, int) and not isinstance(x, bool) else -1 for x in v
    ) != list(range(DECK)):
        raise ProtocolError("expected a permutation of 0..51")


def _all_keys(v: Any) -> None:
    if not isinstance(v, list) or len(v) != DECK:
        raise ProtocolError(f"expected {DECK} keys")
    for k in v:
        _scalar(k)


def _heads(v: Any) -> None:
    if not isinstance(v, list) or not 1 <= len(v) <= 500:
        raise ProtocolError("expected 1..500 log heads")
    for h in v:
        _hex64(h)


def _hand_info(v: Any) -> None:
    """A saved hand in progress as told in ``restore``: its number, a digest per deal step
    held, and whether any of its cards were opened."""
    if not isinstance(v, dict) or set(v) != {"number", "steps", "opened"}:
        raise ProtocolError("expected number, steps and opened")
    _HANDNO(v["number"])
    if not isinstance(v["steps"], list) or len(v["steps"]) > 4:
        raise ProtocolError("expected at most 4 step digests")
    for h in v["steps"]:
        _hex64(h)
    _bool(v["opened"])


RULE_INT_MAX = 100_000  # no score or limit of a playable game comes near this
RULE_NAME = 40


def _rules(v: Any) -> None:
    """The host's rules, field by field with exact types and bounds, then the engine's checks.

    ``RuleSet.from_dict`` alone would take a name that is a number or a target with 5,000
    digits; the guest's screens read these fields, so they are checked here first.
    """
    from dataclasses import fields

    from gin3d.engine import RuleSet

    if not isinstance(v, dict):
        raise ProtocolError("expected a rules object")
    kinds = {f.name: f.type for f in fields(RuleSet)}
    for name, value in v.items():
        kind = kinds.get(name)
        if kind is None:
            raise ProtocolError(f"unknown rule option {name!r:.40}")
        if kind == "bool":
            if not isinstance(value, bool):
                raise ProtocolError(f"rule {name} must be true or false")
        elif kind == "int":
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not (0 <= value <= RULE_INT_MAX)
            ):
                raise ProtocolError(f"rule {name} must be a whole number in 0..{RULE_INT_MAX}")
        else:
            try:
                _text(RULE_NAME)(value)
            except ProtocolError as exc:
                raise ProtocolError(f"rule {name}: {exc}") from None
    try:
        RuleSet.from_dict(v)
    except (ValueError, TypeError) as exc:
        raise ProtocolError(f"bad rules: {exc}") from None


def _emote(v: Any) -> None:
    if v not in EMOTES:
        raise ProtocolError(f"unknown emote {v!r:.40}")


def _role(v: Any) -> None:
    if v not in ("host", "guest"):
        raise ProtocolError("role is host or guest")


_SEQ = _int_in(1, 2**31)
_HANDNO = _int_in(0, 10_000)
_PLAYER = _int_in(0, 3)  # a table's player (three, or four in two teams)
MAX_HAND_ACTIONS = 1000  # a hand's moves in a table record (a long hand has ~150)


_HEX128 = re.compile(r"[0-9a-f]{128}\Z")


def _sig(v: Any) -> None:
    if not isinstance(v, str) or not _HEX128.match(v):
        raise ProtocolError("expected a signature: 128 lowercase hex digits")


MAX_TOLD = 60  # public moves in one tplay (a deal is 23)
MAX_HAND_EVENTS = 400  # a hand's public moves (a long hand has ~150)


def _public_moves(v: Any) -> None:
    if not isinstance(v, list) or not 1 <= len(v) <= MAX_TOLD:
        raise ProtocolError(f"expected a list of 1 to {MAX_TOLD} public moves")
    for a in v:
        _text(200)(a)


def _actions(v: Any) -> None:
    if not isinstance(v, list) or len(v) > MAX_HAND_ACTIONS:
        raise ProtocolError(f"expected a list of at most {MAX_HAND_ACTIONS} moves")
    for a in v:
        _text(40)(a)


# type -> {field: checker}; "?" prefix = optional
SCHEMAS: dict[str, dict[str, Callable[[Any], None]]] = {
    # handshake (no sequence numbers)
    "hello": {
        "v": _int_in(0, 2**31),
        "app": _text(20),
        "role": _role,
        "?cert": _b64,
        "?name": _text(40),
    },
    "pake": {"m": _b64},
    "confirm": {"mac": _hex64, "?sig": _b64},
    "error": {"code": _text(40), "text": _text(300)},
    # link control
    "resume": {"match": _hex64, "got": _int_in(0, 2**31)},
    "ping": {"n": _int_in(0, 2**62)},
    "pong": {"n": _int_in(0, 2**62)},
    # the match (sequence-numbered, resent after a reconnect)
    "setup": {"seq": _SEQ, "rules": _rules, "commit": _hex64},
    "commit": {"seq": _SEQ, "commit": _hex64},
    "open": {"seq": _SEQ, "nonce": _hex64},
    "deck": {
        "seq": _SEQ,
        "hand": _HANDNO,
        "step": _int_in(1, 4),
        "cards": _points,
        "commits": _commits,
        "proof": _proof,
    },
    "chal": {"seq": _SEQ, "hand": _HANDNO, "step": _int_in(1, 2), "nonce": _hex64},
    "opening": {"seq": _SEQ, "hand": _HANDNO, "step": _int_in(1, 2), "proof": _openings},
    "keys": {"seq": _SEQ, "hand": _HANDNO, "keys": _slot_keys},
    "act": {"seq": _SEQ, "hand": _HANDNO, "a": _text(40), "prev": _hex64, "?keys": _slot_keys},
    "reveal": {"seq": _SEQ, "hand": _HANDNO, "master": _scalar, "perm": _perm, "keys": _all_keys},
    "chat": {"seq": _SEQ, "text": _text(MAX_CHAT)},
    "emote": {"seq": _SEQ, "name": _emote},
    "refused": {"seq": _SEQ, "reason": _text(300)},
    "rematch": {"seq": _SEQ, "yes": _bool},
    "restore": {
        "seq": _SEQ,
        "game": _int_in(0, 10_000),
        "heads": _heads,
        "?rules": _hex64,
        "?hand": _hand_info,
    },
    "bye": {"seq": _SEQ, "reason": _text(300)},
    # a table of three or four (gin3d.net.table; not sequence-numbered: one link per player
    # to the table's host, which passes them on). "p" names the player the message is from
    # (for "tpair" sent to the host: the player it is for); "sig" is that player's Ed25519
    # signature of the message (``table.signed_text``), so the host cannot alter it
    "tseat": {"you": _int_in(1, 3), "players": _int_in(3, 4), "rules": _rules},
    # the first message on a link that replaces a lost one: how many table messages
    # (the signed kinds below, frames of hands aside) came from the other end so far
    "tresume": {"got": _int_in(0, 2**31)},
    "tkey": {"p": _PLAYER, "key": _hex64, "?name": _text(40), "sig": _sig},
    "tcommit": {"p": _PLAYER, "commit": _hex64, "sig": _sig},
    "topen": {"p": _PLAYER, "nonce": _hex64, "sig": _sig},
    # one frame of a hand's two-player match, as text (decoded and checked at its end)
    "tpair": {"p": _PLAYER, "hand": _HANDNO, "m": _text(MAX_FRAME - 1024), "sig": _sig},
    "trecord": {"p": _PLAYER, "hand": _HANDNO, "deck": _perm, "actions": _actions, "sig": _sig},
    "tnote": {"p": _PLAYER, "reason": _text(300), "sig": _sig},
    # the public moves of a hand its sender plays, from its ``n``-th (gin3d.net.publicmoves):
    # what the table's other players watch; shown only, checked once the hand is agreed
    "tplay": {
        "p": _PLAYER,
        "hand": _HANDNO,
        "n": _int_in(0, MAX_HAND_EVENTS),
        "ev": _public_moves,
        "sig": _sig,
    },
    "tdone": {"p": _PLAYER, "head": _hex64, "sig": _sig},
    # a line of chat, or an emote, for everyone at the table
    "tchat": {"p": _PLAYER, "text": _text(MAX_CHAT), "sig": _sig},
    "temote": {"p": _PLAYER, "name": _emote, "sig": _sig},
    # the host: the player gone past the grace time is played by a computer player (run by
    # a player not at its hands) from that hand on; a hand of it under way is dealt again
    "taway": {"p": _PLAYER, "player": _PLAYER, "hand": _HANDNO, "sig": _sig},
    # the host: that player came back and plays its seat again from that hand on
    "tback": {"p": _PLAYER, "player": _PLAYER, "hand": _HANDNO, "sig": _sig},
    # the table ends for that player (a dispute, a cheat verdict, a player gone): for all
    "tend": {"p": _PLAYER, "reason": _text(60), "detail": _text(300), "sig": _sig},
}
SEQUENCED = frozenset(t for t, s in SCHEMAS.items() if "seq" in s)


def validate(msg: Any) -> dict:
    """Check a decoded message against its schema; return it, or raise ProtocolError."""
    if not isinstance(msg, dict):
        raise ProtocolError("a message is a JSON object")
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError(f"unknown message type {kind!r:.40}")
    schema = SCHEMAS[kind]
    allowed = {"t"} | {name.lstrip("?") for name in schema}
    extra = sorted(set(msg) - allowed)
    if extra:
        raise ProtocolError(f"unknown field {extra[0]!r:.40} in {kind}")
    for name, check in schema.items():
        key = name.lstrip("?")
        if key not in msg:
            if name.startswith("?"):
                continue
            raise ProtocolError(f"{kind} lacks field {key!r}")
        try:
            check(msg[key])
        except ProtocolError as exc:
            raise ProtocolError(f"{kind}.{key}: {exc}") from None
    return msg


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise ProtocolError(f"field {k!r:.40} appears twice")
        out[k] = v
    return out


def _no_float(text: str) -> Any:
    raise ProtocolError("numbers are whole numbers")


def _whole(text: str) -> int:
    """A JSON integer, refused past ``MAX_DIGITS`` before Python converts it (a 5,000-digit
    number would otherwise raise a bare ValueError from ``int``, and cost quadratic time)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ProtocolError(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


def decode(body: bytes) -> dict:
    """Bytes of one frame -> a validated message; ProtocolError (never anything else) if not."""
    if not isinstance(body, (bytes, bytearray)) or len(body) > MAX_FRAME:
        raise ProtocolError("frame too large")
    try:
        text = bytes(body).decode("utf-8")
        msg = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_no_float,
            parse_constant=_no_float,
            parse_int=_whole,
        )
    except ProtocolError:
        raise
    except (ValueError, RecursionError, MemoryError) as exc:  # JSONDecodeError, bad UTF-8
        raise ProtocolError(f"not a JSON message: {str(exc)[:120]}") from None
    if nests_deeper_than(msg, MAX_DEPTH):
        raise ProtocolError(f"a message nests deeper than {MAX_DEPTH} levels")
    return validate(msg)


def encode(msg: dict) -> bytes:
    """A message -> one frame (header + body). Our own messages are validated too."""
    validate(msg)
    body = json.dumps(msg, separators=(",", ":"), sort_keys=True).encode()
    if len(body) > MAX_FRAME:
        raise ProtocolError("message too large for one frame")
    return HEADER.pack(len(body)) + body


async def read_frame(reader) -> bytes:
    """Read one frame body from an asyncio StreamReader (IncompleteReadError at EOF)."""
    header = await reader.readexactly(HEADER.size)
    (size,) = HEADER.unpack(header)
    if size > MAX_FRAME:
        raise FrameError(f"frame of {size} bytes is over the {MAX_FRAME}-byte limit")
    return await reader.readexactly(size)


def key_hex(k: int) -> str:
    return format(k, "x")


def key_int(text: str) -> int:
    return int(text, 16)
