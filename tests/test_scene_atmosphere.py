"""The table's atmosphere in the scene: Settings' felt and card back on the table at once (the
stock's copy of the cards too), and the music and ambience asked for by screen and volume,
faded by a task (never an interval), silent without their files. One test plays them
through a real OpenAL device (its null output) in a process of its own."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from direct.interval.IntervalManager import ivalMgr
from panda3d.core import GeomVertexReader, Point2, Point3
from scene_harness import get_app

from gin3d.scene.media import music
from gin3d.scene.media.music import Atmosphere, Track
from gin3d.settings import CARD_BACKS, FELTS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def app():
    app = get_app()
    app.request("Menu")
    app.taskMgr.step()
    before = app.user_settings
    yield app
    app.screens.services.apply_settings(before)


def _frame_3d(app) -> np.ndarray:
    """The 3D scene alone (no menus), rows top to bottom, RGB 0-255."""
    shown = [n for n in (app.aspect2d, app.render2d) if not n.isHidden()]
    for n in shown:
        n.hide()
    try:
        app.taskMgr.step()  # the stacks follow the cards before the frame is drawn
        app.graphicsEngine.renderFrame()
        tex = app.win.getScreenshot()
    finally:
        for n in shown:
            n.show()
    data = np.frombuffer(bytes(tex.getRamImageAs("RGB")), np.uint8)
    return data.reshape(tex.getYSize(), tex.getXSize(), 3)[::-1].astype(int)


def _pixel(app, node, point: Point3) -> tuple[int, int]:
    """Where ``point`` (in ``node``'s space) is drawn in the window."""
    p3 = app.cam.getRelativePoint(node, point)
    p2 = Point2()
    assert app.camLens.project(p3, p2), "the point is out of view"
    w, h = app.win.getXSize(), app.win.getYSize()
    return int((p2.x + 1) / 2 * w), int((1 - p2.y) / 2 * h)


def _mean(frame: np.ndarray, at: tuple[int, int], r: int = 5) -> np.ndarray:
    x, y = at
    return frame[y - r : y + r + 1, x - r : x + r + 1].reshape(-1, 3).mean(axis=0)


def _looks(app, felt: str, back: str) -> tuple[np.ndarray, np.ndarray]:
    """The felt's colour beside the stock and the colour of the stock's top card's back."""
    app.screens.services.apply_settings(app.user_settings.but(felt=felt, card_back=back))
    frame = _frame_3d(app)
    scene = app.scene
    top = scene.stock[-1]
    assert top.card is None  # face down: its back is what shows
    felt_at = _pixel(app, scene.root, Point3(25, -22, 0))  # cm
    back_at = _pixel(app, top.np, Point3(1.6, 2.6, 0.02))  # off the back's middle emblem
    return _mean(frame, felt_at), _mean(frame, back_at)


def test_felt_and_back_change_on_the_table_at_once(app):
    seen = {}
    for felt, back in zip(FELTS, (*CARD_BACKS, "blue"), strict=True):
        seen[felt], seen[back + "-back"] = _looks(app, felt, back)
        assert app.scene.felt == felt and app.scene.factory.back_name == f"back_{back}"
    r, g, b = 0, 1, 2
    assert seen["green"][g] > seen["green"][r] + 20 and seen["green"][g] > seen["green"][b]
    assert seen["blue"][b] > seen["blue"][r] + 20 and seen["blue"][b] > seen["blue"][g]
    assert seen["burgundy"][r] > seen["burgundy"][g] + 20
    charcoal = seen["charcoal"]
    assert charcoal.max() - charcoal.min() < 20 and charcoal.max() < seen["green"].max()
    assert seen["blue-back"][b] > seen["blue-back"][r] + 30
    assert seen["red-back"][r] > seen["red-back"][b] + 30
    assert seen["harlequin-back"][g] > seen["harlequin-back"][r] + 15


def test_a_new_back_reaches_every_card_mesh_and_the_stock_copy(app):
    scene = app.scene
    atlas = scene.factory.atlas
    app.screens.services.apply_settings(app.user_settings.but(card_back="red"))
    _frame_3d(app)
    u0, v0, u1, v1 = atlas.backs["back_red"]

    def uvs(node) -> np.ndarray:
        out = []
        for geom in node.getGeoms():
            reader = GeomVertexReader(geom.getVertexData(), "texcoord")
            while not reader.isAtEnd():
                out.append(tuple(reader.getData2()))
        return np.array(out)

    unknown = uvs(scene.factory.fronts[None].node())
    inside = (unknown[:, 0] >= u0 - 1e-6) & (unknown[:, 0] <= u1 + 1e-6)
    inside &= (unknown[:, 1] >= v0 - 1e-6) & (unknown[:, 1] <= v1 + 1e-6)
    assert inside.all()
    ace = uvs(scene.factory.fronts[0].node())  # a face: its front untouched, its back red
    fu0, fv0, fu1, fv1 = atlas.cards["AS"]
    assert ((ace[:8, 0] >= fu0 - 1e-6) & (ace[:8, 0] <= fu1 + 1e-6)).all()
    assert ((ace[8:, 0] >= u0 - 1e-6) & (ace[8:, 0] <= u1 + 1e-6)).all()
    # the stock's resting cards, drawn as one mesh, were drawn anew with the red back
    body = scene.stacks[0][0]
    meshes = body.root.findAllMatches("**/+GeomNode")
    assert meshes.getNumPaths() == 1
    mesh_uv = uvs(meshes[0].node())
    assert ((mesh_uv[:, 0] >= u0 - 1e-6) & (mesh_uv[:, 0] <= u1 + 1e-6)).all()


def test_volumes_and_screens_decide_what_plays(app):
    atm = Atmosphere(app)  # enabled, on the null audio library of these tests
    try:
        atm.set_volumes(0.5, 0.25)
        assert atm.report()["music"] == {"playing": True, "volume": 0.5}
        assert atm.report()["ambience"] == {"playing": False, "volume": 0.25}  # the menu
        atm.follow_screen("Table")
        assert atm.place == "table" and atm.report()["ambience"]["playing"]
        atm.follow_screen(None)  # between screens: no change
        assert atm.place == "table"
        atm.follow_screen("Settings")  # from the table's pause: still at the table
        assert atm.place == "table"
        atm.follow_screen("Menu")
        assert atm.place == "menu" and not atm.report()["ambience"]["playing"]
        atm.set_volumes(0.0, 0.25)  # music off
        assert not atm.report()["music"]["playing"]
        atm.set_enabled(False)
        atm.follow_screen("HandResult")
        assert not any(atm.report()[t]["playing"] for t in music.TRACKS)
    finally:
        atm.destroy()


def test_fades_are_a_task_not_an_interval(app):
    """An interval would keep a still window drawing (``window/frame_rate.py``)."""
    atm = Atmosphere(app)
    try:
        intervals = ivalMgr.getNumIntervals()
        atm.set_volumes(0.8, 0.5)
        atm.set_place("table")
        assert app.taskMgr.hasTaskNamed(music.FADE_TASK)
        assert ivalMgr.getNumIntervals() == intervals
    finally:
        atm.destroy()
    assert not app.taskMgr.hasTaskNamed(music.FADE_TASK)


def test_a_track_fades_in_and_out_and_snaps_to_a_new_volume(app):
    track = Track("music", app.musicManager, volume=0.8, wanted=True)
    steps = 0
    while not track.step(0.1):
        steps += 1
        assert 0 < track.level <= 0.8
    assert track.level == 0.8 and steps == pytest.approx(music.FADE_S / 0.1, abs=1)
    track.volume = 0.25
    track.snap()
    assert track.level == 0.25
    track.wanted = False
    levels = []
    while not track.step(0.1):
        levels.append(track.level)
    assert levels == sorted(levels, reverse=True) and track.level == 0.0


def test_missing_files_play_silently_and_are_told_once(app, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GIN3D_ASSETS", str(tmp_path))
    atm = Atmosphere(app)
    try:
        assert atm.missing == ["music", "ambience"]
        out = capsys.readouterr().out
        assert out.count("not found") == 1 and "sounds/music.wav" in out
        atm.set_volumes(1.0, 1.0)
        atm.set_place("table")
        for _ in range(3):
            app.taskMgr.step()
        assert atm.music.sound is None and atm.ambience.sound is None
        assert not atm.report()["music"]["playing"] and atm.report()["missing"] == atm.missing
    finally:
        atm.destroy()


PLAY_ON_OPENAL = textwrap.dedent(
    """
    import time
    from panda3d.core import AudioSound, loadPrcFileData
    loadPrcFileData("", "window-type none\\naudio-library-name p3openal_audio")
    from direct.showbase.ShowBase import ShowBase
    from gin3d.scene.media.music import Atmosphere
    base = ShowBase()
    if not base.musicManager.isValid():
        print("NO-DEVICE")
        raise SystemExit(0)
    atm = Atmosphere(base)
    t0 = time.perf_counter()
    atm.set_volumes(0.6, 0.4)
    base.taskMgr.step()
    print("OPENED_MS", round((time.perf_counter() - t0) * 1000, 1))
    def run(seconds):
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            base.taskMgr.step()
            time.sleep(0.02)
    run(2.0)
    m = atm.music.sound
    print("MUSIC", m.status() == AudioSound.PLAYING, m.getLoop(), round(m.getVolume(), 2),
          round(m.length()))
    print("AMBIENCE_AT_MENU", atm.ambience.sound is None)
    atm.set_place("table")
    run(2.0)
    a = atm.ambience.sound
    print("AMBIENCE", a.status() == AudioSound.PLAYING, a.getLoop(), round(a.getVolume(), 2))
    atm.set_place("menu")
    run(2.0)
    print("AMBIENCE_LEFT", a.status() == AudioSound.PLAYING, round(a.getVolume(), 2))
    atm.set_volumes(0.25, 0.4)
    print("MUSIC_NOW", round(m.getVolume(), 2))
    """
)


def test_music_and_ambience_really_play_on_openal():
    """Through Panda3D's OpenAL audio with OpenAL Soft's null output (no sound card here):
    the streams open at once, loop, fade to the set volumes, and the ambience leaves the
    table with a fade."""
    env = {"ALSOFT_DRIVERS": "null", "PYTHONPATH": str(ROOT), "HOME": "/nonexistent"}
    proc = subprocess.run(
        [sys.executable, "-c", PLAY_ON_OPENAL],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    if "NO-DEVICE" in proc.stdout:
        pytest.skip("no OpenAL output, not even the null one")
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)
    assert float(lines["OPENED_MS"]) < 100  # streamed: nothing is read at start
    assert lines["MUSIC"] == "True True 0.6 69"
    assert lines["AMBIENCE_AT_MENU"] == "True"
    assert lines["AMBIENCE"] == "True True 0.4"
    assert lines["AMBIENCE_LEFT"] == "False 0.0"
    assert lines["MUSIC_NOW"] == "0.25"


def test_the_light_table_is_tinted_to_the_chosen_felt(app):
    """Weak machines' vertex-coloured table (``--detail light``) has no felt picture to swap:
    its cloth is tinted to the chosen felt's colour instead (and back for green)."""
    from panda3d.core import NodePath

    from gin3d.scene.tabletop.tablemodel import build_table, dye_felt

    root = NodePath("light-table")
    table = build_table(app.loader, root, "light")
    felt = table.find("**/felt")
    assert not felt.findAllTextures().getNumTextures()
    dye_felt(app.loader, table, "burgundy")
    r, g, b, _a = felt.getColorScale()
    assert r > 1.5 and g < 0.5  # green's red is low: burgundy lifts it, and lowers its green
    dye_felt(app.loader, table, "blue")
    r, g, b, _a = felt.getColorScale()
    assert b > g
    dye_felt(app.loader, table, "green")
    assert not felt.hasColorScale()
    root.removeNode()


def test_a_missing_felt_picture_keeps_the_table_as_it_is(app, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GIN3D_ASSETS", str(tmp_path))
    assert app.scene.felt == "green"
    assert not app.scene.set_felt("blue")
    assert app.scene.felt == "green" and "felt_blue.png" in capsys.readouterr().out
