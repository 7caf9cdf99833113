"""LAN scenario run inside a private network namespace by test_net_discovery.py.

``python net_lan_scenario.py lan`` : host + advertiser + browser + guest in one process on lo.
``python net_lan_scenario.py lan-resume`` : a LAN match saved after a hand, resumed with the
host on a new port, the guest finding it on the LAN by its fingerprint.
``python net_lan_scenario.py host ADDR`` / ``join`` : the two halves, one per namespace.
Prints one JSON line with what happened.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gin3d.engine import RuleSet  # noqa: E402
from gin3d.net.discovery import TableAdvertiser, TableBrowser  # noqa: E402
from gin3d.net.peer import HostedMatch, JoinedMatch  # noqa: E402
from gin3d.players import GreedyPlayer  # noqa: E402

RULES = RuleSet.preset("classic", game_target=30)


async def host(address: str, interfaces: list[str]) -> dict:
    match = HostedMatch(GreedyPlayer(), RULES, listen=address, port=0, open_table=True)
    await match.start()
    adv = TableAdvertiser(
        "Kitchen table", match.port, match.identity.fingerprint, [address], interfaces=interfaces
    )
    await adv.start()
    print(json.dumps({"listening": match.port}), flush=True)
    ended = await match.wait()
    result = {"ended": ended.reason, "head": match.session.log.head}
    await adv.close()
    await match.close()
    return result


async def join(interfaces: list[str] | None) -> dict:
    browser = TableBrowser(interfaces=interfaces)
    await browser.start()
    while not browser.tables:
        browser.changed.clear()
        await asyncio.wait_for(browser.changed.wait(), 30)
    table = browser.list()[0]
    guest = JoinedMatch(
        GreedyPlayer(), "", direct=(table.address, table.port), open_fingerprint=table.fingerprint
    )
    await guest.start()
    ended = await guest.wait()
    result = {
        "found": table.name,
        "address": table.address,
        "compatible": table.compatible,
        "ended": ended.reason,
        "head": guest.session.log.head,
    }
    await browser.close()
    await guest.close()
    return result


async def lan() -> dict:
    host_task = asyncio.ensure_future(host("127.0.0.1", ["127.0.0.1"]))
    joined = await join(["127.0.0.1"])
    hosted = await host_task
    return {"host": hosted, "guest": joined}


def lan_api() -> dict:
    """The app's way: NetService hosts an open LAN table, another NetService lists and joins."""
    import queue
    import time

    from gin3d.net.api import NetService

    host = NetService("Ann").start()
    guest = NetService("Bob").start()
    try:
        info = host.host(
            RULES,
            "Ann's table",
            player=GreedyPlayer(),
            listen="127.0.0.1",
            port=0,
            lan_interfaces=["127.0.0.1"],
        ).result(20)
        guest.browse(["127.0.0.1"]).result(20)
        lists, ended, deadline = [], None, time.monotonic() + 90
        while ended is None and time.monotonic() < deadline:
            if any(e.kind == "rematch_asked" for e in host.poll()):
                host.answer_rematch(False)
            try:
                ev = guest.events.get(timeout=0.2)
            except queue.Empty:
                continue
            if ev.kind == "tables":
                lists.append([t.name for t in ev.data["tables"]])
                if ev.data["tables"] and guest.match is None:
                    guest.join_table(ev.data["tables"][0], player=GreedyPlayer()).result(20)
            elif ev.kind == "rematch_asked":
                guest.answer_rematch(False)
            elif ev.kind == "ended":
                ended = ev.data["reason"]
        while lists and lists[-1] and time.monotonic() < deadline:  # the goodbye may lag
            try:
                ev = guest.events.get(timeout=1)
            except queue.Empty:
                continue
            if ev.kind == "tables":
                lists.append([t.name for t in ev.data["tables"]])
        return {
            "lists": lists,
            "ended": ended,
            "port": info.port,
            "same": host.match.session.log.head == guest.match.session.log.head,
        }
    finally:
        guest.stop()
        host.stop()


