"""Resizing the window keeps the layout right: hand, HUD, buttons, prompt and the menu panel
stay on screen and apart, at any aspect ratio (wide, square, tall).

The offscreen buffer is resized with ``setSize`` and the app gets the same ``window-event``
a real window sends."""

from __future__ import annotations

import pytest
from scene_harness import box2d, card_box, get_app, resize

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer

SIZES = ((800, 800), (1920, 1080), (720, 1000), (1600, 600), (1280, 720))
EDGE = 1.0 + 1e-3  # render2d spans -1..1 both ways, whatever the window's shape


@pytest.fixture(scope="module")
def app():
    app = get_app()
    yield app
    resize(app, 1280, 720)


def inside(box, edge: float = EDGE) -> bool:
    x0, y0, x1, y1 = box
    return -edge <= x0 <= x1 <= edge and -edge <= y0 <= y1 <= edge


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def visible(np) -> bool:
    return not np.isEmpty() and not np.isHidden()


@pytest.mark.parametrize("size", SIZES)
def test_table_layout_fits_the_window(app, size):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    session = app.session
    app.queue.finish_all()
    session.controller.submit(session.controller.legal()[0])  # take or pass the upcard
    app.queue.finish_all()
    for _ in range(10):  # until it is our turn again, with 10 or 11 cards
        if session.controller.waiting_for_human():
            break
        app.taskMgr.step()
    session.hud.show_buttons({"knock", "gin", "hint"})  # the most buttons at once
    # the longest prompt the table shows, set before the resize: the resize lays it out
    session.hud.set_prompt("Discard: click a card then the pile, or drag it onto the pile")
    session.hud.set_message("Computer knocked with 10 deadwood: 5\u2665 5\u2666")
    resize(app, *size)
    w, h = size
    assert (app.win.getXSize(), app.win.getYSize()) == (w, h)
    assert app.getAspectRatio() == pytest.approx(w / h)
    assert app.a2dRight == pytest.approx(max(1.0, w / h))  # aspect2d follows the new shape

    hand = [card_box(app, node) for node in app.scene.hands[0]]
    assert len(hand) >= 10
    for box in hand:
        assert inside(box), (size, box)
    for node in app.scene.stock[-1:] + app.scene.pile[-1:] + app.scene.hands[1]:
        assert inside(card_box(app, node)), (size, node)

    hud = session.hud
    widgets = [
        hud.top,
        hud.prompt,
        hud.message,
        hud.scores,
        hud.target,
        hud.deadwood,
        hud.sort_label,
        hud.menu_button,
        *hud.sort_buttons.values(),
        *(b for b in hud.buttons.values() if visible(b)),
    ]
    boxes = {}
    for widget in widgets:
        assert visible(widget)
        boxes[widget] = box2d(app, widget)
        assert inside(boxes[widget]), (size, widget, boxes[widget])
    buttons = [b for b in hud.buttons.values() if visible(b)]
    assert len(buttons) == 3
    for button in buttons + [hud.menu_button, *hud.sort_buttons.values()]:
        for box in hand:
            assert apart(boxes[button], box), (size, button["text"], box)
    for a in buttons:  # the action buttons do not cover each other
        for b in buttons:
            assert a is b or apart(boxes[a], boxes[b]), (size, a["text"], b["text"])
    # the prompt and the message are clear of the scores, the Menu button and the Sort row
    for line in (hud.prompt, hud.message):
        for other in (
            hud.scores,
            hud.target,
            hud.deadwood,
            hud.sort_label,
            hud.menu_button,
            *hud.sort_buttons.values(),
        ):
            assert apart(boxes[line], boxes[other]), (size, line.getText(), other)
    # the prompt sits in the top bar, above the cards
    px0, py0, px1, py1 = boxes[hud.prompt]
    tx0, ty0, tx1, ty1 = boxes[hud.top]
    assert tx0 - 1e-3 <= px0 and px1 <= tx1 + 1e-3 and ty0 <= py0
    # with room to spare at both ends: the text never runs into the band's frame
    pad = min(px0 - tx0, tx1 - px1)
    assert pad >= 0.012, (size, pad, boxes[hud.prompt], boxes[hud.top])
    assert all(py0 > box[3] for box in hand)


@pytest.mark.parametrize("size", ((800, 800), (720, 1000), (1280, 720)))
def test_menu_panel_fits_the_window(app, size):
    resize(app, *size)
    app.screens.request("Menu")
    panel = app.screens.panel
    assert inside(box2d(app, panel.frame)), size
    for button in panel.buttons.values():
        assert inside(box2d(app, button)), (size, button["text"])
    resize(app, 1280, 720)  # and back: the panel grows to its full size again
    assert panel.frame.getScale().x == pytest.approx(1.0)


class _Unlaid:
    """What Panda3D's TextNode gives for an empty text: bounds never set, so its width is
    whatever the memory held (NaN most often; a tiny negative number was seen)."""

    def __init__(self, text: str, width: float) -> None:
        self.text, self.width = text, width

    def getText(self) -> str:  # noqa: N802 - Panda3D's name
        return self.text

    def getWidth(self) -> float:  # noqa: N802
        return self.width


class _Text:
    def __init__(self, node) -> None:
        self.textNode = node  # noqa: N815 - OnscreenText's name


@pytest.mark.parametrize("width", [float("nan"), -1.2e-41, 3e-39, float("inf")])
def test_an_empty_texts_width_is_none_whatever_panda_leaves_there(width):
    # a width of -1.2e-41 once sent the prompt's band down the wrapping path with a scale of
    # -5.8e40, and the next text laid out got a NaN transform (a Panda3D assertion)
    from gin3d.scene.ui.hud import _laid_width

    assert _laid_width(_Text(_Unlaid("", width))) == 0.0
    assert _laid_width(_Text(_Unlaid("   ", width))) == 0.0


def test_the_band_keeps_a_true_scale_with_an_empty_message(app):
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    hud = app.session.hud
    hud.set_message("")
    for prompt in ("", "Draw", "Discard: click a card then the pile, or drag it " * 3):
        hud.set_prompt(prompt)
        for text in (hud.prompt, hud.message):
            sx, sz = text.getScale()
            assert 0 < sx < 1 and 0 < sz < 1, (prompt, text.getScale())


def test_the_prompt_keeps_room_in_its_band_beside_a_wide_score_block(app):
    """A team game's score lines (the partner's table on its own line) leave the band less
    room: the longest prompt still keeps clear of the band's frame at both ends (it ran
    from frame to frame at 1280x720)."""
    resize(app, 1280, 720)
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    hud = app.session.hud
    hud.set_scores(
        ("You & Player 3", "Player 2 & Player 4"),
        (0, 0),
        125,
        dealer=0,
        knock_limit=10,
        turn=0,
        notes=("Partner's table: Player 3 vs Player 4: Player 4 won 17",),
    )
    hud.set_deadwood(38, after="10♦")  # eleven cards: the count's second line
    for message in ("", "Player 2 discarded the Q\u2665"):
        hud.set_message(message)
        hud.set_prompt("Discard: click a card then the pile, or drag it onto the pile")
        app.taskMgr.step()  # the band's frame takes its new size in the next frame
        px0, _, px1, _ = box2d(app, hud.prompt)
        tx0, _, tx1, _ = box2d(app, hud.top)
        assert min(px0 - tx0, tx1 - px1) >= 0.012, (message, (px0, px1), (tx0, tx1))
        assert apart(box2d(app, hud.prompt), box2d(app, hud.scores))
