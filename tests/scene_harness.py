"""Shared offscreen app for the scene tests, and the check that the table matches the engine."""

from __future__ import annotations

from collections import Counter

from panda3d.core import loadPrcFileData

loadPrcFileData("gin3d-tests", "window-type offscreen\naudio-library-name null\n"
                               "win-size 1280 720\nsync-video 0\nnotify-level-display error\n"
                               "notify-level-device fatal\n")

from gin3d.scene.autoplay import InputDriver as Driver  # noqa: E402,F401

_APP = None


def get_app():
    """The one ShowBase of the test process (instant animations)."""
    global _APP
    if _APP is None:
        import builtins

        from gin3d.app import GinApp, Settings

        other = getattr(builtins, "base", None)
        if other is not None:  # a plain ShowBase left by another test module (assets)
            other.destroy()
        loadPrcFileData("gin3d-tests-size", "win-size 1280 720\n")
        _APP = GinApp(Settings(speed=0.0, sound=False), seed=0)
    return _APP


def check_scene(app) -> None:
    """Assert the table shows exactly the engine's state (counts and faces in each zone)."""
    scene = app.scene
    hand = app.session.game.hand
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
    assert sorted(z["hand0"]) == sorted(c for c in hand.hands[0]
                                        if c not in {x for g in z["spread0"] for x in g}
                                        and not (hand.knocker == 0 and laid[c]))
    assert [sorted(m) for m in z["table_melds"]] == [sorted(m) for m in hand.table_melds]
    # hidden cards of the opponent stay hidden until shown: faces only for pile-taken cards
    if hand.knocker is None:
        faces = [c for c in z["hand1"] if c is not None]
        assert Counter(faces) <= Counter(hand.seen_taken[1]), (faces, hand.seen_taken[1])
    for node in scene.cards:
        parent = node.np.getParent().getName()
        assert parent == {"stock": "anchor-stock", "pile": "anchor-pile",
                          "hand0": "anchor-hand", "hand1": "anchor-opponent",
                          "spread0": "anchor-melds-0", "spread1": "anchor-melds-1"}[node.zone]
