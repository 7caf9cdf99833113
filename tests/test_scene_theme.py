"""The designed interface: one shipped typeface on every text, shipped with its licence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from direct.gui import DirectGuiGlobals as DGG
from panda3d.core import TextPropertiesManager
from scene_harness import Driver, box2d, card_box, get_app, resize

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer, levels, opponent_name
from gin3d.scene.ui import theme


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


ROOT = Path(__file__).resolve().parent.parent
SEED = 245


@pytest.fixture(scope="module")
def app():
    return get_app()


def _texts(app) -> list:
    """Every TextNode in the 2D overlay and on the table, shown or hidden."""
    found = []
    for root in (app.render2d, app.render):
        found += [np.node() for np in root.findAllMatches("**/+TextNode")]
    return found


def _check_fonts(app, where: str) -> int:
    shipped = theme.fonts()
    texts = _texts(app)
    assert texts, where
    strays = [t.getName() for t in texts if t.getFont() not in shipped]
    assert not strays, f"{where}: texts not in the shipped typeface: {strays[:8]}"
    return len(texts)


def test_every_text_uses_the_shipped_font(app):
    assert len(theme.fonts()) == 2 and all(f.isValid() for f in theme.fonts())
    assert all(f.getPixelsPerUnit() >= 60 for f in theme.fonts())  # crisp at 1080p
    app.screens.request("Menu")
    _check_fonts(app, "menu")
    app.screens.request("Setup")
    _check_fonts(app, "setup")
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    app.taskMgr.step()
    _check_fonts(app, "table")
    Driver(app).play_hand()
    assert app.screens.state in ("HandResult", "GameOver")
    _check_fonts(app, "result")
    assert session.hud.scores.textNode.getFont() in theme.fonts()
    app.screens.request("Menu")


def test_the_font_and_its_licence_ship_in_the_wheel_and_the_builds():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    files = {p.name for p in (ROOT / "fonts").iterdir()}
    assert set(theme.FONT_FILES.values()) | {theme.LICENCE_FILE} <= files
    assert "Permission is hereby granted" in (ROOT / "fonts" / theme.LICENCE_FILE).read_text()
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "gin3d._assets.fonts" in tool["packages"]
    assert tool["package-dir"]["gin3d._assets.fonts"] == "fonts"
    patterns = tool["package-data"]["gin3d._assets.fonts"]
    assert "*.ttf" in patterns and "*.txt" in patterns
    import importlib.util

    spec = importlib.util.spec_from_file_location("setup_build", ROOT / "setup_build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    shipped = build.shipped_files()
    for name in (*theme.FONT_FILES.values(), theme.LICENCE_FILE):
        assert f"fonts/{name}" in shipped
    assert "fonts/*.ttf" in build.BUILD_APPS["include_patterns"]


def _pixels(tex) -> np.ndarray:
    return np.frombuffer(bytes(tex.getRamImageAs("RGBA")), np.uint8).astype(int)


def test_buttons_have_four_distinct_framed_looks(app):
    app.screens.request("Menu")
    b = app.screens.panel.buttons["play"]
    assert b["relief"] == DGG.TEXTUREBORDER  # framed, cut nine ways
    looks = [b.guiItem.getFrameStyle(i) for i in range(4)]  # normal, pressed, hover, off
    names = [t.getFilename().getBasenameWoExtension() for t in (s.getTexture() for s in looks)]
    assert names == [
        "ui_button_normal",
        "ui_button_pressed",
        "ui_button_hover",
        "ui_button_disabled",
    ]  # in the order of PGButton's states: ready, depressed, rollover, inactive
    assert b.guiItem.S_depressed == 1 and b.guiItem.S_rollover == 2
    textures = [style.getTexture() for style in looks]
    assert all(t is not None for t in textures)
    images = [_pixels(t) for t in textures]
    for i in range(4):
        for j in range(i + 1, 4):
            assert np.abs(images[i] - images[j]).mean() > 4, (theme.BUTTON_STATES[i], j)
    # the panel is opaque (its middle) in its own frame, not see-through
    panel = app.screens.panel.frame
    assert panel["relief"] == DGG.TEXTUREBORDER
    middle = _pixels(panel.guiItem.getFrameStyle(0).getTexture()).reshape(128, 128, 4)[64, 64]
    assert middle[3] == 255
    # a disabled button's label is greyed
    b["state"] = DGG.DISABLED
    assert b.component("text3").fg != b.component("text0").fg
    b["state"] = DGG.NORMAL


def press(app, key: str) -> None:
    app.messenger.send(key)
    app.taskMgr.step()


def test_tab_moves_the_focus_ring_and_enter_presses(app):
    from gin3d.saves import delete_save

    app.end_game()
    delete_save()  # an earlier test's game in progress would put "Resume game" first
    app.screens.request("Menu")
    panel = app.screens.panel
    order = [b for b in panel.buttons.values() if not b.isHidden()]
    assert panel.focus.focused is None  # nothing until a key asks for it
    press(app, "enter")
    assert app.screens.state == "Menu"
    press(app, "tab")
    assert panel.focus.focused is order[0]
    ring = panel.focus.ring
    assert ring is not None and ring.getParent() == order[0]
    rl, rr, rb, rt = ring["frameSize"]
    bl, br, bb, bt = order[0].guiItem.getFrame()
    assert br - bl > 6 and bt - bb > 1.2  # the button's frame, not just its label
    assert rl < bl and rr > br and rb < bb and rt > bt  # around the button
    press(app, "arrow_down")
    assert panel.focus.focused is order[1]
    press(app, "shift-tab")
    press(app, "arrow_up")  # wraps round to the last
    assert panel.focus.focused is order[-1]
    press(app, "tab")
    assert panel.focus.focused is order[0]
    assert next(k for k, v in panel.buttons.items() if v is order[0]) == "play"
    press(app, "tab")
    press(app, "shift-tab")
    press(app, "enter")  # "Play vs computer": to the setup screen
    assert app.screens.state == "Setup"
    press(app, "escape")
    app.screens.request("Menu")
    # the help lists the keys on the menus, not at the table (where Tab does nothing)
    from gin3d.scene.control.help import sections

    def said(state: str) -> str:
        return " ".join(k + w for _, rows in sections(state, False) for k, w in rows)

    assert "Shift-Tab" in said("Menu") and "Shift-Tab" not in said("Table")


def test_portraits_show_name_score_and_light_the_one_to_move(app):
    names = ("You", opponent_name("hard"))
    session = app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED, names=names
    )
    app.queue.finish_all()
    app.taskMgr.step()
    badges = session.hud.portraits.badges
    assert badges[0].face == "you" and badges[1].face == "hard"
    view = session.controller.view(0)
    for seat in (0, 1):
        assert badges[seat].name.getText() == names[seat]
        assert str(view.scores[seat]) in badges[seat].score.getText()
        assert badges[seat].lit == (view.turn == seat)
        assert badges[seat].glow.isHidden() == (view.turn != seat)
    # the glow follows the turn
    session.hud.set_scores(names, (12, 30), 100, dealer=0, turn=1)
    assert badges[1].lit and not badges[1].glow.isHidden() and badges[0].glow.isHidden()
    assert "30" in badges[1].score.getText() and "dealer" in badges[0].score.getText()
    session.hud.set_scores(names, (12, 30), 100, dealer=0, turn=0)
    assert badges[0].lit and not badges[0].glow.isHidden() and badges[1].glow.isHidden()
    # each computer level has its own picture
    means = [
        _pixels(theme.texture(f"portrait_{lv}.png")).reshape(-1, 4)[:, :3].mean(0)
        for lv, _ in levels()
    ]
    for i in range(len(means)):
        for j in range(i + 1, len(means)):
            assert np.abs(means[i] - means[j]).max() > 8, (i, j)
    app.screens.request("Menu")


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_portraits_and_hud_clear_of_the_cards(app, size):
    """At both sizes: the badges on screen, apart from every card in the hands, the stock's
    and the pile's top cards, and the HUD's buttons; the prompt's suit tiles big enough."""
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    app.queue.finish_all()
    for _ in range(3):
        app.taskMgr.step()
    try:
        resize(app, *size)
        hud = session.hud
        hud.show_buttons({"knock", "gin", "hint"})
        scene = app.scene
        cards = [card_box(app, n) for n in scene.hands[0] + scene.hands[1]]
        cards += [card_box(app, n) for n in scene.stock[-1:] + scene.pile[-1:]]
        others = [box2d(app, b) for b in hud.buttons.values() if not b.isHidden()]
        others += [box2d(app, b) for b in (hud.menu_button, *hud.sort_buttons.values())]
        others += [box2d(app, t) for t in (hud.prompt, hud.scores, hud.target, hud.deadwood)]
        for seat, badge in hud.portraits.badges.items():
            lo, hi = badge.root.getTightBounds(app.render2d)
            box = (lo.x, lo.z, hi.x, hi.z)
            assert -1 <= box[0] and box[2] <= 1 and -1 <= box[1] and box[3] <= 1, (seat, box)
            for other in cards + others:
                assert apart(box, other), (size, seat, box, other)
        # a suit tile in the prompt: at least 18 px tall, so a spade is not a club
        tile = TextPropertiesManager.getGlobalPtr().getGraphic("s").getModel()
        lo, hi = tile.getTightBounds()
        px = (hi.z - lo.z) * hud.prompt.getScale()[0] * size[1] / 2
        assert px >= 18, px
    finally:
        resize(app, 1280, 720)
        app.screens.request("Menu")


