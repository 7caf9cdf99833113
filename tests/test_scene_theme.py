"""The designed interface: one shipped typeface on every text, shipped with its licence."""

from __future__ import annotations

from pathlib import Path

import pytest
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
