"""The partnership game's inset, offscreen: a small second table showing your partner's
hand as it is played (the faces the W view shows, moves and whose turn), clear of your
cards and the HUD, switched to and back by a click or W, showing a finished hand's result
line, and gone with the game."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace

import pytest
from scene_harness import Driver, app_keeping_setup, box2d, card_box, check_scene, resize

from gin3d.app.game_app import GameSetup
from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer
from gin3d.scene.ui.hud import FITTED

app = pytest.fixture(app_keeping_setup, name="app")


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def start_teams(app, seed: int = 5):
    app.setup = GameSetup(level="simple", players=4)
    app.seed = seed
    session = app.start_single_player()
    assert app.screens.state == "Table"
    return session


def shows(scene, hand) -> SimpleNamespace:
    """What ``check_scene`` reads, for ``scene`` showing ``hand``."""
    return SimpleNamespace(scene=scene, session=SimpleNamespace(game=SimpleNamespace(hand=hand)))


def inset_buffers(app) -> list:
    engine = app.graphicsEngine
    engine.openWindows()  # (one asked for or removed joins or leaves the list then)
    outputs = [engine.getWindow(i) for i in range(engine.getNumWindows())]
    return [w for w in outputs if w.getName() == "inset"]


def hold_partner(ctl, seconds: float = 1e6) -> None:
    """Your partner's computers think on (``seconds``), so their hand is still going after
    yours."""
    ctl.partner.pace = lambda t: seconds
    ctl.partner.restart_pause()


def finish_your_hand(app, ctl) -> None:
    hold_partner(ctl)
    Driver(app).play_hand()
    for _ in range(3):
        app.taskMgr.step()
    assert ctl.game.hand.over and not ctl.game.partner.hand.over


def test_the_inset_is_in_a_team_game_only(app):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=3)
    assert inset_buffers(app) == [] and not hasattr(app.session.controller, "inset")
    app.setup = GameSetup(level="simple", players=3, second_level="simple")
    app.start_single_player()
    assert inset_buffers(app) == [] and not hasattr(app.session.controller, "inset")
    session = start_teams(app)
    inset = session.controller.inset
    (buffer,) = inset_buffers(app)
    assert buffer.isActive() and inset.shown and not inset.picture.isHidden()
    app.request("Pause")  # hidden under a menu (and not drawn), back with the table
    assert not buffer.isActive() and inset.picture.isHidden()
    app.request("Table")
    assert buffer.isActive() and not inset.picture.isHidden()


def test_the_inset_is_drawn_only_while_it_changes(app):
    """Still, the picture is not drawn again; a move of your partner's draws it for the
    frames it plays (and a few after), and the picture then shows the move's end."""
    session = start_teams(app)
    ctl = session.controller
    inset = ctl.inset
    hold_partner(ctl)
    for _ in range(5):
        app.taskMgr.step()
    assert not inset.buffer.isActive()
    before = screen_pixels(app, inset)
    hold_partner(ctl, 0.0)
    moves = len(ctl.game.partner.hand.actions)
    app.taskMgr.step()  # your partner's table moves: drawn now
    assert len(ctl.game.partner.hand.actions) > moves and inset.buffer.isActive()
    hold_partner(ctl)
    for _ in range(5):
        app.taskMgr.step()
    assert not inset.buffer.isActive()
    assert screen_pixels(app, inset) != before


def screen_pixels(app, inset) -> bytes:
    """The window's pixels under the inset's picture, as last drawn."""
    app.graphicsEngine.renderFrame()
    shot = app.win.getScreenshot()
    x0, y0, x1, y1 = inset.screen_box()
    w, h = shot.getXSize(), shot.getYSize()
    ram = shot.getRamImageAs("RGB")
    data = bytes(ram)
    rows = range(int((y0 + 1) / 2 * h) + 4, int((y1 + 1) / 2 * h) - 4)
    cols = slice(3 * (int((x0 + 1) / 2 * w) + 4), 3 * (int((x1 + 1) / 2 * w) - 4))
    return b"".join(data[3 * w * r :][cols] for r in rows)


def test_the_inset_takes_the_card_style_set_in_the_settings(app):
    from gin3d.app.services import apply_settings

    session = start_teams(app)
    before = app.user_settings
    scene = session.controller.inset.scene
    assert scene.cards[0].np.getTexture().getName() == "cards_classic"
    try:
        apply_settings(app, before.but(card_style="four_colour"))
        assert scene.factory.style == "four_colour"
        assert scene.cards[0].np.getTexture().getName() == "cards_four_colour"
    finally:
        apply_settings(app, before)


