"""The moments that matter read at 1280x720: measured in a real offscreen render.

A card's corner index is measured as a player sees it: the rank glyph's top and bottom on the
card face (from the atlas layout the card art is drawn with, ``tools/make_cards.py``) are
projected through the camera lens, and the distance between them is counted in pixels.
"""

from __future__ import annotations

import json

import pytest
from panda3d.core import Point2, Point3
from scene_harness import Driver, box2d, card_box, get_app

from gin3d.engine import RuleSet, best_melds
from gin3d.players import GreedyPlayer
from gin3d.scene.media.assets import asset_path
from gin3d.scene.tabletop.cards import CARD_H, CARD_W
from gin3d.scene.tabletop.layout import PILE_POS, PILE_SCALE
from tools.make_cards import STYLES

SEED = 245  # its first hands hold a gin by you, a knock, your layoff and an undercut
SPREAD_INDEX_PX = 14.0
PILE_INDEX_PX = 12.0


def _index_span() -> tuple[float, float, float]:
    """(x, top, bottom) of the rank glyph in the top-left corner, as fractions of the card
    face from its left and top edges (the classic style's layout)."""
    meta = json.loads(asset_path("textures", "cards_atlas.json").read_text())
    w, h = meta["card_px"]
    st = STYLES["classic"]
    x, y = st["rank_c"]
    half = st["rank_h"] / 2
    return x / w, (y - half) / h, (y + half) / h


def index_px(app, node) -> float:
    """On-screen height in pixels of ``node``'s corner index (its rank glyph)."""
    fx, top, bottom = _index_span()
    x = -CARD_W / 2 + fx * CARD_W
    ys = []
    for f in (top, bottom):
        p = app.cam.getRelativePoint(node.body, Point3(x, CARD_H / 2 - f * CARD_H, 0))
        film = Point2()
        assert app.camLens.project(p, film), f"{node}'s index is outside the view"
        ys.append(film.y)
    return abs(ys[0] - ys[1]) / 2 * app.win.getYSize()


def group_box(app, group) -> tuple[float, float, float, float]:
    boxes = [card_box(app, n) for n in group]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def check_spread(app, seat: int) -> None:
    """Every card's index readable, each group (meld or deadwood) apart from its neighbour."""
    groups = app.scene.spreads[seat]
    assert groups, f"seat {seat} has no spread"
    for node in (n for g in groups for n in g):
        px = index_px(app, node)
        assert px >= SPREAD_INDEX_PX, f"{node}: index {px:.1f} px"
    boxes = [group_box(app, g) for g in groups]
    for a, b in zip(boxes, boxes[1:]):
        gap = (b[0] - a[2]) / 2 * app.win.getXSize()
        assert gap > 0, f"seat {seat}: neighbouring groups overlap by {-gap:.1f} px"


def check_stacks_clear(app) -> None:
    """After a knock the stock and the pile lie clear of every spread card (they were half
    hidden under the two rows over the middle band)."""
    scene = app.scene
    stacks = [card_box(app, n) for n in (*scene.stock[-1:], *scene.pile[-1:])]
    cards = [n for s in (0, 1) for g in scene.spreads[s] for n in g]
    for box in stacks:
        covered = [n for n in cards if not apart(box, card_box(app, n))]
        assert not covered, f"the stock or the pile lies under {covered}"


def check_tints(groups, n_melds: int) -> None:
    """Each meld in one tint, neighbouring melds in different ones, deadwood plain."""
    tints = []
    for i, group in enumerate(groups):
        scales = {tuple(round(v, 3) for v in n.np.getColorScale()) for n in group}
        assert len(scales) == 1, f"group {i} is not one colour: {scales}"
        tints.append(scales.pop())
    plain = (1.0, 1.0, 1.0, 1.0)
    assert all(t != plain for t in tints[:n_melds]), f"a meld is untinted: {tints}"
    assert all(t == plain for t in tints[n_melds:]), f"deadwood is tinted: {tints}"
    for a, b in zip(tints[:n_melds], tints[1:n_melds]):
        assert a != b, f"neighbouring melds share a tint: {tints}"


@pytest.fixture(scope="module")
def app():
    return get_app()


def test_pile_top_card_reads(app):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    app.queue.finish_all()
    app.taskMgr.step()
    scene = app.scene
    top, stock_top = scene.pile[-1], scene.stock[-1]
    pile_px, stock_px = index_px(app, top), index_px(app, stock_top)
    assert pile_px >= PILE_INDEX_PX, pile_px
    assert pile_px == pytest.approx(stock_px, rel=0.05), (pile_px, stock_px)  # same size


