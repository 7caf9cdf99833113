"""What a relay node does for the public lobby: checks a table before listing it, answers
``list`` with a page of the open tables and ``quick`` with one of them.

A listed table shows its join code to everybody, so the node can check, before listing it,
that the table's verifier is the one that code gives (``room_claim`` then
``claim_verifier``): a table nobody could join with the code it shows is never listed.
The check is a scrypt (16 MiB, ~50 ms), so it is made once per table (a host that registers
again is remembered), a few at a time, and only so often for one address.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict

from .directory import PUBLIC_PRESETS, TABLES_SHOWN, Directory, Table, decode_name
from .relay_client import claim_verifier
from .transport import room_claim, room_id

MAX_TARGET = 1000
NOT_ITS_CODE = "the table's verifier is not of its public code: nobody could join it"
VERIFIED_KEPT = 4096  # tables whose verifier was checked, remembered (a host registers again)


def table_of(m: re.Match) -> tuple[Table | None, str]:
    """The public table a ``table`` line opens, or None and why not."""
    room, verifier, fingerprint, preset, target, name, code = m.groups()
    if preset not in PUBLIC_PRESETS:
        return None, f"unknown preset {preset!r}"
    if not 1 <= int(target) <= MAX_TARGET:
        return None, f"the game target must be 1..{MAX_TARGET}"
    if room_id(code) != room:
        return None, "the table's code is not of its room"
    try:
        shown = decode_name(name)
    except ValueError as exc:
        return None, str(exc)
    return Table(verifier, shown, preset, int(target), code, fingerprint, time.time()), ""


class TableChecks:
    """Which tables answer their public code: checked, and remembered."""

    def __init__(self, directory: Directory, rate: tuple[int, float], at_once: int) -> None:
        self.directory, self.rate = directory, rate
        self.verified: OrderedDict[str, str] = OrderedDict()  # table id -> its code
        self.running = asyncio.Semaphore(at_once)

    async def why_not(self, table: Table, address: str) -> str:
        """Why ``table`` may not be listed ("" when it may)."""
        if self.verified.get(table.table_id) == table.code:
            self.verified.move_to_end(table.table_id)
            return ""
        if not await self.directory.take("check", address, self.rate):
            return "too many new tables from your address: try again soon"
        async with self.running:
            claim = await asyncio.to_thread(room_claim, table.code)
        if claim_verifier(claim) != table.table_id:
            return NOT_ITS_CODE
        self.verified[table.table_id] = table.code
        while len(self.verified) > VERIFIED_KEPT:
            self.verified.popitem(last=False)
        return ""


async def lobby_answer(
    directory: Directory, quick_rate: tuple[int, float], address: str, what: str, arg, more
) -> tuple[list[str], str]:
    """The answer lines to ``list [<preset> [<offset> <count>]]`` (a page of the open
    tables in ``fair_order``, then ``END <how many in all>``) or ``quick [<preset> [<own
    table>]]`` (the oldest open table nobody was given, never the asker's own, or
    ``NONE``); or ``[]`` and why it is refused."""
    if arg is not None and arg not in PUBLIC_PRESETS and arg != "all":
        return [], f"unknown preset {arg[:20]!r}"
    preset = None if arg in (None, "all") else arg
    if what == "list":
        offset, count = (int(n) for n in (more or f"0 {TABLES_SHOWN}").split())
        if not 1 <= count <= TABLES_SHOWN:
            return [], f"a page holds 1..{TABLES_SHOWN} tables"
        tables, total = await directory.tables(preset, offset, count)
        return [t.line() for t in tables] + [f"END {total}"], ""
    if more is not None and " " in more:
        return [], "bad request line"
    if not await directory.take("quick", address, quick_rate):
        return [], "too many quick matches: try again soon"
    table = await directory.claim_table(preset, more or "")
    return [table.line() if table is not None else "NONE"], ""
