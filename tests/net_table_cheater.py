"""A modified table player, run as its own process by tests/test_net_table.py: it plays
honestly except for the cheat named by its first argument.

- ``forge``: at the first hand it sits out, it sends the table a made-up record of that hand;
- ``lie``: the record of its own first hand it sends the table lacks the hand's last move;
- ``alter`` (a host): the first record of a guest it passes on has two cards swapped.
"""

from __future__ import annotations

import sys

from gin3d.net import cli, table, tablehand, tablehost

CHEAT = sys.argv.pop(1)
honest_round = table.TablePeer._play_round
honest_record = tablehand.TableHandSession.record
done: set[str] = set()


async def forging_round(self, table_id: str) -> None:
    for hand, seats, _ in self.table.next_hands():
        if self.index not in seats and "forge" not in done:
            done.add("forge")
            forged = {"t": "trecord", "p": self.index, "hand": hand, "deck": list(range(52))}
            await self._broadcast({**forged, "actions": ["draw stock"]})
    await honest_round(self, table_id)


def lying_record(self) -> tuple[list[int], list[str]]:
    deck, actions = honest_record(self)
    if "lie" in done:
        return deck, actions
    done.add("lie")
    return deck, actions[:-1]


honest_route = tablehost.TableHost._route


async def altering_route(self, msg: dict, sender: int) -> None:
    if msg["t"] == "trecord" and "alter" not in done:
        done.add("alter")
        deck = msg["deck"]
        await self._send_all({**msg, "deck": [deck[1], deck[0], *deck[2:]]}, but=sender)
        await self._take(msg)
        return
    await honest_route(self, msg, sender)


if CHEAT == "forge":
    table.TablePeer._play_round = forging_round
elif CHEAT == "lie":
    tablehand.TableHandSession.record = lying_record
elif CHEAT == "alter":
    tablehost.TableHost._route = altering_route
else:
    raise SystemExit(f"unknown cheat {CHEAT!r}")
sys.exit(cli.main())
