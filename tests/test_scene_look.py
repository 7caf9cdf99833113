"""One look on every renderer: the software renderer these tests run on (and many players'
machines without drivers) gets the textured table and the room around it, sampled the way
it can pay for; only an explicit ``light`` asks for the vertex-coloured table."""

from __future__ import annotations

import numpy as np
import pytest
from scene_harness import get_app

from gin3d.scene import quality


@pytest.fixture(scope="module")
def app():
    app = get_app()
    app.request("Menu")
    app.taskMgr.step()
    return app


def _frame_3d(app) -> np.ndarray:
    """The 3D scene alone (no menus, no HUD), rows top to bottom, RGB 0-255."""
    hidden = [np for np in (app.aspect2d, app.render2d) if not np.isHidden()]
    for np_ in hidden:
        np_.hide()
    try:
        app.graphicsEngine.renderFrame()
        tex = app.win.getScreenshot()
    finally:
        for np_ in hidden:
            np_.show()
    data = np.frombuffer(bytes(tex.getRamImageAs("RGB")), np.uint8)
    return data.reshape(tex.getYSize(), tex.getXSize(), 3)[::-1].astype(int)


def test_auto_is_the_full_table_on_this_renderer(app):
    scene = app.scene
    assert scene.detail == "full"
    felt = scene.table.find("**/felt")
    assert not felt.isEmpty()
    textures = list(felt.findAllTextures())
    assert textures, "the felt is drawn without its texture"
    rim = scene.table.find("**/rim")
    assert not rim.isEmpty() and list(rim.findAllTextures()), "no wooden rim"
    if quality.is_software(app):
        # what made the textured table cost 60 ms a frame here: anisotropic filtering
        wood = list(rim.findAllTextures())
        assert all(t.getAnisotropicDegree() <= 1 for t in textures + wood)
        assert scene.factory.atlas.texture.getAnisotropicDegree() <= 1


def test_detail_choice(app, monkeypatch):
    for software in (True, False):
        monkeypatch.setattr(quality, "is_software", lambda base, s=software: s)
        assert quality.choose_detail(app, "auto") == "full"
        assert quality.choose_detail(app, "light") == "light"
        expected = quality.CHEAP if software else quality.SHARP
        assert quality.choose_filtering(app, "full") == expected
        assert quality.choose_filtering(app, "light") == quality.CHEAP
    with pytest.raises(ValueError, match="detail must be"):
        quality.choose_detail(app, "ultra")


def test_a_room_around_the_table(app):
    """The frame's corners show the room: lit a little, not a flat fill, not the felt."""
    pic = _frame_3d(app)
    h, w, _ = pic.shape
    clear = np.round(np.array(app.win.getClearColor())[:3] * 255)
    centre = pic[int(h * 0.55) : int(h * 0.65), int(w * 0.2) : int(w * 0.3)].reshape(-1, 3)
    felt = np.median(centre, axis=0)
    assert felt[1] > felt[0] + 30, f"the middle of the frame is not green felt: {felt}"
    bw, bh = w // 10, h // 10
    blocks = {
        "top left": pic[:bh, :bw],
        "top right": pic[:bh, -bw:],
        "left": pic[int(h * 0.3) : int(h * 0.3) + bh, :bw],
        "right": pic[int(h * 0.3) : int(h * 0.3) + bh, -bw:],
    }
    around = np.concatenate([b.reshape(-1, 3) for b in blocks.values()])
    assert around.std(axis=0).max() > 3.0, "the same flat fill all around: no room"
    for name, block in blocks.items():
        pixels = block.reshape(-1, 3)
        mean = pixels.mean(axis=0)
        assert np.abs(pixels - clear).max(axis=1).mean() >= 4, f"{name}: the empty clear colour"
        assert mean.sum() > 15, f"{name}: black ({mean})"
        assert np.abs(mean - felt).max() > 40, f"{name}: felt colour ({mean} vs {felt})"
        assert mean[0] >= mean[2], f"{name}: not a warm tone ({mean})"


def test_the_room_leaves_out_only_what_the_table_hides_from_every_camera_pose():
    """The room's mesh drops what the table hides from the box the camera stays in: every
    pose the table and the tutorial use must lie in that box."""
    from gin3d.scene import layout, room
    from gin3d.scene.tutorial_view import CAMERA_POSES

    low, high = layout.CAMERA_RANGE
    for name, (pos, _look) in CAMERA_POSES.items():
        assert all(lo <= v <= hi for v, lo, hi in zip(pos, low, high)), (name, pos)
    floor = np.array([[0.0, 30.0, room.FLOOR_Z], [0.0, 300.0, room.FLOOR_Z]])  # under, beyond
    assert room.hidden_by_table(floor).tolist() == [True, False]


def test_loading_the_models_again_leaves_the_table_s_sampling_alone(app):
    """The loader's pool shares textures with any later load of the same egg file (whose 4x
    anisotropy would come back): the table and the cards keep sampling of their own."""
    from panda3d.core import Filename

    from gin3d.scene.assets import asset_path

    scene = app.scene
    before = [t.getAnisotropicDegree() for t in scene.table.findAllTextures()]
    for name in ("table.egg", "card.egg"):
        extra = app.loader.loadModel(Filename.fromOsSpecific(str(asset_path("models", name))))
        extra.removeNode()
    app.loader.loadTexture(
        Filename.fromOsSpecific(str(asset_path("textures", f"cards_{scene.factory.style}.png")))
    ).setAnisotropicDegree(8)
    assert [t.getAnisotropicDegree() for t in scene.table.findAllTextures()] == before
    assert scene.factory.atlas.texture.getAnisotropicDegree() == scene.filtering.anisotropy