def _pump(services: list, until, seconds: float = 90) -> list:
    """Every service's events (rematches declined) until ``until(event)`` has held for each
    of them; returns the first service's events."""
    import queue
    import time

    seen: list[list] = [[] for _ in services]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for i, service in enumerate(services):
            try:
                ev = service.events.get(timeout=0.05)
            except queue.Empty:
                continue
            seen[i].append(ev)
            if ev.kind == "rematch_asked":
                service.answer_rematch(False)
        if all(any(until(e) for e in got) for got in seen):
            return seen[0]
    last = [[e.kind for e in got][-8:] for got in seen]
    raise TimeoutError(f"no such event in {seconds} s: {last}")


def lan_resume() -> dict:
    """Ann hosts a LAN match, Bob joins at her address; after the first hand Ann saves and
    leaves. Ann resumes on a new port; Bob resumes with no address typed: his app must find
    her table on the LAN (the address in his save is dead by then) and the match goes on."""
    import tempfile

    from gin3d.net.api import NetService
    from gin3d.net.discovery import TableBrowser

    # far enough that the hands the computers play before Ann's leave arrives (more of them
    # on a loaded machine) cannot end the match: at 60 it sometimes had nothing to resume
    rules = RuleSet.preset("classic", game_target=150)
    tmp = Path(tempfile.mkdtemp(prefix="gin3d-lan-resume-"))
    services = []

    def service(name: str) -> NetService:
        (tmp / name).mkdir(exist_ok=True)
        svc = NetService(name, save_dir=str(tmp / name)).start()
        svc.kind = "lan"
        services.append(svc)
        return svc

    try:
        ann, bob = service("Ann"), service("Bob")
        info = ann.host(
            rules,
            "Ann's table",
            player=GreedyPlayer(),
            open_table=False,
            listen="127.0.0.1",
            port=0,
            lan_interfaces=["127.0.0.1"],
        ).result(20)
        bob.join_code(info.code, f"127.0.0.1:{info.port}", player=GreedyPlayer()).result(20)
        _pump([ann], lambda e: e.kind == "hand_over")
        ann.save_and_leave().result(20)
        _pump([bob], lambda e: e.kind == "ended")
        ann.stop()
        bob.stop()
        ann_save = next((tmp / "Ann").glob("gin3d-match-*.json"))
        bob_save = next((tmp / "Bob").glob("gin3d-match-*.json"))

        ann2, bob2 = service("Ann"), service("Bob")
        ann2.resume(
            ann_save,
            listen="127.0.0.1",
            port=0,
            player=GreedyPlayer(),
            lan_interfaces=["127.0.0.1"],
        ).result(20)
        new_port = ann2.match.port
        listed = asyncio.run(_tables_heard(TableBrowser))
        bob2.resume(bob_save, player=GreedyPlayer(), lan_interfaces=["127.0.0.1"]).result(60)
        seen = _pump([bob2, ann2], lambda e: e.kind == "ended", 120)
        return {
            "old_port": info.port,
            "new_port": new_port,
            "listed": listed,
            "status": [e.data["text"] for e in seen if e.kind == "status"],
            "ended": [e.data["reason"] for e in seen if e.kind == "ended"],
            "hands": len(bob2.match.session.game.hands),
            "same": ann2.match.session.log.head == bob2.match.session.log.head,
        }
    finally:
        for svc in services:
            svc.stop()


async def _tables_heard(browser_cls) -> list:
    """What a stranger's table list hears on the LAN while the saved match waits."""
    browser = browser_cls(interfaces=["127.0.0.1"])
    await browser.start()
    try:
        await asyncio.wait_for(browser.changed.wait(), 10)
        return [[t.name, t.open, t.resume] for t in browser.list()]
    finally:
        await browser.close()


def main() -> None:
    role = sys.argv[1]
    if role == "lan":
        out = asyncio.run(lan())
    elif role == "lan-api":
        out = lan_api()
    elif role == "lan-resume":
        out = lan_resume()
    elif role == "host":
        out = asyncio.run(host(sys.argv[2], [sys.argv[2]]))
    else:
        out = asyncio.run(join(None))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