@pytest.mark.parametrize("size", [(1280, 720), (960, 720)])
def test_your_badge_as_dealer_stays_on_screen(app, size):
    """Your badge sits at the screen's left edge with its text centred below it: its dealer
    mark ran off the edge ("points - dealer" showed without its score)."""
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    app.queue.finish_all()
    try:
        resize(app, *size)
        session.hud.set_scores(("You", "Walt"), (105, 30), 250, dealer=0, turn=1)
        app.taskMgr.step()
        score = session.hud.portraits.badges[0].score
        assert "dealer" in score.getText()
        lo, hi = score.getTightBounds(app.render2d)
        assert lo.x >= -1 and hi.x <= 1, (size, lo.x, hi.x)
    finally:
        resize(app, 1280, 720)
        app.screens.request("Menu")


def test_suit_tiles_are_in_the_pips_colours(app):
    """Spades and clubs dark, hearts and diamonds red, on the card's white (the tiles are
    not tinted by the text's colour)."""
    mgr = TextPropertiesManager.getGlobalPtr()
    colours = {}
    for key in "shdc":
        model = mgr.getGraphic(key).getModel()
        tex = model.findTexture("*") or model.getTexture()
        px = _pixels(tex).reshape(-1, 4)
        solid = px[px[:, 3] > 200][:, :3]
        ink = solid[solid.min(axis=1) < 200]  # the pip, not the white around it
        assert len(ink) > len(solid) // 20, key
        colours[key] = ink.mean(axis=0)
        assert model.getColor() == (1, 1, 1, 1), key
    assert colours["s"].max() < 90 and colours["c"].max() < 90  # dark
    for key in "hd":
        assert colours[key][0] > colours[key][1] + 80, key  # red


