"""What the table does for speed on a software renderer must not change what is seen: the
stock and pile drawn as one mesh look exactly like the cards they stand for, a card that
moves is a card of its own again, and a multisampled window is reopened without samples
on a software renderer (and multisampled drawing is switched on on a GPU)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from scene_harness import get_app

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    session = app.session
    app.queue.finish_all()
    for _ in range(12):  # a few turns each: the pile grows
        if session.controller.waiting_for_human():
            session.controller.submit(session.controller.legal()[0])
        app.queue.finish_all()
        app.taskMgr.step()
    app.taskMgr.step()
    return app


def picture(app) -> np.ndarray:
    app.graphicsEngine.renderFrame()
    tex = app.win.getScreenshot()
    return np.frombuffer(tex.getRamImageAs("RGB"), np.uint8).astype(int)


def set_stacks(app, on: bool) -> None:
    for body, _cards in app.scene.stacks:
        body.enabled = on
    app.taskMgr.step()


def mesh_rows(body, cards: int) -> int:
    """The rows a stack mesh of ``cards`` cards holds: 16 a card (two 8-vertex sides); with
    an inset every card but the top one is a ring, twice that."""
    return 16 * cards if not body.inset else 16 * (2 * cards - 1)


def _area(mesh) -> float:
    """The area of the triangles a stack mesh draws facing up (in its anchor's units)."""
    geom = mesh.node().getGeom(0)
    vdata = geom.getVertexData()
    rows = np.frombuffer(vdata.getArray(0).getHandle().getData(), np.float32)
    xyz = rows.reshape(vdata.getNumRows(), -1)[:, 0:3]
    tris = np.frombuffer(geom.getPrimitive(0).getVertices().getHandle().getData(), np.uint32)
    a, b, c = (xyz[tris.reshape(-1, 3)[:, k]] for k in range(3))
    normal = np.cross(b - a, c - a)
    return float(np.abs(normal[normal[:, 2] > 0, 2]).sum() / 2)


def test_the_stock_below_its_top_is_drawn_as_rings(app):
    """A stock card with another on it shows only its edge: the mesh draws a ring for it,
    far less than a whole card (the picture stays the same: the next test), and the pile,
    whose cards lie turned, draws whole cards."""
    from gin3d.scene.tabletop.cards import CARD_H, CARD_W

    scene = app.scene
    (stock, _), (pile, _) = scene.stacks
    assert stock.inset > 0 and pile.inset == 0
    lower = len(scene.stock) - stock.keep_top
    ring = CARD_W * CARD_H - (CARD_W - 2 * stock.inset) * (CARD_H - 2 * stock.inset)
    area = _area(stock.root.getChild(0))
    whole = CARD_W * CARD_H * 0.98  # the cut corners
    assert area < whole + (lower - 1) * ring * 1.05, area
    assert area < 0.45 * lower * whole
    assert _area(pile.root.getChild(0)) > 0.95 * (len(scene.pile) - pile.keep_top) * whole


def test_a_ring_shows_the_side_s_own_texture_at_its_edge():
    from gin3d.scene.tabletop.stack import OUTLINE, ring_faces

    with pytest.raises(ValueError):
        ring_faces(np.zeros((7, 8), np.float32), np.zeros(15, np.uint32), 0.5)
    x = np.array([-3, -2, 2, 3, 3, 2, -2, -3], np.float32)
    y = np.array([-4, -5, -5, -4, 4, 5, 5, 4], np.float32)
    rows = np.zeros((OUTLINE, 8), np.float32)
    rows[:, 0], rows[:, 1], rows[:, 5] = x, y, 1
    rows[:, 6], rows[:, 7] = 0.1 + x / 30, 0.5 + y / 40  # an affine mapping
    fan = np.array([(0, i, i + 1) for i in range(1, 7)], np.uint32).reshape(-1)
    out, tris = ring_faces(rows, fan, 0.5)
    assert np.array_equal(out[:OUTLINE], rows)  # the outline itself is untouched
    inner = out[OUTLINE:]
    assert np.allclose(np.abs(inner[:, 0:2]), np.abs(rows[:, 0:2]) - 0.5)
    assert np.allclose(inner[:, 6], 0.1 + inner[:, 0] / 30, atol=1e-6)
    assert np.allclose(inner[:, 7], 0.5 + inner[:, 1] / 40, atol=1e-6)
    a, b, c = (out[tris.reshape(-1, 3)[:, k], 0:2] for k in range(3))
    cross = (b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0]
    assert (cross > 0).all(), "the ring is wound as the side is (facing the same way)"


def test_resting_stock_and_pile_are_one_mesh_each(app):
    scene = app.scene
    assert len(scene.pile) >= 3
    for (body, _), zone in zip(scene.stacks, (scene.stock, scene.pile)):
        lower, top = zone[: -body.keep_top], zone[-body.keep_top :]
        assert all(n.np.isHidden() for n in lower)
        assert not any(n.np.isHidden() for n in top)
        meshes = body.root.getChildren()
        assert meshes.getNumPaths() == 1
        geom = meshes[0].node().getGeom(0)
        per_card = lower[0].face_np.node().getGeom(0).getVertexData().getNumRows()
        assert per_card == 16
        assert geom.getVertexData().getNumRows() == mesh_rows(body, len(lower))
    # the zones and the parents the tests check are untouched
    assert {n.np.getParent().getName() for n in scene.stock} == {"anchor-stock"}


def test_one_mesh_draws_the_same_picture(app):
    with_meshes = picture(app)
    set_stacks(app, False)
    try:
        assert not any(n.np.isHidden() for n in app.scene.cards)
        plain = picture(app)
    finally:
        set_stacks(app, True)
    differs = np.abs(with_meshes - plain).sum(axis=-1) > 24
    assert differs.sum() <= 10, differs.sum()


def test_a_card_that_moves_is_drawn_on_its_own(app):
    scene = app.scene
    body = scene.stacks[0][0]
    node = scene.stock[5]
    assert node.np.isHidden()
    pos = node.np.getPos()
    node.np.setPos(pos + (0, 0, 3))
    try:
        app.taskMgr.step()
        assert not node.np.isHidden()
        assert all(not n.np.isHidden() for n in scene.stock[5:])
        assert all(n.np.isHidden() for n in scene.stock[:5])
        rows = body.root.getChild(0).node().getGeom(0).getVertexData().getNumRows()
        assert rows == mesh_rows(body, 5)
    finally:
        node.np.setPos(pos)
    app.taskMgr.step()
    assert node.np.isHidden()


def test_the_top_card_is_always_a_card_of_its_own():
    """The top card stays a real node (it glows as a hint, it is clicked): keep_top >= 1."""
    from gin3d.scene.tabletop.stack import StackBody

    with pytest.raises(ValueError, match="keep_top"):
        StackBody(None, lambda i: ((0, 0, 0), (0, 0, 0)), None, keep_top=0)


def test_software_renderer_window_loses_its_samples():
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from panda3d.core import loadPrcFileData
        loadPrcFileData('', 'window-type offscreen\\naudio-library-name null\\n'
                            'win-size 320 200\\nframebuffer-multisample 1\\nmultisamples 4\\n'
                            'notify-level-display error\\nnotify-level-device fatal\\n')
        from gin3d.app import GinApp
        from gin3d.scene.media.quality import is_software
        from gin3d.settings import Settings
        app = GinApp(Settings(animation_speed=0.0), sound=False)
        app.taskMgr.step()
        print(app.framebuffer, app.win.getFbProperties().getMultisamples(), is_software(app),
              app.win.getXSize(), app.win.getYSize())
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=str(ROOT)
    )
    assert out.returncode == 0, out.stderr[-2000:]
    what, samples, software, w, h = out.stdout.split()[-5:]
    assert (w, h) == ("320", "200")
    if software == "True":
        assert (what, samples) == ("reopened", "0")
    else:
        assert what == "multisample" and int(samples) > 0


def test_a_software_renderer_is_noted_so_the_next_window_opens_once(tmp_path):
    """The window noted as software-rendered last time opens without multisampling at once
    (it was opened with it and reopened without, about 0.1 s of every start); a damaged or
    missing note, or a GPU, asks for what the setting says."""
    from gin3d.app.screens.settings import window_prc
    from gin3d.scene.media.quality import software_last_time
    from gin3d.settings import Settings

    note = tmp_path / "renderer.json"
    assert not software_last_time(note)
    for text, software in (
        ('{"software": true, "renderer": "llvmpipe (LLVM 15.0.6, 256 bits)"}', True),
        ('{"software": false, "renderer": "NVIDIA GeForce"}', False),
        ("{not json", False),
        ('["software"]', False),
    ):
        note.write_text(text)
        assert software_last_time(note) is software, text
    user = Settings(antialiasing=4)
    assert "multisamples 4" in window_prc(user, False)
    assert "multisamples 0" in window_prc(user, True)
    assert "framebuffer-multisample 0" in window_prc(user, True)
