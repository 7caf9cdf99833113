"""The designed interface: one shipped typeface on every text, shipped with its licence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from direct.gui import DirectGuiGlobals as DGG
from scene_harness import Driver, get_app

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer
from gin3d.scene import theme

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
    looks = [b.guiItem.getFrameStyle(i) for i in range(4)]  # normal, hover, pressed, off
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
    bl, br, bb, bt = order[0].getBounds()
    assert rl < bl and rr > br and rb < bb and rt > bt  # around the button
    press(app, "arrow_down")
    assert panel.focus.focused is order[1]
    press(app, "shift-tab")
    press(app, "arrow_up")  # wraps round to the last
    assert panel.focus.focused is order[-1]
    press(app, "tab")
    assert panel.focus.focused is order[0]
    key = next(k for k, v in panel.buttons.items() if v is order[0])
    assert key in ("play", "resume")
    press(app, "tab")
    press(app, "shift-tab")
    press(app, "enter")  # "Play vs computer": to the setup screen
    assert app.screens.state == ("Setup" if key == "play" else "Table")
    press(app, "escape")
    app.screens.request("Menu")
