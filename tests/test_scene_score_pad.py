"""The score pad on the felt: what it pencils in from the game's score sheet, and the pad on
the offscreen table (shown in a two-player game, clicked for the full sheet, absent where
the table keeps no sheet)."""

from __future__ import annotations

import pytest
from scene_harness import get_app

from gin3d.app.game_app import GameSetup
from gin3d.engine import RuleSet
from gin3d.engine.sheet import ScoreSheet, SheetLine
from gin3d.players import GreedyPlayer
from gin3d.saves import delete_save
from gin3d.scene.tabletop.score_pad import ROWS, pad_lines


def _sheet(*lines: tuple[int | None, str, int], boxes=(0, 0)) -> ScoreSheet:
    totals = [0, 0]
    out = []
    for n, (winner, kind, points) in enumerate(lines, 1):
        if winner is not None:
            totals[winner] += points
        out.append(SheetLine(n, winner, kind, points, (totals[0], totals[1])))
    return ScoreSheet(tuple(out), boxes, 100)


def test_each_hand_puts_the_winners_new_total_in_their_column():
    sheet = _sheet(
        (1, "knock", 12), (0, "gin", 31), (None, "drawn", 0), (1, "undercut", 27), boxes=(1, 2)
    )
    assert pad_lines(("You", "Walt"), sheet) == [
        ("You", "Walt"),
        ("", "12"),
        ("31 G", ""),
        ("-", "-"),
        ("", "39 U"),
        ("boxes 1", "boxes 2"),
    ]


def test_a_full_pad_keeps_the_newest_hands_and_short_names():
    sheet = _sheet(*[(i % 2, "knock", 5) for i in range(15)])
    lines = pad_lines(("Christopher", "Walt"), sheet)
    assert len(lines) == ROWS + 1  # names, ten hands, boxes
    assert lines[0] == ("Christoph", "Walt")
    assert lines[-2] == ("40", "")  # the 15th hand (seat 0's 8th win): the newest is kept
    assert lines[-1] == ("", "")  # no boxes in this made-up sheet


@pytest.fixture(scope="module")
def app():
    app = get_app()
    delete_save()  # an earlier module's game would be offered (Welcome back) before a table
    app.help.close()
    app.request("Menu")
    yield app
    app.request("Menu")


def test_the_pad_lies_on_the_table_and_a_click_on_it_brings_the_sheet(app):
    app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic"), seed=245, names=("You", "Walt")
    )
    inp = app.session.input
    app.taskMgr.step()
    assert inp.pad.shown and inp.pad.lines == [("You", "Walt"), ("", "")]
    at = inp.picker.screen_point(inp.pad.np)
    assert at is not None and -1 < at[0] < 0 and inp.pad.contains(at)  # left of the stock
    assert not inp.pad.contains((0.9, -0.9))
    assert inp.picker.pick(at) is None  # no card over it
    inp.press(at)
    assert inp.sheet.shown
    inp.press(at)
    assert not inp.sheet.shown
    app.request("Menu")
    assert inp.pad.np.isEmpty()  # the table's pad goes with its game


@pytest.mark.parametrize("players", [3, 4])
def test_group_tables_have_the_sheet_over_the_table_and_no_pad(app, players):
    """A game of three: Tab's sheet has a column per player, by name; a partnership game:
    "We" and "They". Neither lays the two-column pad on the felt (three columns; the
    partner's table takes the felt's left)."""
    setup, app.setup = app.setup, GameSetup(level="simple", players=players)
    seed = app.seed
    app.help.close()  # the help (F1) holds the table's input while it is open
    try:
        start = app.start_three_player if players == 3 else app.start_partnership
        for app.seed in range(1, 20):  # a deal you play (one you sit out ends at once at
            delete_save()  # animation speed 0, its result over the table)
            app.request("Menu")
            start()
            app.taskMgr.step()
            if app.screens.state == "Table":
                break
        assert app.screens.state == "Table", app.screens.state
        inp = app.session.input
        assert inp.enabled
        sheet = inp.ctl.score_sheet()
        assert sheet is not None and sheet.columns == (3 if players == 3 else 2)
        assert not inp.pad.shown and "sheet" in inp.buttons
        assert inp.do("sheet") and inp.sheet.shown
        heading = inp.sheet.lines[1]
        names = inp.ctl.player_names if players == 3 else ("We", "They")
        assert heading == "  ".join(("Hand", *names)), heading
        assert inp.do("sheet") and not inp.sheet.shown
    finally:
        app.setup, app.seed = setup, seed
        app.request("Menu")
        delete_save()  # no group game left to offer the next test
