"""One look on every renderer: the software renderer these tests run on (and many players'
machines without drivers) gets the textured table and the room around it, sampled the way
it can pay for; only an explicit ``light`` asks for the vertex-coloured table."""

from __future__ import annotations

import numpy as np
import pytest
from scene_harness import get_app

from gin3d.scene.media import quality


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


def _room_only(app) -> tuple[np.ndarray, np.ndarray]:
    """The room alone over a magenta clear, and where it draws."""
    scene = app.scene
    others = [np_ for np_ in scene.root.getChildren() if np_ != scene.room and not np_.isHidden()]
    clear = app.win.getClearColor()
    for np_ in others:
        np_.hide()
    app.win.setClearColor((1, 0, 1, 1))
    try:
        frame = _frame_3d(app)
    finally:
        app.win.setClearColor(clear)
        for np_ in others:
            np_.show()
    return frame, np.abs(frame - (255, 0, 255)).sum(axis=2) > 0


# where the camera stands: the table's view, tutorial close-ups, the menu's drift at its widest
ROOM_POSES = (
    ((0.0, -58.0, 44.0), (0.0, -1.5, 0.0)),
    ((0.0, -66.0, 40.0), (0.0, -13.0, 0.0)),
    ((0.0, -34.0, 48.0), (0.0, 14.0, 0.0)),
    ((18.0, -52.0, 40.0), (0.0, -1.5, 0.0)),
    ((-18.0, -46.0, 48.0), (0.0, -1.5, 0.0)),
)


def test_the_room_leaves_out_only_what_the_table_hides_from_the_camera(app):
    """The room draws only what the table does not hide from where the camera stands (fitted
    each frame by the table's task): the picture is pixel for pixel the one with the whole
    room drawn, from every pose, and from the table's view the table covers little of what
    the room draws (it covered 45% of the screen when the room left out only what the table
    hid from every pose at once)."""
    scene = app.scene
    cam = app.camera
    start = cam.getPos(), cam.getQuat()
    assert app.taskMgr.hasTaskNamed("table-room")
    try:
        for pos, look in ROOM_POSES:
            cam.setPos(*pos)
            cam.lookAt(*look)
            scene._fit_room()  # what the task does before each frame
            fitted = _frame_3d(app)
            drawn = scene.room_mesh.drawn
            scene.room_mesh.fit((0.0, 0.0, -1.0))  # from under the felt nothing is hidden
            assert scene.room_mesh.drawn > drawn, pos
            whole = _frame_3d(app)
            assert np.array_equal(fitted, whole), f"from {pos} the picture changed"
            scene.room_mesh.follow(cam)
        cam.setPos(*ROOM_POSES[0][0])
        cam.lookAt(*ROOM_POSES[0][1])
        scene._fit_room()
        room, drawn = _room_only(app)
        covered = drawn & (np.abs(_frame_3d(app) - room).sum(axis=2) > 0)
        assert covered.mean() < 0.25, f"the table covers {covered.mean():.0%} of the room drawn"
    finally:
        cam.setPos(start[0])
        cam.setQuat(start[1])
        scene._fit_room()


def test_loading_the_models_again_leaves_the_table_s_sampling_alone(app):
    """The loader's pool shares textures with any later load of the same egg file (whose 4x
    anisotropy would come back): the table and the cards keep sampling of their own."""
    from panda3d.core import Filename

    from gin3d.scene.media.assets import asset_path

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
