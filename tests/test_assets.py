"""Asset checks: everything loads through Panda3D, the atlas is complete, generators are
deterministic and match the committed files."""

from __future__ import annotations

import builtins
import filecmp
import json
import wave
from pathlib import Path

import numpy as np
import pytest
from panda3d.core import Filename, loadPrcFileData

from gin3d import settings
from gin3d.scene.media import music, sound

ROOT = Path(__file__).resolve().parent.parent
TEXTURES = sorted((ROOT / "textures").glob("*.png"))
MODELS = sorted((ROOT / "models").glob("*.egg"))
SOUNDS = sorted(p for p in (ROOT / "sounds").glob("*.wav") if p.stem not in music.TRACKS)
LOOPS = sorted(ROOT / "sounds" / f"{name}.wav" for name in music.TRACKS)


def _fn(p: Path) -> Filename:
    return Filename.fromOsSpecific(str(p))


@pytest.fixture(scope="module")
def base():
    if hasattr(builtins, "base"):
        return builtins.base
    loadPrcFileData(
        "", "window-type offscreen\naudio-library-name null\nwin-size 64 64\nmodel-cache-dir\n"
    )
    from direct.showbase.ShowBase import ShowBase

    return ShowBase()


@pytest.fixture(scope="module")
def atlas():
    with open(ROOT / "textures" / "cards_atlas.json", encoding="utf-8") as f:
        return json.load(f)


def _tex_array(base, path: Path) -> np.ndarray:
    tex = base.loader.loadTexture(_fn(path))
    data = np.frombuffer(bytes(tex.getRamImageAs("RGBA")), np.uint8)
    return data.reshape(tex.getYSize(), tex.getXSize(), 4)[::-1]  # row 0 = top


def test_expected_files_exist():
    names = {p.name for p in TEXTURES}
    for n in (
        "cards_classic.png",
        "cards_four_colour.png",
        "cards_large_index.png",
        "felt.png",
        "felt_blue.png",
        "felt_burgundy.png",
        "felt_charcoal.png",
        "wood.png",
        "icon.png",
        "scorepad.png",
    ):
        assert n in names
    assert {p.stem for p in MODELS} >= {"card", "table", "scorepad", "tray"}
    assert {p.stem for p in SOUNDS} == set(sound.NAMES)  # exactly the sounds the game plays


@pytest.mark.parametrize("path", TEXTURES, ids=lambda p: p.name)
def test_texture_loads(base, path):
    tex = base.loader.loadTexture(_fn(path))
    assert tex is not None and tex.getXSize() > 0 and tex.getYSize() > 0
    if path.name.startswith("cards_"):
        assert (tex.getXSize(), tex.getYSize()) == (2048, 4096)
        assert tex.getNumComponents() == 4
    if path.name == "icon.png":
        assert (tex.getXSize(), tex.getYSize()) == (256, 256)


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_model_loads(base, path):
    model = base.loader.loadModel(_fn(path))
    assert model is not None and not model.isEmpty()
    assert model.findAllMatches("**/+GeomNode").getNumPaths() > 0
    for tex in model.findAllTextures():
        assert tex.getXSize() > 0, f"{path.name}: texture {tex.getFilename()} did not load"


def test_card_model_layout(base):
    card = base.loader.loadModel(_fn(ROOT / "models" / "card.egg"))
    for name in ("front", "back", "edge"):
        assert not card.find("**/" + name).isEmpty(), name
    lo, hi = card.getTightBounds()
    assert np.allclose([hi.x - lo.x, hi.y - lo.y, hi.z - lo.z], [0.63, 0.88, 0.004], atol=1e-4)
    tris = 0
    for gn in card.findAllMatches("**/+GeomNode"):
        for geom in gn.node().getGeoms():
            tris += sum(geom.getPrimitive(i).getNumFaces() for i in range(geom.getNumPrimitives()))
    assert tris <= 400


def test_table_has_textures(base):
    table = base.loader.loadModel(_fn(ROOT / "models" / "table.egg"))
    names = {Path(t.getFilename().getBasename()).name for t in table.findAllTextures()}
    assert names == {"felt.png", "wood.png"}
    lo, hi = table.getTightBounds()
    assert abs(hi.x - lo.x - 12.0) < 0.05 and abs(hi.y - lo.y - 8.0) < 0.05


