"""Render contact sheets offscreen with the real models and textures.

    python -m tools.contact_sheet [OUTDIR] [--style classic]

Writes OUTDIR/faces_<style>.png (all 52 faces + backs on the card model, top-down),
OUTDIR/table_<style>.png (lit table with a dealt hand, opponent hand, stock and discard) and
OUTDIR/closeup_<style>.png (low-angle view of the hand, rim and score pad).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CARD_W, CARD_H, CARD_T = 0.63, 0.88, 0.004


def _fn(rel: str):
    from panda3d.core import Filename

    return Filename.fromOsSpecific(os.path.join(ROOT, rel))


class Deck:
    def __init__(self, base, style: str):
        from panda3d.core import SamplerState, TextureStage

        self.base = base
        self.model = base.loader.loadModel(_fn("models/card.egg"))
        with open(os.path.join(ROOT, "textures", "cards_atlas.json"), encoding="utf-8") as f:
            self.atlas = json.load(f)
        self.tex = base.loader.loadTexture(_fn("textures/" + self.atlas["styles"][style]))
        self.tex.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        self.tex.setMagfilter(SamplerState.FT_linear)
        self.tex.setAnisotropicDegree(8)
        self.ts = TextureStage.getDefault()

    def card(self, parent, card: str, back: str = "back_blue"):
        np_ = self.model.copyTo(parent)
        for part, key in (("front", card), ("back", back)):
            node = np_.find("**/" + part)
            u0, v0, u1, v1 = self.atlas["cards"].get(key) or self.atlas["backs"][key]
            node.setTexture(self.ts, self.tex)
            node.setTexOffset(self.ts, u0, v0)
            node.setTexScale(self.ts, u1 - u0, v1 - v0)
        return np_


def faces_sheet(base, deck, out_png):
    from panda3d.core import Filename, NodePath, OrthographicLens

    root = NodePath("faces")
    root.reparentTo(base.render)
    ids = deck.atlas["id_order"] + list(deck.atlas["backs"])
    cols = 13
    for i, cid in enumerate(ids):
        if i < 52:
            r, c = i // 13, i % 13
        else:
            r, c = 4, i - 52
        n = deck.card(root, cid)
        n.setPos((c - (cols - 1) / 2) * 0.68, -(r - 2) * 0.95, 0)
    lens = OrthographicLens()
    lens.setFilmSize(
        cols * 0.68 + 0.1, (cols * 0.68 + 0.1) * base.win.getYSize() / base.win.getXSize()
    )
    base.cam.node().setLens(lens)
    base.cam.setPos(0, 0, 10)
    base.cam.lookAt(0, 0, 0)
    base.setBackgroundColor(0.12, 0.3, 0.18, 1)
    base.graphicsEngine.renderFrame()
    base.graphicsEngine.renderFrame()
    base.win.saveScreenshot(Filename.fromOsSpecific(out_png))
    root.removeNode()


def table_sheet(base, deck, out_png, cam_pos=(0, -8.2, 5.2), look_at=(0, -0.6, 0)):
    from panda3d.core import (
        AmbientLight,
        DirectionalLight,
        Filename,
        NodePath,
        PerspectiveLens,
        PointLight,
        SamplerState,
    )

    root = NodePath("scene")
    root.reparentTo(base.render)
    table = base.loader.loadModel(_fn("models/table.egg"))
    table.reparentTo(root)
    for t in table.findAllTextures():
        t.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        t.setAnisotropicDegree(8)
    pad = base.loader.loadModel(_fn("models/scorepad.egg"))
    pad.reparentTo(root)
    pad.setPos(3.7, -1.2, 0)
    pad.setH(-12)
    tray = base.loader.loadModel(_fn("models/tray.egg"))
    tray.reparentTo(root)
    tray.setPos(-4.2, 1.2, 0)
    tray.setH(8)
    order = deck.atlas["id_order"]
    hand = ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "TD", "JD", "KC"]
    n = len(hand)
    for i, cid in enumerate(hand):
        a = (i - (n - 1) / 2) * 5.0
        pivot = root.attachNewNode("pivot")
        pivot.setPos(0, -3.9, 0.25)
        pivot.setP(38)
        c = deck.card(pivot, cid)
        c.setR(0)
        c.setH(-a)
        x = math.sin(math.radians(a)) * 2.0
        y = math.cos(math.radians(a)) * 2.0 - 2.0
        c.setPos(x, y + 0.45, i * 0.006)
    for i in range(10):
        a = (i - 4.5) * 4.0
        c = deck.card(root, order[i], "back_red")
        c.setR(180)
        c.setH(180 - a)
        c.setPos(
            math.sin(math.radians(a)) * 2.5,
            2.9 - (math.cos(math.radians(a)) - 1) * 2.5,
            0.01 + i * 0.005,
        )
    for i in range(21):
        c = deck.card(root, order[i], "back_blue")
        c.setR(180)
        c.setPos(-0.7 + i * 0.002, 0.5, CARD_T / 2 + i * CARD_T)
    for i, cid in enumerate(["4H", "8C", "QH"]):
        c = deck.card(root, cid)
        c.setPos(0.7 + 0.02 * i, 0.5 - 0.01 * i, CARD_T / 2 + i * CARD_T)
        c.setH((-7, 5, -2)[i])

    amb = root.attachNewNode(AmbientLight("amb"))
    amb.node().setColor((0.38, 0.38, 0.4, 1))
    sun = root.attachNewNode(DirectionalLight("key"))
    sun.node().setColor((0.55, 0.53, 0.48, 1))
    sun.setHpr(25, -55, 0)
    lamp = root.attachNewNode(PointLight("lamp"))
    lamp.node().setColor((0.45, 0.43, 0.38, 1))
    lamp.node().setAttenuation((1, 0, 0.012))
    lamp.setPos(0, -1, 6)
    for light in (amb, sun, lamp):
        root.setLight(light)
    root.setShaderAuto()
    lens = PerspectiveLens()
    lens.setFov(55)
    lens.setAspectRatio(base.win.getXSize() / base.win.getYSize())
    lens.setNearFar(0.1, 100)
    base.cam.node().setLens(lens)
    base.cam.setPos(*cam_pos)
    base.cam.lookAt(*look_at)
    base.setBackgroundColor(0.06, 0.05, 0.05, 1)
    base.graphicsEngine.renderFrame()
    base.graphicsEngine.renderFrame()
    base.win.saveScreenshot(Filename.fromOsSpecific(out_png))
    root.removeNode()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", nargs="?", default="out")
    ap.add_argument(
        "--style",
        action="append",
        dest="styles",
        help="classic, four_colour, large_index (default: all)",
    )
    ap.add_argument("--size", default="1600 1000")
    args = ap.parse_args(argv)
    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "",
        f"window-type offscreen\naudio-library-name null\n"
        f"win-size {args.size}\nframebuffer-multisample 1\nmultisamples 4\n"
        "model-cache-dir\n",
    )
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    os.makedirs(args.outdir, exist_ok=True)
    out = os.path.abspath(args.outdir)
    for style in args.styles or ["classic", "four_colour", "large_index"]:
        deck = Deck(base, style)
        faces_sheet(base, deck, os.path.join(out, f"faces_{style}.png"))
        table_sheet(base, deck, os.path.join(out, f"table_{style}.png"))
        table_sheet(
            base,
            deck,
            os.path.join(out, f"closeup_{style}.png"),
            cam_pos=(3.2, -6.6, 1.5),
            look_at=(1.0, -2.4, 0.1),
        )
        print("wrote", f"faces_{style}.png", f"table_{style}.png", f"closeup_{style}.png")
    base.destroy()
    sys.exit(0)


if __name__ == "__main__":
    main()
