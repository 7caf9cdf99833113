"""Shared offscreen app for the scene tests, the check that the table matches the engine, and
where things land on screen (window resizes, widget and card boxes)."""

from __future__ import annotations

from collections import Counter

from panda3d.core import Point2, Point3, loadPrcFileData

PRC = (
    "window-type offscreen\naudio-library-name null\nwin-size 1280 720\nsync-video 0\n"
    "notify-level-display error\nnotify-level-device fatal\n"
)
loadPrcFileData("gin3d-tests", PRC)

from direct.gui.DirectGuiBase import DirectGuiWidget  # noqa: E402

from gin3d.scene.control.autoplay import InputDriver as Driver  # noqa: E402,F401

_APP = None


def get_app():
    """The one ShowBase of the test process (instant animations)."""
    global _APP
    if _APP is None:
        import builtins

        from gin3d.app import GinApp
        from gin3d.scene.control.net_hub import NetConfig
        from gin3d.settings import Settings

        other = getattr(builtins, "base", None)
        if other is not None:  # another test module's plain ShowBase: one per process
            other.destroy()
        loadPrcFileData("gin3d-tests-app", PRC)  # the newest page wins over other modules'
        # network screens stay on loopback: no LAN discovery (mDNS), no UPnP, port 0
        net = NetConfig(listen="127.0.0.1", port=0, discovery=False, upnp=False)
        _APP = GinApp(Settings(animation_speed=0.0), seed=0, net=net, sound=False)
        _APP.taskMgr.add(
            _wait_for_frame, "harness-frame-wait", sort=55, extraArgs=[_APP], appendTask=True
        )
    return _APP


def app_keeping_setup():
    """The app for a test that changes ``app.setup`` (a fixture's body): put back after,
    and the menu shown."""
    import copy

    app = get_app()
    before = copy.deepcopy(app.setup)  # a test may change the setup in place
    yield app
    app.setup = before
    app.request("Menu")


def panel_texts(app) -> str:
    """Every text of the open panel, a line each."""
    return "\n".join(w.getText() for w in app.screens.panel.widgets if hasattr(w, "getText"))


def _wait_for_frame(app, task):
    """After each frame is drawn (igLoop, sort 50), read it back so the renderer has really
    finished it, as the benches do: stepping frames without waiting let a software renderer
    queue up work (+0.84 MiB a frame) and stall for seconds when it drained."""
    app.win.getScreenshot()
    return task.cont


def check_scene(app) -> None:
    """Assert the table shows exactly the engine's state (counts and faces in each zone);
    under the game-over sheet, a cleared table: every card gathered into the face-down deck."""
    scene = app.scene
    hand = app.session.game.hand
    screens = getattr(app, "screens", None)  # (a test's stand-in may hold just a scene)
    if screens is not None and screens.state == "GameOver" and not app.queue.busy:
        z = scene.zones()
        assert z["stock"] == len(scene.cards), "the last hand's cards stay out under the sheet"
        assert all(face is None for face in z["stock_faces"]) and z["pile"] == []
        assert not any(n.glowing for n in scene.cards)
        return
    z = scene.zones()
    assert z["stock"] == len(hand.stock)
    assert all(face is None for face in z["stock_faces"]), "a stock card shows its face"
    assert z["pile"] == list(hand.pile), (z["pile"], hand.pile)
    laid = Counter(c for c, _ in hand.layoffs)
    for seat in (0, 1):
        shown = z[f"hand{seat}"] + [c for g in z[f"spread{seat}"] for c in g]
        if seat == hand.knocker:
            shown = [c for c in shown if not laid[c]]
        known = [c for c in shown if c is not None]
        assert len(shown) == len(hand.hands[seat]), (seat, shown, hand.hands[seat])
        assert Counter(known) <= Counter(hand.hands[seat]), (seat, known, hand.hands[seat])
    assert None not in z["hand0"], "the local hand shows a hidden card"
    assert sorted(z["hand0"]) == sorted(
        c
        for c in hand.hands[0]
        if c not in {x for g in z["spread0"] for x in g} and not (hand.knocker == 0 and laid[c])
    )
    assert [sorted(m) for m in z["table_melds"]] == [sorted(m) for m in hand.table_melds]
    # hidden cards of the opponent stay hidden until shown: faces only for pile-taken cards
    if hand.knocker is None:
        faces = [c for c in z["hand1"] if c is not None]
        assert Counter(faces) <= Counter(hand.seen_taken[1]), (faces, hand.seen_taken[1])
    for node in scene.cards:
        parent = node.np.getParent().getName()
        assert (
            parent
            == {
                "stock": "anchor-stock",
                "pile": "anchor-pile",
                "hand0": "anchor-hand",
                "hand1": "anchor-opponent",
                "spread0": "anchor-melds-0",
                "spread1": "anchor-melds-1",
            }[node.zone]
        )


def resize(app, w: int, h: int) -> None:
    app.win.setSize(w, h)
    app.messenger.send("window-event", [app.win])
    app.taskMgr.step()


def box2d(app, np) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a 2D widget on screen, in render2d units (-1..1): a DirectGui
    widget by its frame, a text by its glyphs."""
    if isinstance(np, DirectGuiWidget):
        left, right, bottom, top = np.getBounds()
        corners = [
            app.render2d.getRelativePoint(np, Point3(x, 0, z))
            for x in (left, right)
            for z in (bottom, top)
        ]
        return (
            min(p.x for p in corners),
            min(p.z for p in corners),
            max(p.x for p in corners),
            max(p.z for p in corners),
        )
    lo, hi = np.getTightBounds(app.render2d)
    return lo.x, lo.z, hi.x, hi.z


def card_box(app, node) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) on screen (-1..1) of a card's four corners; fails if one is off."""
    from gin3d.scene.tabletop.cards import CARD_H, CARD_W

    xs, ys = [], []
    for cx in (-CARD_W / 2, CARD_W / 2):
        for cy in (-CARD_H / 2, CARD_H / 2):
            p = app.cam.getRelativePoint(node.body, Point3(cx, cy, 0))
            film = Point2()
            assert app.camLens.project(p, film), f"{node} has a corner outside the view"
            xs.append(film.x)
            ys.append(film.y)
    return min(xs), min(ys), max(xs), max(ys)