def test_the_inset_follows_your_partners_hand_move_by_move(app):
    session = start_teams(app)
    ctl = session.controller
    inset, table = ctl.inset, ctl.game.partner
    checked: list = []

    def check(action, events) -> None:
        hand = table.hand
        check_scene(shows(inset.scene, hand))
        turn = ctl.player_names[table.turn]
        if not hand.over:
            assert f": {turn} to play" in inset.label.getText(), inset.label.getText()
            assert inset.scene.turn == hand.turn
        checked.append(len(hand.actions))

    ctl.partner.on_applied.append(check)
    check_scene(shows(inset.scene, table.hand))  # the deal
    mate, rival = (ctl.player_names[p] for p in table.playing)
    assert inset.label.getText().startswith(f"{mate} vs {rival}: ")
    driver = Driver(app)
    for _ in range(6):
        driver.play_turn()
    assert len(checked) >= 6 and checked == sorted(checked), checked
    # the cards whose faces the inset shows are the ones the W view shows on the table
    finish_your_hand(app, ctl)
    z = inset.scene.zones()
    app.messenger.send("w")
    assert ctl.watching
    seen = app.scene.zones()
    for zone in ("stock", "stock_faces", "pile", "hand1", "spread0", "spread1", "parents"):
        assert z[zone] == seen[zone], zone
    assert sorted(z["hand0"]) == sorted(seen["hand0"])  # (in each table's sort order)
    assert None not in z["hand0"] and z["hand1"].count(None) > 0


def boxes_to_keep_clear(app, session) -> list:
    """Every card of yours, the stock's and pile's tops, and the HUD's texts and buttons."""
    scene, hud = app.scene, session.hud
    nodes = scene.hands[0] + [n for g in scene.spreads[0] for n in g]
    nodes += [n for g in scene.spreads[1] for n in g] + scene.stock[-1:] + scene.pile[-1:]
    out = [card_box(app, n) for n in nodes]
    out += [box2d(app, b) for b in hud.buttons.values() if not b.isHidden()]
    out += [box2d(app, b) for b in (hud.menu_button, *hud.sort_buttons.values())]
    out += [box2d(app, t) for t in (hud.top, hud.prompt, hud.scores, hud.target, hud.deadwood)]
    for badge in hud.portraits.badges.values():
        lo, hi = badge.root.getTightBounds(app.render2d)
        out.append((lo.x, lo.z, hi.x, hi.z))
    return out


def widest_spreads(app) -> list:
    """The screen boxes of the widest spread rows the table lays (three melds and one
    deadwood card, both seats), at the team game's spread size."""
    from panda3d.core import Point2, Point3

    from gin3d.scene.tabletop import layout
    from gin3d.scene.tabletop.cards import CARD_H, CARD_W

    out = []
    for seat, anchor in enumerate(app.scene.anchor_melds):
        for (x, y, z), _hpr in layout.spread_poses([3, 3, 3, 1], seat, True):
            film = []
            for cx in (-CARD_W / 2, CARD_W / 2):
                for cy in (-CARD_H / 2, CARD_H / 2):
                    point, projected = Point3(x + cx, y + cy, z), Point2()
                    assert app.camLens.project(app.cam.getRelativePoint(anchor, point), projected)
                    film.append(projected)
            out.append(
                (
                    min(f.x for f in film),
                    min(f.y for f in film),
                    max(f.x for f in film),
                    max(f.y for f in film),
                )
            )
    return out


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (1024, 768)])
def test_the_inset_covers_none_of_your_cards_nor_the_hud(app, size):
    session = start_teams(app)
    ctl = session.controller
    driver = Driver(app)
    try:
        resize(app, *size)
        for _ in range(40):  # to a discard, holding 11 cards: your widest hand
            if ctl.view(0).phase == "discard":
                break
            driver.play_turn()
        session.hud.show_buttons({"knock", "gin", "hint"})
        finish = [None]
        for moment in ("mid-hand", "your hand over"):
            box = ctl.inset.screen_box()
            lo, hi = ctl.inset.picture.getTightBounds(app.render2d)
            drawn = (lo.x, lo.z, hi.x, hi.z)  # the picture, inside its frame
            assert all(abs(a - b) < 0.02 for a, b in zip(drawn[::2], box[::2])), (drawn, box)
            assert box[1] <= drawn[1] and drawn[3] <= box[3], (drawn, box)
            assert -1 <= box[0] and box[2] <= 1 and -1 <= box[1] and box[3] <= 1, box
            for other in boxes_to_keep_clear(app, session) + widest_spreads(app):
                assert apart(box, other), (size, moment, box, other)
            if finish[0] is None:
                finish[0] = True
                finish_your_hand(app, ctl)  # the spreads laid, the HUD's notes a line longer
                assert len(app.scene.spreads[0]) > 0
    finally:
        resize(app, 1280, 720)