def test_badges_clear_of_a_knocks_spreads(app):
    """While you lay off, both spreads lie across the middle: no badge covers them (the
    computer's steps aside), and it is back at the next deal."""
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    driver, ctl = Driver(app), session.controller
    badges = session.hud.portraits.badges
    checked = 0
    for _ in range(4):
        for _ in range(200):
            if ctl.game.hand.over:
                break
            if ctl.view(0).phase == "layoff":
                cards = [card_box(app, n) for s in (0, 1) for g in app.scene.spreads[s] for n in g]
                for badge in badges.values():
                    if badge.body.isHidden():
                        continue
                    lo, hi = badge.root.getTightBounds(app.render2d)
                    for card in cards:
                        assert apart((lo.x, lo.z, hi.x, hi.z), card), (badge.name.getText(), card)
                checked += 1
            driver.play_turn()
        if checked:
            break
        session.controller.next_hand()
        app.screens.request("Table")
        app.queue.finish_all()
        app.taskMgr.step()
    assert checked, "no layoff in the seed's first hands"
    session.controller.next_hand()
    app.screens.request("Table")
    app.queue.finish_all()
    app.taskMgr.step()
    assert not badges[1].body.isHidden()
    app.screens.request("Menu")


def test_glyphs_keep_apart_at_the_smallest_texts_mipmap_level(app):
    """The glyph pages are sampled through mipmaps: at the level a text is drawn at, the
    margin between neighbouring glyphs is still a texel, so no neighbour bleeds into a small
    label (Panda3D's 2 pixels gave a stray bar after the "A" of "5. A turn")."""
    import math

    resize(app, 1280, 720)
    app.screens.request("Menu")
    app.screens.request("Tutorial")
    app.taskMgr.step()
    checked = 0
    for path in app.render2d.findAllMatches("**/+TextNode"):
        node = path.node()
        if path.isHidden() or not node.getText().strip():
            continue
        # font units to screen pixels: the node's own text scale times its place in render2d
        pixels = path.getScale(app.render2d).z * node.getTransform().getRow3(2).length() * 360
        shrink = node.getFont().getPixelsPerUnit() / pixels
        if pixels < 1:  # a banner scaled to nothing draws nothing
            continue
        level = max(0, math.ceil(math.log2(shrink)))
        margin = node.getFont().getTextureMargin() / 2**level
        assert margin >= 1, (node.getText(), round(shrink, 1), margin)
        checked += 1
    assert checked >= 3
    app.screens.request("Menu")