def test_knock_spreads_and_result_read(app):
    """Through the first hands of the seed: at each layoff the knocker's spread, at each
    result both spreads are readable and apart, and the result panel covers no card."""
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=SEED)
    app.scene.set_sort("melds")  # the hand in groups: melds, then deadwood
    driver = Driver(app)
    ctl = session.controller
    layoffs = results = tinted_hands = 0
    for _ in range(4):
        for _ in range(200):
            if ctl.game.hand.over:
                break
            if ctl.view(0).phase == "discard":
                groups = app.scene.hand_groups
                melds = len(best_melds(ctl.view(0).hand).melds)
                check_tints(groups, melds)
                tinted_hands += melds >= 2
            if ctl.view(0).phase == "layoff":
                check_spread(app, ctl.game.hand.knocker)
                check_stacks_clear(app)
                layoffs += 1
            driver.play_turn()
        if ctl.game.hand.result is not None:
            for seat in (0, 1):
                check_spread(app, seat)
                groups = app.scene.spreads[seat]
                check_tints(groups, len(groups) - app.scene.spread_has_deadwood[seat])
            rows = [group_box(app, [n for g in app.scene.spreads[s] for n in g]) for s in (0, 1)]
            assert apart(*rows), f"the two spreads overlap: {rows}"
            check_stacks_clear(app)
            panel = box2d(app, app.screens.panel.frame)
            cards = [n for s in (0, 1) for g in app.scene.spreads[s] for n in g]
            covered = [n for n in cards if not apart(panel, card_box(app, n))]
            assert not covered, f"the result panel covers {covered}"
            results += 1
        if app.screens.state != "HandResult":
            break
        app.screens.panel.buttons["next"]["command"]()
        app.queue.finish_all()  # the next deal: the stock and the pile back in play, full size
        for anchor in (app.scene.anchor_stock, app.scene.anchor_pile):
            assert anchor.getScale()[0] == pytest.approx(PILE_SCALE)
        assert app.scene.anchor_pile.getPos()[0] == pytest.approx(PILE_POS[0])
    assert layoffs and results >= 3 and tinted_hands, (layoffs, results, tinted_hands)


def test_banner_is_opaque(app):
    """Knock!/Gin!/Undercut! stand on an opaque card: readable over cards flying beneath."""
    speed = app.queue.speed
    app.queue.speed = 1.0
    try:
        pop = app.scene.banner("Undercut!", (1, 0.9, 0.75, 1))
        pop.start()
        app.taskMgr.step()
        found = app.aspect2d.findAllMatches("**/banner")
        assert found.getNumPaths() == 1
        node = found[0].node()
        assert node.hasCard() and node.getCardColor()[3] == 1.0, "the banner is see-through"
        assert node.getTextColor()[3] == 1.0
        assert found[0].getColorScale()[3] == 1.0  # not yet fading
        pop.finish()
    finally:
        app.queue.speed = speed
    assert app.aspect2d.findAllMatches("**/banner").getNumPaths() == 0


@pytest.mark.parametrize("kind", ["gin", "big_gin", "undercut"])
def test_gin_big_gin_and_undercut_burst_into_suit_pips_that_fly_out_and_go(app, kind):
    speed = app.queue.speed
    app.queue.speed = 1.0
    try:
        flourish = app.scene.celebrate(kind, 1.5)
        flourish.start()
        app.taskMgr.step()
        root = app.aspect2d.find(f"**/burst-{kind}")
        assert not root.isEmpty(), "no flourish over the banner"
        pips = root.getChildren()
        assert pips.getNumPaths() >= 20 and all(p.hasTexture() for p in pips)
        # one quad's vertices for every pip: a burst adds no vertex buffers to the renderer
        assert len({p.node().getGeom(0).getVertexData().this for p in pips}) == 1
        start = [p.getPos(app.aspect2d) for p in pips]
        flourish.setT(flourish.getDuration() * 0.5)
        moved = [(p.getPos(app.aspect2d) - s).length() for p, s in zip(pips, start)]
        assert min(moved) > 0.1, "the pips do not fly out"
        flourish.finish()
        assert app.aspect2d.find(f"**/burst-{kind}").isEmpty(), "the flourish stays behind"
    finally:
        app.queue.speed = speed
    assert app.scene.celebrate(kind).getDuration() == 0  # instant animations: none


def test_the_warm_up_cuts_the_celebrations_pips(app):
    """The pips are cut from the card atlas while the game starts, not at the first gin
    (converting the atlas there took a frame and ~33 MB resident mid-game, which the
    player's-eye soak read as memory growth)."""
    from gin3d.scene.ui import celebration
    from gin3d.scene.window import warmup

    celebration._icons.clear()
    made = warmup._warm_nodes(app, app.scene)
    try:
        assert len(celebration._icons) == 1, "the warm-up did not cut the pips"
        assert len(next(iter(celebration._icons.values()))) == 4
    finally:
        for piece in made:
            if hasattr(piece, "destroy"):
                piece.destroy()
            else:
                piece.removeNode()
