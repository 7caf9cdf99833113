"""A modified table player, run as its own process by tests/test_net_table.py: it plays
honestly except for the cheat named by its first argument.

- ``forge``: at the first hand it sits out, it sends the table a made-up record of that hand;
- ``lie``: the record of its own first hand it sends the table lacks the hand's last move;
- ``alter`` (a host): the first record of a guest it passes on has two cards swapped;
- ``tell``: of its first hand it tells the table a deal that cannot be (a seat 9), and of
  its second a discard of another card it holds than the one it threw.
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


honest_tell = table.TablePeer._tell
honest_queue = table.TablePeer._queue_told
told_hands: list[int] = []  # the hands we told of, in order
views: dict[int, object] = {}  # each hand's view as of its last move


def noting_tell(self, hand: int, view, told: list[int]) -> None:
    if hand not in told_hands:
        told_hands.append(hand)
    views[hand] = view
    honest_tell(self, hand, view, told)


def lying_queue(self, msg: dict) -> None:
    nth = told_hands.index(msg["hand"])
    if nth == 0 and msg["n"] == 0:  # a deal that cannot be
        msg = {**msg, "ev": ["start 9 31", *msg["ev"][1:]]}
    elif nth == 1 and "swap" not in done:  # a discard of another card it holds
        view = views[msg["hand"]]
        texts = list(msg["ev"])
        for i, text in enumerate(texts):
            word, seat, *rest = text.split()
            if word == "discard" and int(seat) == view.seat:
                texts[i] = f"discard {seat} {next(str(c) for c in view.hand)}"
                done.add("swap")
                msg = {**msg, "ev": texts}
                break
    honest_queue(self, msg)


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
elif CHEAT == "tell":
    table.TablePeer._tell = noting_tell
    table.TablePeer._queue_told = lying_queue
elif CHEAT == "alter":
    tablehost.TableHost._route = altering_route
else:
    raise SystemExit(f"unknown cheat {CHEAT!r}")
sys.exit(cli.main())