@pytest.mark.parametrize("path", SOUNDS, ids=lambda p: p.name)
def test_sound_loads(base, path):
    snd = base.loader.loadSfx(_fn(path))
    assert snd is not None
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (44100, 2, 1)
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float) / 32768
    dur = len(x) / 44100
    assert 0.02 < dur < (3.0 if path.stem == "game_won" else 1.5)
    peak = np.abs(x).max()
    assert 0.85 < peak <= 10 ** (-1 / 20) + 1e-3
    assert abs(x[0]) < 0.01 and abs(x[-1]) < 0.01


def test_atlas_json(atlas):
    ranks, suits = "A23456789TJQK", "SHDC"
    ids = [r + s for s in suits for r in ranks]
    assert atlas["id_order"] == ids
    assert set(atlas["cards"]) == set(ids)
    assert set(atlas["backs"]) == {f"back_{b}" for b in settings.CARD_BACKS}
    w, h = atlas["atlas_size"]
    cw, ch = atlas["card_px"]
    rects = list(atlas["cards"].values()) + list(atlas["backs"].values())
    for u0, v0, u1, v1 in rects:
        assert 0 <= u0 < u1 <= 1 and 0 <= v0 < v1 <= 1
        assert round((u1 - u0) * w) == cw and round((v1 - v0) * h) == ch
    for i, a in enumerate(rects):  # no overlaps
        for b in rects[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert set(atlas["styles"]) == {"classic", "four_colour", "large_index"}


def test_atlas_pixels_and_padding(base, atlas):
    img = _tex_array(base, ROOT / "textures" / "cards_classic.png")
    w, h = atlas["atlas_size"]
    cw, ch = atlas["card_px"]
    rects = list(atlas["cards"].values()) + list(atlas["backs"].values())
    used = np.zeros((h, w), bool)
    for u0, _v0, _u1, v1 in rects:
        x0, y0 = round(u0 * w), round((1 - v1) * h)
        assert img[y0 + ch // 2, x0 + cw // 2, 3] == 255  # opaque middle
        assert img[y0, x0, 3] == 0 and img[y0 + ch - 1, x0 + cw - 1, 3] == 0  # cut corners
        used[max(y0 - 3, 0) : y0 + ch + 3, max(x0 - 3, 0) : x0 + cw + 3] = True
    assert img[~used][:, 3].max() == 0  # padding between slots is transparent


@pytest.mark.parametrize("style", ["classic", "four_colour", "large_index"])
def test_suit_icons_for_text_are_visible_in_their_colour(base, style):
    """The small suit pictures drawn inside HUD and caption text: every one has ink (the
    four-colour deck's blue diamond used to come out fully transparent), black suits are
    light, coloured suits keep their hue."""
    from gin3d.scene.tabletop.cards import Atlas

    icons = Atlas.load(base.loader, style).suit_icons()
    colours = []
    for tex in icons:
        px = np.frombuffer(bytes(tex.getRamImageAs("RGBA")), np.uint8).reshape(-1, 4)
        solid = px[px[:, 3] > 128]
        assert len(solid) > len(px) // 10, (style, tex.getName())
        colours.append(solid[:, :3].mean(axis=0))
    spade, heart, diamond, club = colours
    assert spade.min() > 200  # black, drawn light
    assert heart[0] > heart[1] + 60  # red
    if style == "four_colour":
        assert diamond[2] > diamond[0] + 60 and club[1] > club[0] + 40  # blue, green
    else:
        assert diamond[0] > diamond[1] + 60 and club.min() > 200


def test_cards_match_generator(base, atlas):
    from tools import make_cards as mc
    from tools.raster import to_rgba8

    img = _tex_array(base, ROOT / "textures" / "cards_four_colour.png")
    st = mc.STYLES["four_colour"]
    for idx in (0, 22, 38, 51):
        x0, y0 = mc.slot_origin(idx)
        want = to_rgba8(mc.draw_face(idx, st).rgba, mc.BORDER_GREY).astype(int)
        got = img[y0 : y0 + mc.CARD_H, x0 : x0 + mc.CARD_W].astype(int)
        assert np.abs(got - want).max() <= 2, idx  # exact on the generating machine
    x0, y0 = mc.slot_origin(52)
    want = to_rgba8(mc.draw_back("back_blue").rgba, mc.BORDER_GREY).astype(int)
    got = img[y0 : y0 + mc.CARD_H, x0 : x0 + mc.CARD_W].astype(int)
    assert np.abs(got - want).max() <= 2
    assert mc.atlas_json() == atlas


def _wav(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(int)


def _png(path: Path) -> np.ndarray:
    from panda3d.core import PNMImage

    img = PNMImage(_fn(path))
    out = np.zeros((img.getYSize(), img.getXSize(), 4), int)
    for y in range(0, img.getYSize(), 7):  # sampled rows keep this fast
        for x in range(img.getXSize()):
            out[y, x] = [round(c * 255) for c in img.getXelA(x, y)]
    return out


@pytest.mark.parametrize("path", LOOPS, ids=lambda p: p.name)
def test_music_and_ambience_loop(base, path):
    """The background tracks: small mono files (22.05 kHz), long enough not to tire, loud
    enough to hear and never clipped, and seamless: the last sample runs on into the first
    no more sharply than the music moves anywhere else."""
    snd = base.loader.loadMusic(_fn(path))
    assert snd is not None
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (22050, 2, 1)
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float) / 32768
    dur = len(x) / 22050
    assert (60 <= dur <= 120) if path.stem == "music" else (20 <= dur <= 60)
    assert path.stat().st_size < 4_000_000
    assert 0.3 < np.abs(x).max() < 0.99
    seam = abs(x[-1] - x[0])
    assert seam <= np.percentile(np.abs(np.diff(x)), 99.9)


def test_felts_are_the_same_cloth_dyed():
    """Every felt a player may choose is there, the same size as the model's own."""
    from gin3d.scene.tabletop.tablemodel import felt_texture_path

    for felt in settings.FELTS:
        path = felt_texture_path(felt)
        assert path.exists(), path.name
        assert path.read_bytes()[16:24] == (ROOT / "textures" / "felt.png").read_bytes()[16:24]


@pytest.mark.parametrize("module", ["make_sounds", "make_models", "make_music", "make_trophy"])
def test_generators_deterministic(tmp_path, module):
    """Two runs on the same machine produce identical bytes."""
    import importlib

    mod = importlib.import_module("tools." + module)
    for run in ("a", "b"):
        mod.main(["--out", str(tmp_path / run)])
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names
    for name in names:
        assert filecmp.cmp(tmp_path / "a" / name, tmp_path / "b" / name, shallow=False), name


@pytest.mark.parametrize(
    "module,folder",
    [
        ("make_sounds", "sounds"),
        ("make_music", "sounds"),
        ("make_models", "models"),
        ("make_textures", "textures"),
        ("make_ui", "textures"),
        ("make_trophy", "textures"),
    ],
)
def test_generators_match_committed(tmp_path, module, folder):
    """Regenerated files match the committed ones (bit-identical on the machine that made
    them; other CPUs/numpy builds may differ in the last bit of a few samples/pixels)."""
    import importlib

    mod = importlib.import_module("tools." + module)
    mod.main(["--out", str(tmp_path)])
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made
    for name in made:
        new, old = tmp_path / name, ROOT / folder / name
        if filecmp.cmp(new, old, shallow=False):
            continue
        if name.endswith(".wav"):
            a, b = _wav(new), _wav(old)
            assert a.shape == b.shape and np.abs(a - b).max() <= 2, name
        elif name.endswith(".png"):
            assert np.abs(_png(new) - _png(old)).max() <= 2, name
        else:
            a = new.read_text().split()
            b = old.read_text().split()
            assert len(a) == len(b), name
            for x, y in zip(a, b, strict=True):
                if x != y:
                    assert abs(float(x) - float(y)) <= 2e-5, (name, x, y)
