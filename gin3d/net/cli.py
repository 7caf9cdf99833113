"""Play a network match from the command line with the built-in computer player.

``python -m gin3d.net.cli host [--port P] [--code C] [--relay H:P] [--out result.json]``
``python -m gin3d.net.cli host --public --relay H:P [--rules R] [--name N]``
``python -m gin3d.net.cli join --code C [--address H:P] [--relay H:P] [--out result.json]``
``python -m gin3d.net.cli host --friend`` and ``join --code 7-K7QDM3`` (the code alone)
``python -m gin3d.net.cli table-host --players 3|4 [--port P] [--code C] [--relay H:P]``
``python -m gin3d.net.cli table-join --code C [--address H:P] [--relay H:P]``

The host prints ``LISTENING <port> <code>`` once it accepts connections; with ``--public`` it
opens a listed table at the online service (``service_client.open_table``: anyone may join
it from Find an opponent or by quick match) and first prints ``LISTED <preset> <name>``.

With ``--relay`` a match is *direct first*, as the app's Play a friend
(``MatchOptions.direct_first``, docs/net.md): the host listens on every interface (unless
``--listen`` says otherwise), registers its port at the service and prints
``PUBLIC <ip> <port>`` once the service says where it sees it; a guest given only the code
tries that address before the relay. ``--relay-only`` keeps both to the relay (the host then
listens on 127.0.0.1 unless told otherwise, publishes nothing; the guest asks for nothing).
Each side writes its result (how the match ended, totals, the move log and its hash, the
route: ``direct`` or ``relay``) to ``--out``. Used by the two-process tests and handy to
watch two machines play; the packaged Linux build carries it as ``gin3d-match``
(setup_build.py), which its build test uses to play a LAN match.

With ``--friend`` the host needs no service of ours: it meets its guest at the public
magic-wormhole mailbox server and falls back to its transit relay (``gin3d.net.friend``;
``--rendezvous URL`` / ``--transit H:P`` or ``$GIN3D_RENDEZVOUS`` / ``$GIN3D_TRANSIT`` point
it elsewhere), and prints ``LISTENING <port> <friend code>``; a guest given only a code
(no ``--address``, no ``--relay``) joins that way. ``--relay-only`` there keeps both to
the transit relay.

A table (three players, or four in two teams: ``gin3d.net.table``) is hosted by one player
and joined by the others with its code (``table-host --players 3|4``, ``table-join --code C
--address H:P``); with ``--relay`` the host also waits at the service for each player, who
then needs only the code (``table-join --code C --relay H:P``: the host's address first if
given too, and the result's ``route`` says which way it went). Every player writes the
whole table's log and its hash. ``--target``
plays the game to that many points (``game_target`` for two or three players,
``partnership_target`` for four), for short test games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from gin3d.engine import RuleSet

# absolute imports: the packaged build freezes this file as its own program (gin3d-match)
from gin3d.net.constants import DEFAULT_PORT, RELAY_PORT
from gin3d.net.friend import FriendGuest, FriendHost
from gin3d.net.peer import HostedMatch, JoinedMatch, MatchOptions
from gin3d.net.service_client import open_table
from gin3d.net.session import Callbacks, Timing
from gin3d.net.tableguest import TableGuest
from gin3d.net.tablehost import TableHost
from gin3d.net.transport import parse_address, parse_relays
from gin3d.paths import write_atomic
from gin3d.players import GreedyPlayer


def _options(args) -> MatchOptions:
    relay = parse_relays(args.relay, RELAY_PORT) if args.relay else None
    timing = Timing(args.heartbeat, args.dead_after, args.grace, stall=args.stall)
    cb = Callbacks(
        on_status=lambda s: print(f"STATUS {s}", flush=True),
        on_refused=lambda r, by_peer: print(f"REFUSED {r}", flush=True),
        on_public_address=lambda ip, port: print(f"PUBLIC {ip} {port}", flush=True),
    )
    return MatchOptions(
        callbacks=cb,
        timing=timing,
        relay=relay,
        retry=args.retry,
        evidence_dir=args.evidence,
        name=args.name,
        direct_first=relay is not None and not args.relay_only,
    )


async def _run(args) -> int:
    opts = _options(args)
    player = GreedyPlayer()
    if args.role == "host":
        rules = RuleSet.preset(
            args.rules, **({"game_target": args.target} if args.target is not None else {})
        )
        if args.public:
            match = await open_table(args.relay, player, rules, opts)
            print(f"LISTED {rules.name} {args.name or 'player'}", flush=True)
        elif args.friend:
            match = FriendHost(
                player,
                rules,
                args.listen or "0.0.0.0",
                args.port,
                opts,
                args.rendezvous,
                args.transit,
                direct=not args.relay_only,
            )
            await match.start()
        else:
            # a host that publishes its port must be reachable there, as the app's host is
            listen = args.listen or ("0.0.0.0" if opts.direct_first else "127.0.0.1")
            match = HostedMatch(
                player, rules, code=args.code, listen=listen, port=args.port, options=opts
            )
            await match.start()
        print(f"LISTENING {match.port} {match.code}", flush=True)
    elif not (args.address or args.relay):  # the code alone: a friend's game
        match = FriendGuest(
            player, args.code, opts, args.rendezvous, args.transit, direct=not args.relay_only
        )
        await match.start()
    else:
        direct = parse_address(args.address, DEFAULT_PORT) if args.address else None
        match = JoinedMatch(player, args.code, direct=direct, options=opts)
        await match.start()
    ended = await match.wait()
    s = match.session
    result = {
        "ended": ended.reason,
        "detail": ended.detail,
        "totals": [g.totals() for g in s.games],
        "hands": sum(len(g.hands) for g in s.games),
        "log_head": s.log.head,
        "moves": s.log.lines(),
        "refusals": s.refusals,
        "failures": match.failures,
        "log_ok": s.log.verify(),
        "route": match.route,
        "chat": s.chat,
    }
    return await _report(args, ended, result, match)


def _table_rules(args) -> RuleSet:
    rules = RuleSet.preset(args.rules)
    if args.target is not None:
        rules = rules.but(game_target=args.target, partnership_target=args.target)
    return rules


async def _run_table(args) -> int:
    watched: dict[int, list] = {}  # hand -> [public moves watched, whether it ended]

    def watch(hand: int, seats, events: list, told) -> None:
        watched[hand] = [len(told.events), told.over]

    table = None

    def note(text: str) -> None:
        print(f"NOTE {text}", flush=True)
        if args.say and text.startswith("table safety code "):  # everyone is seated
            asyncio.ensure_future(table.send_chat(args.say))

    options = {
        "on_watch": watch,
        "on_chat": lambda p, text: print(f"CHAT {p} {text}", flush=True),
        "timing": Timing(args.heartbeat, args.dead_after, args.grace, stall=args.stall),
        "evidence_dir": args.evidence,
        "on_note": note,
        "stand_in": GreedyPlayer(),  # for a player gone past the grace time, when we run it
        "name": args.name,
    }
    player = GreedyPlayer()
    relay = parse_relays(args.relay, RELAY_PORT) if args.relay else None
    if args.role == "table-host":
        table = TableHost(
            player,
            _table_rules(args),
            args.players,
            args.code,
            args.listen or "127.0.0.1",
            args.port,
            relay=relay,
            **options,
        )
        await table.start()
        print(f"LISTENING {table.port} {table.code}", flush=True)
    else:
        address = parse_address(args.address, DEFAULT_PORT) if args.address else None
        table = TableGuest(player, args.code, address, relay=relay, **options)
        await table.start()
    ended = await table.play()
    game = table.table
    log = game.log if game is not None else None
    result = {
        "ended": ended.reason,
        "detail": ended.detail,
        "you": table.index,
        "players": table.players,
        "totals": game.totals() if game is not None else [],
        "hands": len(game.game.results) if game is not None and game.game is not None else 0,
        "log_head": log.head if log else "",
        "moves": log.lines() if log else [],
        "log_ok": log.verify() if log else False,
        "refusals": table.refusals,
        "notes": table.notes,
        "watched": sorted([hand, *seen] for hand, seen in watched.items()),
        "chat": table.chat,
        "safety_code": table.safety_code,
        "names": [table.names.get(p, "") for p in range(table.players)],
        "route": table.route if isinstance(table, TableGuest) else "",
        "failures": table.failures if isinstance(table, TableHost) else [],
    }
    # the host stays for a player away at the end: it may come back to see it
    then = table.see_off if isinstance(table, TableHost) else None
    return await _report(args, ended, result, table, then)


async def _report(args, ended, result: dict, closing, then=None) -> int:
    """Write the result, say how it ended, ``await then()`` if given, close; the exit
    status is 0 only when finished."""
    if args.out:
        write_atomic(args.out, json.dumps(result, indent=1))
    print(f"ENDED {ended.reason} {result['totals']}", flush=True)
    if then is not None:
        await then()
    await closing.close()
    return 0 if ended.reason == "finished" else 2


def _check(parser, args) -> None:
    if args.public and (args.role != "host" or not args.relay or args.code):
        parser.error("--public is for host, needs --relay and makes its own (public) code")
    friend = args.friend or (args.role == "join" and not (args.address or args.relay))
    if friend and (args.relay or args.public or args.address):
        parser.error("--friend meets at the rendezvous server: no --relay, --public or --address")
    if args.relay_only and not (args.relay or friend):
        parser.error("--relay-only needs --relay (or a friend's game)")
    if args.role in ("join", "table-join") and not args.code:
        parser.error(f"{args.role} needs --code")
    if args.friend and args.role != "host":
        parser.error("--friend is for host (join a friend's game with --code alone)")
    if args.friend and args.code:
        parser.error("--friend makes its own code (the meeting server gives its number)")
    if args.role == "table-join" and not (args.address or args.relay):
        parser.error("table-join needs --address or --relay")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gin3d.net.cli")
    parser.add_argument("role", choices=("host", "join", "table-host", "table-join"))
    parser.add_argument("--code", help="join code (the host makes one if not given)")
    parser.add_argument(
        "--listen",
        help="host: address to listen on (default: 0.0.0.0 with --relay, else 127.0.0.1)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="host: port (0 = any)")
    parser.add_argument("--address", help="join: host:port to connect to directly")
    parser.add_argument("--relay", help="host:port of a gin3d-relay")
    parser.add_argument(
        "--relay-only",
        action="store_true",
        help="with --relay or a friend's game: no direct try (the host publishes no address,"
        " the guest tries none)",
    )
    parser.add_argument(
        "--friend",
        action="store_true",
        help="host: a game for a friend, who joins with the code alone (no service needed)",
    )
    parser.add_argument(
        "--rendezvous",
        default="",
        help="a friend's game: the mailbox server (default: $GIN3D_RENDEZVOUS or the public one)",
    )
    parser.add_argument(
        "--transit",
        default="",
        help="a friend's game: the transit relay host:port (default: $GIN3D_TRANSIT or public)",
    )
    parser.add_argument("--rules", default="classic", help="host: rules preset")
    parser.add_argument(
        "--target", type=int, help="host, table-host: the game target (default: the preset's)"
    )
    parser.add_argument(
        "--public",
        action="store_true",
        help="host: list the table at the online service (--relay) for anyone to join",
    )
    parser.add_argument("--players", type=int, choices=(3, 4), default=3, help="table-host")
    parser.add_argument("--say", default="", help="table roles: a chat line once all sit")
    parser.add_argument("--out", help="write the result as JSON here")
    parser.add_argument("--evidence", help="folder for cheating evidence files")
    parser.add_argument("--name", default="", help="player name shown to the opponent")
    parser.add_argument("--heartbeat", type=float, default=2.0)
    parser.add_argument("--dead-after", type=float, default=8.0)
    parser.add_argument("--grace", type=float, default=60.0)
    parser.add_argument(
        "--stall", type=float, default=120.0, help="seconds to wait for a step before claiming"
    )
    parser.add_argument("--retry", type=float, default=0.5)
    args = parser.parse_args(argv)
    _check(parser, args)
    run = _run_table if args.role.startswith("table") else _run
    try:
        return asyncio.run(run(args))
    except (ConnectionError, ValueError) as exc:
        print(f"ERROR {exc}", flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
