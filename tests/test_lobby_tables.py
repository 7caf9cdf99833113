"""A LAN table of three (and of four in two teams) on the offscreen app, with real processes
on loopback (127.0.0.1): the app hosts it from the LAN screen (Host a table of 3 or 4, the
rules, the hosting screen showing who has joined), command line players join it with its
code, and the app's player plays its hands through the real input path to the end of the
game: the same totals as the others, the player sitting out or the teams and the partner's
table on the pad, the result and game-over screens of a three-player or partnership game."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from net_processes import FAST, LOOP, ROOT
from scene_harness import Driver, get_app, panel_texts
from test_lobby_screens import check_view, pump

from gin3d import stats as stats_mod
from gin3d.driver.three_table import ThreePlayerTable
from gin3d.engine import NextHand, PartnershipGame, RuleSet, ThreePlayerGame, redact
from gin3d.engine.events import CardDealt, CardDrawn, Discarded, Knocked
from gin3d.net.publicmoves import PublicHand, public_events
from gin3d.net.session import Timing
from gin3d.players import GreedyPlayer
from gin3d.recorder import PARTNERSHIPS, THREE_PLAYERS
from gin3d.scene.control.net_hub import NetConfig, NetHub, net_event
from gin3d.scene.control.netgroup import NetTeamTable
from gin3d.scene.control.nettablegroup import NetGroupSession

TARGET = 50  # a few hands: one hand (a gin, say) rarely ends the game before we play


def kept(players: int) -> tuple[int, int]:
    """(hands, games) the statistics hold in the row of three-player or partnership games."""
    row = stats_mod.load()[0].level(THREE_PLAYERS if players == 3 else PARTNERSHIPS)
    return row.hands_played, row.games_played


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.request("Menu")
    app.net_hub.close(wait=True)
    app.net_hub = NetHub(
        app,
        NetConfig(
            name="Ann",
            listen=LOOP,
            port=0,
            discovery=False,
            upnp=False,
            timing=Timing(0.3, 2.5, 60),
        ),
    )
    app.setup.options = {}
    targets = app.setup.target, app.setup.team_target
    app.setup.target = app.setup.team_target = TARGET
    yield app
    app.setup.target, app.setup.team_target = targets
    app.request("Menu")
    app.net_hub.close(wait=True)


def join(code: str, port: int, out) -> subprocess.Popen:
    """A command line player joining the table (the greedy player)."""
    return subprocess.Popen(
        [sys.executable, "-m", "gin3d.net.cli", "table-join", "--code", code,
         "--address", f"{LOOP}:{port}", "--out", str(out), *FAST],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _check_partner_table(session, ctl, watched: set) -> None:
    """Four players: the teams on the pad, the partner's table under them, and the partner's
    hand on the inset as its public moves come: their cards and their opponent's face down
    (but those taken from the pile) until laid out, the line naming both."""
    pad = session.hud.scores.getText()
    assert "You & Player 3: " in pad and "Player 2 & Player 4: " in pad, pad
    assert "Partner's table: Player 3 vs" in pad, pad
    watch = ctl.watch
    assert watch.inset.shown
    if watch.hand is None:
        return
    watched.add(watch.hand)
    zones = watch.inset.scene.zones()
    open_cards = {c for c in zones["hand0"] + zones["hand1"] if c is not None}
    taken = {e.card for e in watch.events if isinstance(e, CardDrawn)}
    assert open_cards <= taken - {None}, (zones, watch.events)  # from the pile
    assert watch.line().startswith("Player 3 vs Player "), watch.line()
    if not watch.told["over"]:
        assert " cards in stock" in watch.line(), watch.line()
    knocked = any(isinstance(e, Knocked) for e in watch.events)
    if not knocked and not watch.inset.queue.busy:  # all shown: ten or eleven in hand
        assert zones["pile"] and len(zones["hand0"]) in (10, 11), zones


@pytest.mark.parametrize("players", [3, 4])
def test_host_a_table_from_the_lan_screen_and_play_it_out(app, tmp_path, players):
    app.request("Menu")
    app.request("Lan")
    app.screens.panel.buttons[f"host{players}"]["command"]()
    assert app.screens.state == "HostSetup"
    # the target the table plays to: the teams' at four (it said "game to 100" there)
    shown = app.screens.panel.buttons["target"]["text"]
    summary = app.screens.current.setup_summary[0].getText()
    teams = f"{app.setup.rules().partnership_target} (teams)"
    if players == 4:
        assert shown == teams and f"game to {teams}" in summary, (shown, summary)
    else:
        assert "(teams)" not in shown + summary, (shown, summary)
    before = kept(players)
    app.screens.panel.buttons["host"]["command"]()
    assert app.screens.state == "Hosting"
    screen = app.screens.current
    if players == 4:
        assert f"game to {teams}" in panel_texts(app), panel_texts(app)
    pump(app, lambda: "Join code" in screen.host_lines[0].getText(), "the hosting screen")
    info = app.net_hub.service.host_info
    others = players - 1
    assert screen.waiting.getText() == f"Waiting for {others} players..."
    pump(app, lambda: f"waiting for {others} more" in screen.seated.getText(), "the seats line")
    guests = [join(info.code, info.port, tmp_path / "p1.json")]
    try:
        pump(app, lambda: "You, Player 2 " in screen.seated.getText(), "the first guest")
        more = f"waiting for {others - 1} more..."
        assert screen.seated.getText() == f"At the table: You, Player 2  -  {more}"
        assert screen.waiting.getText() == f"Waiting for {others - 1} player{'s' * (others > 2)}..."
        for i in range(2, players):
            guests.append(join(info.code, info.port, tmp_path / f"p{i}.json"))
        pump(app, lambda: app.screens.state == "Table", "the table")
        session = app.session
        ctl = session.controller
        assert (ctl.me, ctl.players) == (0, players)
        assert f"Table of {players}" in session.status.info.getText()
        assert "table safety code" in session.status.info.getText()
        driver = Driver(app)
        sat_out = played = 0
        watched = set()  # the partner's hands seen on the inset (four players)
        shown = []  # every event the table showed while we sat a hand out (three players)
        listen = lambda e: shown.append(e) if ctl.playing is None else None  # noqa: E731
        ctl.scene.listeners.append(listen)
        for _ in range(3000):
            pump(
                app,
                lambda: (
                    ctl.waiting_for_human()
                    or app.screens.state in ("HandResult", "GameOver")
                    or ctl.watching_line()
                ),
                "our turn, a hand we sit out or a result",
            )
            if app.screens.state == "GameOver":
                break
            if app.screens.state == "HandResult":
                assert isinstance(ctl.game, ThreePlayerTable if players == 3 else NetTeamTable)
                app.screens.panel.buttons["next"]["command"]()
                continue
            if ctl.watching_line():
                # the pad names the two players and who sits out: us
                assert ctl.bench[0] == "You"
                assert "You: " in session.hud.scores.getText()
                assert "sits out" in session.hud.scores.getText()
                sat_out += 1
                pump(
                    app,
                    lambda: app.screens.state in ("HandResult", "GameOver"),
                    "the hand we sat out",
                )
                continue
            check_view(app)
            if players == 4:
                _check_partner_table(session, ctl, watched)
            driver.play_turn()
            played += 1
        assert app.screens.state == "GameOver"
        ctl.scene.listeners.remove(listen)
        if sat_out:  # the hands we sat out played on the table as they came, cards hidden
            live = [e for e in shown if isinstance(e, CardDealt) and e.card is None]
            assert {e.seat for e in live} == {0, 1} and len(live) >= 20 * sat_out, live
            assert any(isinstance(e, Discarded) for e in shown), shown
        if players == 4:  # a partner's hand each round (ours at table 0: theirs odd)
            assert watched and all(h % 2 == 1 for h in watched), watched
        # (a game of three can end in a first hand we sat out: nothing of ours to play)
        assert (played and ctl.submitted) or len(ctl.game.game.results) == 1
        for g in guests:
            g.wait(60)
    finally:
        for g in guests:
            if g.poll() is None:
                g.kill()
    results = [json.loads((tmp_path / f"p{i}.json").read_text()) for i in range(1, players)]
    assert all(r["ended"] == "finished" for r in results)
    game = ctl.game.game
    assert game.over and max(game.totals()) >= TARGET
    assert [list(game.totals())] * others == [r["totals"] for r in results]
    pump(app, lambda: session.ended is not None, "the table's end")
    assert session.ended == "finished"
    # every hand we played counted once, in the row of its kind of game, and the game
    ours = sum(0 in seats for seats in game.seats) if players == 3 else len(game.results)
    assert kept(players) == (before[0] + ours, before[1] + 1), (before, kept(players), ours)
    app.request("Menu")


def test_join_a_table_of_four_by_address_and_code_as_team_one(app, tmp_path):
    """The app joins a command line host's table of four (LAN screen: address, code, Join a
    table of 3 or 4) as player 1, in team 1: its pad puts its own team first, its results
    and game-over sheet name each team by the engine's team numbers."""
    said = tmp_path / "host.out"
    before = stats_mod.load()[0].level(PARTNERSHIPS).games_won, kept(4)
    with said.open("w") as out:
        host = subprocess.Popen(
            [sys.executable, "-m", "gin3d.net.cli", "table-host", "--players", "4", "--listen",
             LOOP, "--port", "0", "--target", str(TARGET), "--out", str(tmp_path / "p0.json"),
             *FAST],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    guests = [host]
    try:
        pump(app, lambda: said.read_text().startswith("LISTENING"), "the host's port and code")
        port, code = said.read_text().split()[1:3]
        app.request("Menu")
        app.request("Lan")
        p = app.screens.panel
        p.entries["address"].enterText(f"{LOOP}:{port}")
        p.entries["code"].enterText(code)
        p.buttons["join_table"]["command"]()
        note = app.screens.lobby.note
        pump(app, lambda: "waiting for the others" in note.getText(), "the guest's waiting line")
        for i in (2, 3):
            guests.append(join(code, port, tmp_path / f"p{i}.json"))
        pump(app, lambda: app.screens.state == "Table", "the table")
        ctl = app.session.controller
        assert (ctl.me, ctl.players) == (1, 4)
        driver = Driver(app)
        teams = ("Player 1 & Player 3", "You & Player 4")  # by the engine's team numbers
        for _ in range(3000):
            pump(
                app,
                lambda: ctl.waiting_for_human() or app.screens.state in ("HandResult", "GameOver"),
                "our turn or a result",
            )
            title = app.screens.panel.title.getText() if app.screens.panel else ""
            if app.screens.state == "GameOver":
                assert title == f"{teams[ctl.game.game.winner]} win the game!", title
                break
            if app.screens.state == "HandResult":
                team, _ = ctl.game.game.results[-1]
                assert team is None or title.startswith(f"{teams[team]} score"), title
                app.screens.panel.buttons["next"]["command"]()
                continue
            pad = app.session.hud.scores.getText()
            assert pad.index("You & Player 4: ") < pad.index("Player 1 & Player 3: "), pad
            check_view(app)
            driver.play_turn()
        assert app.screens.state == "GameOver" and ctl.submitted
        for g in guests:
            g.wait(60)
    finally:
        for g in guests:
            if g.poll() is None:
                g.kill()
    game = ctl.game.game
    assert json.loads((tmp_path / "p0.json").read_text())["totals"] == game.totals()
    # our hand of each round counted, and the game, won when our team (team 1) won
    (won, (hands, games)), rounds = before, len(game.results)
    assert kept(4) == (hands + rounds, games + 1), (before, kept(4), rounds)
    assert stats_mod.load()[0].level(PARTNERSHIPS).games_won == won + (game.winner == 1)
    app.request("Menu")


def test_leaving_the_table_stops_it_for_everyone(app, tmp_path):
    """Quit to the menu mid-hand: every other player's table stops, saying who left; before
    that, a note of the table about a player (a lost link) shows as the table's message."""
    app.request("Menu")
    app.request("Lan")
    app.screens.panel.buttons["host3"]["command"]()
    app.screens.panel.buttons["host"]["command"]()
    screen = app.screens.current
    pump(app, lambda: "Join code" in screen.host_lines[0].getText(), "the hosting screen")
    info = app.net_hub.service.host_info
    guests = [join(info.code, info.port, tmp_path / f"p{i}.json") for i in (1, 2)]
    try:
        pump(app, lambda: app.screens.state == "Table", "the table")
        session = app.session
        lost = "player 2's link was lost (EOF): waiting 60 s"
        session.handle(net_event("note", text=lost))
        # named as the pad names that player (the network layer counts from 0)
        told = "Table: Player 3's link was lost (EOF): waiting 60 s"
        assert session.hud.message.getText() == told
        session.handle(net_event("note", text="hand 2: players 0 and 1"))  # not told
        assert "link was lost" in session.hud.message.getText()
        app.request("Menu")  # leaves the table (the service stops in the background)
        for g in guests:
            g.wait(60)
    finally:
        for g in guests:
            if g.poll() is None:
                g.kill()
    for i in (1, 2):
        result = json.loads((tmp_path / f"p{i}.json").read_text())
        assert result["ended"] == "opponent left", result["detail"]
        assert "player 0 left" in result["detail"], result["detail"]


def _hand_played(game: ThreePlayerGame) -> ThreePlayerGame:
    """``game`` with its hand under way played to its end (greedy players), and a copy of
    it as a table's ``hand_over`` brings it."""
    brain = GreedyPlayer()
    while not game.hand.over:
        game.apply(brain.choose(game.view(game.turn)))
    return copy.deepcopy(game)


def _table_session(app, me: int, players: int, rules) -> NetGroupSession:
    """A network table's session on the app, fed its events by the test."""
    app.request("Menu")
    app.end_game()
    session = NetGroupSession(app, app.net_hub.open(), me, players, rules)
    app.session = session
    app.net_hub.handler = session.handle
    app.request("Table")
    return session


def _watch_event(told: PublicHand, events: list, hand: int, seats, seat: int):
    """The ``watch`` event of ``events``, the next public moves of ``hand`` (added to
    ``told``, the hand they build)."""
    told.take(events)
    data = {"stock": told.stock, "turn": told.turn, "over": told.over, "result": told.result}
    return net_event("watch", hand=hand, seats=seats, seat=seat, events=events, **data)


def test_a_hand_sat_out_agreed_behind_the_last_result_opens_its_own(app):
    """The table agreed the hand we sit out while the last hand's result still showed: on
    Next hand that hand is laid out at once, and its result opens over the table, not asked
    for while the first result is still being left (a screen that does not lead to itself
    refused it; the table then only found it on entering)."""
    won = [s for s in range(50) if _hand_played(ThreePlayerGame(seed=s)).results[0][0] is not None]
    seed = won[0]  # (a drawn first hand: the same dealer deals again)
    game = ThreePlayerGame(RuleSet().but(game_target=500), seed=seed)
    first = _hand_played(game)
    me = next(p for p in first.playing if p != first.results[0][0])  # the loser deals next
    game.apply(NextHand())
    assert game.sitting_out == me
    second = _hand_played(game)
    session = _table_session(app, me, 3, game.rules)
    session.handle(net_event("table", hands=[(0, first.playing)]))
    seat = first.playing.index(me)  # our first hand, move by move as its match tells it
    events = [redact(e, seat) for e in first.hands[0].events]
    view = first.view(me)
    session.handle(net_event("game", events=events, view=view, hand=0, seats=first.playing))
    session.handle(net_event("hand_over", game=first, totals=first.totals()))
    pump(app, lambda: app.screens.state == "HandResult", "the first hand's result")
    session.handle(net_event("table", hands=[(1, second.playing)]))  # held behind it
    session.handle(net_event("hand_over", game=second, totals=second.totals()))
    refused = len(app.screens.refused)
    app.screens.panel.buttons["next"]["command"]()
    # its result was not asked for while the first one was being left (refused, and lost)
    assert app.screens.refused[refused:] == []
    pump(
        app,
        lambda: app.screens.state == "HandResult" and not session.controller.held,
        "the result of the hand we sat out",
    )
    assert session.controller.table.watching and len(session.controller.table.hands) == 2
    app.request("Menu")


def test_a_hand_we_sit_out_plays_on_the_table_as_its_moves_come(app):
    """Three players: the hand we sit out goes on the table move by move as its players
    tell the table (``watch``), both hands face down but the cards taken from the pile, each
    move told; once agreed it is laid out with every card open and its result opens."""
    game = ThreePlayerGame(RuleSet().but(game_target=500), seed=3)
    me, seats = game.sitting_out, game.playing
    session = _table_session(app, me, 3, game.rules)
    ctl = session.controller
    session.handle(net_event("table", hands=[(0, seats)]))
    told, brain, taken = PublicHand(), GreedyPlayer(), set()
    moves = public_events(game.hand.events)  # the deal, then each move's
    while True:
        session.handle(_watch_event(told, moves, 0, seats, 0))
        taken |= {e.card for e in moves if isinstance(e, CardDrawn) and e.source == "discard"}
        pump(app, lambda: not ctl.queue.busy, "the move on the table")
        zones = ctl.scene.zones()
        assert zones["pile"] == list(game.hand.pile), zones  # the table's pile, in order
        assert {c for c in zones["hand0"] + zones["hand1"] if c is not None} <= taken, zones
        if game.hand.knocker is None:
            assert [len(zones[f"hand{s}"]) for s in (0, 1)] == [len(h) for h in game.hand.hands]
        assert app.screens.state == "Table" and ctl.watching_line().startswith("You sit out")
        if game.hand.over:
            break
        moves = public_events(game.apply(brain.choose(game.view(game.turn))))
    names = ctl.player_names
    assert any(line.startswith((f"{names[seats[0]]} ", f"{names[seats[1]]} ")) for line in ctl.log)
    session.handle(net_event("hand_over", game=copy.deepcopy(game), totals=game.totals()))
    pump(app, lambda: app.screens.state == "HandResult", "the result of the hand we sat out")
    zones = ctl.scene.zones()  # laid out, every card open
    assert None not in [c for g in zones["spread0"] + zones["spread1"] for c in g], zones
    app.request("Menu")


def test_watch_your_partners_hand_on_your_table_once_yours_is_over(app):
    """Four players: once your hand is over and your partner's is not, W puts their hand on
    your table (face down, as the table tells it) and yours in the inset; their next moves
    play there, told; W again puts yours back; the next deal is yours."""
    brain = GreedyPlayer()
    for seed in range(40):  # a round where our hand (table 0) ends first, theirs goes on
        game = PartnershipGame(RuleSet().but(partnership_target=500), seed=seed)
        while not game.tables[0].over:
            game.apply(0, brain.choose(game.view(game.turn(0))))
        if len(game.tables[1].events) < 30:
            break
    me, (ours, theirs) = 0, game.seats
    partner = (me + 2) % 4
    seat = ours.index(me)
    session = _table_session(app, me, 4, game.rules)
    ctl = session.controller
    session.handle(net_event("table", hands=[(0, ours), (1, theirs)]))
    mine = [redact(e, seat) for e in game.tables[0].events]
    view = game.view(me)
    session.handle(net_event("game", events=mine, view=view, hand=0, seats=ours))
    told, moves = PublicHand(), public_events(game.tables[1].events)

    def tell(events) -> None:
        session.handle(_watch_event(told, events, 1, theirs, theirs.index(partner)))

    tell(moves)
    pump(app, lambda: not ctl.queue.busy and not ctl.watch.inset.queue.busy, "both tables")
    assert ctl.can_watch() and "W to watch your partner's" in session.hud.scores.getText()
    ours_shown = ctl.scene.zones()
    assert ctl.watch_partner() and ctl.on_partner
    zones = ctl.scene.zones()  # their hand on our table: their cards face down
    hidden = len(game.tables[1].hands[theirs.index(partner)])
    assert len(zones["hand0"]) == hidden and zones["pile"] == list(game.tables[1].pile), zones
    assert ctl.watching_line() == "Watching Player 3 play Player 4 - W: your hand"
    assert "Your table - click or W to go back" in ctl.watch.line()
    lines = len(ctl.log)
    t = 1
    while not game.tables[t].over:  # their next moves, on our table, told
        events = game.apply(t, brain.choose(game.view(game.turn(t))))
        tell(public_events(events))
    pump(app, lambda: not ctl.queue.busy, "their moves on our table")
    assert len(ctl.log) > lines and ctl.scene.zones()["pile"] == list(game.tables[1].pile)
    assert not ctl.can_watch()  # their hand is over: the round's result comes next
    assert ctl.watch_partner() and not ctl.on_partner  # W: ours back
    assert ctl.scene.zones()["spread0"] == ours_shown["spread0"]
    session.handle(net_event("hand_over", game=copy.deepcopy(game), totals=game.totals()))
    pump(app, lambda: app.screens.state == "HandResult", "the round's result")
    app.request("Menu")


def test_a_guest_sees_its_link_to_the_host_lost_and_back(app):
    """A guest's own link to the table's host drops (its ``TableGuest`` says so and dials
    again): the connection line says it is reconnecting, in red, and the table's message
    why the game waits; once back, the line is connected again and the message says so."""
    session = _table_session(app, 1, 3, RuleSet())
    state = session.status.state
    assert state.getText() == "connected"
    session.handle(net_event("note", text="lost the table's host (relay closed): trying again"))
    assert state.getText() == "reconnecting to the host…"
    red = state.textNode.getTextColor()
    assert red[0] == 1 and red[1] < 0.5
    assert "link to the host was lost" in session.hud.message.getText()
    session.handle(net_event("note", text="the host did not answer (refused)"))  # each try
    assert state.getText() == "reconnecting to the host…"
    session.handle(net_event("note", text="back at the table"))
    assert state.getText() == "connected"
    assert state.textNode.getTextColor()[1] > 0.9  # no longer red
    assert "back at the table" in session.hud.message.getText()
    app.request("Menu")


def test_the_deadwood_count_and_the_connection_line_do_not_overlap(app):
    """Holding 11 cards the deadwood count has a second line ("after discarding ..."): it
    ends above the table's connection line, not in it."""
    session = _table_session(app, 1, 3, RuleSet())
    session.hud.set_deadwood(49, "Q♠")
    session.refresh_status()
    deadwood = session.hud.deadwood.getTightBounds(app.aspect2d)
    info = session.status.info.getTightBounds(app.aspect2d)
    assert deadwood is not None and info is not None
    assert deadwood[0][2] > info[1][2]  # the count's lowest point above the line's top
    app.request("Menu")
