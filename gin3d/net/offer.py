"""The host's rules as they travel before a match: short enough for a LAN advertisement's TXT
entry, exact enough to refuse a host whose match does not use the rules it offered.

``rules_token`` writes a ``RuleSet`` as its preset name plus the fields that differ from that
preset (``oklahoma;game_target=100;last_chance=1``); ``rules_from_token`` reads one back and
refuses anything unknown. ``rules_digest`` is the SHA-256 of the canonical rules, which two
saves compare before a match is resumed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields

from gin3d.engine import RuleSet
from gin3d.engine.rules import PRESETS

from .protocol import RULE_INT_MAX

MAX_TOKEN = 240  # one TXT string holds at most 255 bytes


def rules_token(rules: RuleSet) -> str:
    """``preset;field=value;...``: the preset and what differs from it."""
    base = rules.name if rules.name in PRESETS else "classic"
    preset = RuleSet.preset(base).to_dict()
    parts = [base]
    for key, value in rules.to_dict().items():
        if key == "name" or preset.get(key) == value:
            continue
        text = str(int(value)) if isinstance(value, bool) else str(value)
        if any(ch in text for ch in ";=") or not text.isprintable():
            raise ValueError(f"rule {key} cannot be written in a token: {value!r}")
        parts.append(f"{key}={text}")
    token = ";".join(parts)
    if len(token) > MAX_TOKEN:
        raise ValueError("these rules are too long to advertise")
    return token


def rules_from_token(token: str) -> RuleSet:
    """The RuleSet a token names; ValueError for an unknown preset, field or value."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise ValueError("not a rules token")
    base, *rest = token.split(";")
    if base not in PRESETS:
        raise ValueError(f"unknown rules preset {base!r}")
    kinds = {f.name: f.type for f in fields(RuleSet)}
    preset = RuleSet.preset(base).to_dict()
    changes: dict = {}
    for part in rest:
        key, sep, text = part.partition("=")
        if not sep or key not in kinds or key == "name" or key in changes:
            raise ValueError(f"bad rules entry {part!r:.40}")
        old = preset[key]
        if isinstance(old, bool):
            if text not in ("0", "1"):
                raise ValueError(f"rule {key} is 0 or 1")
            changes[key] = text == "1"
        elif isinstance(old, int):
            if not text.isdigit() or len(text) > 6 or int(text) > RULE_INT_MAX:
                raise ValueError(f"rule {key} is a whole number in 0..{RULE_INT_MAX}")
            changes[key] = int(text)
        else:
            changes[key] = text
    return RuleSet.preset(base, **changes)


def rules_digest(rules: RuleSet) -> str:
    """SHA-256 (hex) of the canonical rules: equal exactly when the rules are equal."""
    text = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(b"gin3d-rules|" + text.encode()).hexdigest()


def rules_label(rules: RuleSet | None, players: int = 2) -> str:
    """A short line for lists: ``Oklahoma, game to 150, last chance``; a table of four plays
    to the teams' target (``game to 125 (teams)``)."""
    if rules is None:
        return "rules not advertised"
    extras = [
        label
        for key, label in (
            ("last_chance", "last chance"),
            ("allow_throw_back", "throw-back"),
            ("straight_gin", "straight gin"),
            ("no_upcard", "no upcard"),
            ("hollywood", "Hollywood"),
        )
        if getattr(rules, key, False)
    ]
    target = f"{rules.partnership_target} (teams)" if players == 4 else str(rules.game_target)
    return ", ".join([rules.name.title(), f"game to {target}", *extras])


__all__ = ["rules_digest", "rules_from_token", "rules_label", "rules_token"]