def click(app, session, pos) -> None:
    session.input.press(pos)
    session.input.release(pos)


def centre(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def test_a_click_on_the_inset_or_w_switches_tables_and_back(app):
    session = start_teams(app)
    ctl = session.controller
    inset = ctl.inset
    mid = centre(inset.screen_box())
    click(app, session, mid)  # your hand goes on: the inset says when it can be watched
    assert not ctl.watching
    assert "once your hand is over" in session.hud.message.getText()
    finish_your_hand(app, ctl)
    assert "click or W to watch" in inset.label.getText()
    for how in ("click", "w", "click", "w"):
        watching = ctl.watching
        if how == "click":
            click(app, session, mid)
        else:
            app.messenger.send("w")
        assert ctl.watching is not watching
        main, small = (ctl.game.partner.hand, ctl.game.hand)[:: 1 if ctl.watching else -1]
        check_scene(shows(app.scene, main))
        check_scene(shows(inset.scene, small))
        if ctl.watching:  # your finished hand in the inset, with its result line
            assert inset.label.getText().startswith(f"You vs {ctl.player_names[1]}: ")
            assert "go back" in inset.label.getText()
        else:
            assert "to play" in inset.label.getText()
    click(app, session, (0.0, -0.2))  # the table itself: no switch
    assert not ctl.watching


def test_a_finished_hand_shows_its_result_line_in_the_inset(app):
    session = start_teams(app, seed=8)
    ctl = session.controller
    inset, table = ctl.inset, ctl.game.partner
    for _ in range(600):  # you hold your turn: your partner's table plays its hand out
        if table.hand.over:
            break
        app.taskMgr.step()
    hand = table.hand
    assert hand.over and not ctl.game.hand.over
    line = inset.label.getText().split("\n")[0]
    mate, rival = (ctl.player_names[p] for p in table.playing)
    if hand.result is None:
        assert line == f"{mate} vs {rival}: a drawn hand"
    else:
        won = ctl.player_names[table.playing[hand.winner]]
        assert line == f"{mate} vs {rival}: {won} won {hand.result.points}"
    assert inset.shown and inset.scene.turn is None
    check_scene(shows(inset.scene, hand))


def test_the_inset_is_torn_down_with_the_game(app):
    stacks = len(app.taskMgr.getTasksNamed("table-stacks"))
    session = start_teams(app)
    inset = session.controller.inset
    Driver(app).play_turn()
    nodes = [inset.render, inset.camera, inset.overlay, inset.frame, inset.label, inset.picture]
    nodes.append(inset.scene.root)
    gone = [weakref.ref(inset), weakref.ref(inset.scene)]
    assert held_under("inset-render"), "the check finds the inset's nodes while it lives"
    assert len(inset_buffers(app)) == 1
    gc.collect()
    gc.disable()  # only reference counting frees objects, as between full collections
    try:
        del inset
        session = None
        app.request("Menu")
        app.end_game()
        app.taskMgr.step()  # (a removed task lets go of its function at the next step)
        assert all(n.isEmpty() for n in nodes), [n for n in nodes if not n.isEmpty()]
        assert inset_buffers(app) == []
        assert len(app.taskMgr.getTasksNamed("table-stacks")) == stacks
        assert all(type(layer).__name__ != "InsetView" for layer in FITTED)
        assert [ref() for ref in gone] == [None, None], "the inset lives on in a cycle"
        assert held_under("inset-render") == [], "a node of the inset's table is held"
    finally:
        gc.enable()


def held_under(top: str) -> list:
    """Live nodes under a graph named ``top`` that a Python object still points at."""
    from panda3d.core import NodePath

    return [
        value
        for obj in gc.get_objects()
        for value in (
            obj.__dict__.values() if isinstance(getattr(obj, "__dict__", None), dict) else ()
        )
        if isinstance(value, NodePath) and not value.isEmpty() and value.getTop().getName() == top
    ]
