"""The tutorial on the offscreen table, at animation speed 0, through the real input path:
the main menu's Tutorial button, the chapter list, clicks/keys/buttons on the table, and
the narration panel's Next and Back."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from panda3d.core import Point2, Point3
from scene_harness import box2d, card_box, check_scene, get_app, resize
from tutorial_moves import right_move, snapshot, wrong_move

from gin3d.engine import Card
from gin3d.engine.groups import round_score
from gin3d.scene.scripted.tutorial_view import TutorialDriver


@pytest.fixture(scope="module")
def app():
    app = get_app()
    yield app
    app.request("Menu")


def open_tutorial(app, play: bool):
    app.request("Menu")
    app.screens.panel.buttons["tutorial"]["command"]()  # the main menu's button
    assert app.screens.state == "Tutorial"
    screen = app.screens.tutorial
    if play:
        screen.menu.buttons["mode"]["command"]()
        assert screen.mode == "play"
    return screen


def table_matches_engine(app, view) -> None:
    """The scene shows exactly the runner's engine state (the scene tests' own check)."""
    game = view.runner.table.game
    if game is not None:
        check_scene(SimpleNamespace(scene=app.scene, session=SimpleNamespace(game=game)))
    shown = sorted(n.card for n in view.show_nodes)
    assert shown == sorted(c for row in view.runner.frame().show for g in row for c in g)


def press_next(app, view) -> None:
    view.panel.buttons["next"]["command"]()
    app.taskMgr.step()


def test_every_chapter_played_along_through_the_table_input(app):
    screen = open_tutorial(app, play=True)
    screen.menu.buttons["chapter1"]["command"]()
    seen = []
    while True:
        view = screen.view
        runner = view.runner
        seen.append(runner.chapter.number)
        driver = TutorialDriver(app, view)
        wrong_done = False
        for _ in range(400):
            if runner.finished:
                break
            assert all(r.ok for r in runner.check()), (runner.chapter.id, runner.index)
            table_matches_engine(app, view)
            if not runner.waiting:
                before = runner.index
                press_next(app, view)
                assert runner.finished or runner.index > before or runner.step.practice
                continue
            if not wrong_done:
                before = snapshot(runner)
                driver.perform(wrong_move(runner))
                assert view.why and "{" not in view.why, (runner.chapter.id, runner.index)
                assert view.panel.why.getText()
                assert snapshot(runner) == before  # a wrong move changes nothing
                table_matches_engine(app, view)
                wrong_done = True
            before = snapshot(runner)
            move = right_move(runner)
            driver.perform(move)
            assert snapshot(runner) != before, f"{move} through the input did nothing"
        assert runner.finished and wrong_done, runner.chapter.id
        press_next(app, view)  # "Next chapter"
        app.taskMgr.step()
        if screen.view is None:  # after the last chapter: back to the chapter list
            break
        assert screen.view is not view
    assert seen == list(range(1, 18))
    assert screen.menu is not None and screen.view is None


def test_the_whole_tutorial_in_watch_mode_on_the_table(app):
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter1"]["command"]()
    seen, steps = [], 0
    while screen.view is not None:
        view = screen.view
        runner = view.runner
        seen.append(runner.chapter.number)
        while not runner.finished:
            assert not runner.waiting
            failed = [r.claim for r in runner.check() if not r.ok]
            assert not failed, (runner.chapter.id, runner.index, failed)
            table_matches_engine(app, view)
            assert view.panel.body.getText()
            app.messenger.send("space")  # Space: on to the next step (or practice move)
            app.taskMgr.step()
            steps += 1
        app.messenger.send("space")  # "Next chapter"
        app.taskMgr.step()
        app.taskMgr.step()
        assert screen.view is not view
    assert seen == list(range(1, 18)) and steps > 90


def test_watch_mode_next_and_back_on_the_table(app):
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter8"]["command"]()  # laying off: a knock, layoffs, a result
    view = screen.view
    runner = view.runner
    states = []
    while not runner.finished:
        assert not runner.waiting
        states.append((snapshot(runner), app.scene.zones()["table_melds"]))
        table_matches_engine(app, view)
        app.messenger.send("space")  # Space advances in Watch mode
        app.taskMgr.step()
    assert runner.table.hand.over and len(states) == len(runner.steps)
    for index in range(len(states) - 1, 0, -1):
        runner.goto(index)  # the last step, then Back one at a time
        view.goto(index)
        view.panel.buttons["back"]["command"]()
        assert (snapshot(runner), app.scene.zones()["table_melds"]) == states[index - 1]
        table_matches_engine(app, view)


def test_focus_cards_glow_and_the_camera_moves(app):
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter4"]["command"]()
    view = screen.view
    view.goto(2)
    glowing = {n.card for n in view.show_nodes if n.glowing}
    assert glowing == {Card.parse("7H"), Card.parse("7D")}
    assert not view.arrow.isHidden()
    screen.show_menu()
    screen.menu.buttons["chapter2"]["command"]()
    view = screen.view
    view.goto(1)  # the upcard, camera "pile"
    pile_top = app.scene.pile[-1]
    assert pile_top.glowing and pile_top.card == Card.parse("QH")
    assert app.camera.getPos().y > -40  # moved in from the table view (y -58)


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("size", ((1280, 720), (1024, 768), (800, 800)))
def test_narration_panel_leaves_the_hand_and_the_stock_clear(app, size):
    """The practice hand with a wrong move explained (the panel's longest text): the panel
    covers none of the learner's cards, the stock or the pile, at wide and square shapes."""
    screen = open_tutorial(app, play=True)
    screen.menu.buttons["chapter15"]["command"]()
    view = screen.view
    runner = view.runner
    try:
        resize(app, *size)
        for _ in range(40):
            if runner.waiting:
                break
            press_next(app, view)
        assert runner.waiting and app.scene.hands[0], "the practice hand waits for a move"
        TutorialDriver(app, view).perform(wrong_move(runner))
        app.taskMgr.step()
        assert view.panel.why.getText()
        panel = box2d(app, view.panel.frame)
        cards = [*app.scene.hands[0], *app.scene.stock[-1:], *app.scene.pile[-1:]]
        for node in cards:
            assert _apart(panel, card_box(app, node)), (size, node.card, panel)
        for text in (view.panel.body, view.panel.why):
            x0, y0, x1, y1 = box2d(app, text)
            assert panel[0] <= x0 and x1 <= panel[2] and panel[1] <= y0 and y1 <= panel[3]
    finally:
        resize(app, 1280, 720)
        app.request("Menu")


def _under_the_sheet(app, view) -> list:
    """The cards on show that chapter 12's score sheet covers (none when it is empty)."""
    texts = [t for t in view.sheet_texts if t.getText().strip()]
    if not texts:
        return []
    boxes = [box2d(app, t) for t in texts]
    sheet = tuple(f(b[i] for b in boxes) for i, f in enumerate((min, min, max, max)))
    found = []
    for node in {*view.show_nodes, *app.scene.cards}:
        if node.np.isHidden():
            continue
        try:
            box = card_box(app, node)
        except AssertionError:  # out of the picture: nothing to cover
            continue
        if not _apart(sheet, box):
            step = view.runner.index + 1
            found.append((view.runner.chapter.number, step, str(node.card), "under the sheet"))
    return found


def _arrow_box(app, arrow) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) on screen (-1..1) of the tutorial's arrow, None while hidden."""
    if arrow.isHidden():
        return None
    lo, hi = arrow.getTightBounds(app.cam)
    xs, ys = [], []
    for x in (lo.x, hi.x):
        for y in (lo.y, hi.y):
            for z in (lo.z, hi.z):
                film = Point2()
                app.camLens.project(Point3(x, y, z), film)
                xs.append(film.x)
                ys.append(film.y)
    return min(xs), min(ys), max(xs), max(ys)


def test_the_panel_covers_no_card_a_step_talks_about(app):
    """Every step of every chapter (Watch mode): the cards the narration points at (they
    glow) are on screen and clear of the narration panel (chapter 1 step 5 covered its demo
    cards), and the score sheet covers no card on show (chapter 12's quiz hid a knocker's
    deadwood card under it), nor the arrow pointing at them (it was drawn under the panel)."""
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter1"]["command"]()
    covered, checked = [], 0
    while screen.view is not None:
        view = screen.view
        runner = view.runner
        while not runner.finished:
            panel = box2d(app, view.panel.frame)
            covered += _under_the_sheet(app, view)
            arrow = _arrow_box(app, view.arrow)
            if arrow is not None and not _apart(panel, arrow):
                covered.append(
                    (runner.chapter.number, runner.index + 1, "arrow", "under the panel")
                )
            for node in {*view.show_nodes, *app.scene.cards}:
                if node.glowing and not node.np.isHidden():
                    checked += 1
                    try:
                        box = card_box(app, node)
                    except AssertionError:  # talked about, but out of the picture
                        covered.append(
                            (runner.chapter.number, runner.index + 1, str(node.card), "off screen")
                        )
                        continue
                    if not _apart(panel, box):
                        covered.append(
                            (
                                runner.chapter.number,
                                runner.index + 1,
                                str(node.card),
                                "under the panel",
                            )
                        )
            app.messenger.send("space")
            app.taskMgr.step()
        app.messenger.send("space")
        app.taskMgr.step()
        app.taskMgr.step()
    assert checked > 90 and not covered, covered


def test_the_practice_hand_played_along_runs_through_the_game_driver(app):
    """Play along's practice hand is a game on the driver: every move of both seats, the
    learner's through the table input and the opponent's as a seat, is applied by it."""
    screen = open_tutorial(app, play=True)
    screen.menu.buttons["chapter15"]["command"]()
    view = screen.view
    runner = view.runner
    try:
        for _ in range(40):
            if runner.waiting:
                break
            press_next(app, view)
        assert runner.waiting and runner.step.practice
        game, ctl = runner.table.game, view.ctl
        applied = []
        ctl.on_applied.append(lambda action, events: applied.append(action))
        before = len(game.actions)  # moves the script made before the learner's turn
        driver = TutorialDriver(app, view)
        for _ in range(200):
            if not runner.step.practice or runner.finished:
                break
            driver.perform(right_move(runner))
            app.taskMgr.step()
        assert game.hand.over and (runner.finished or not runner.step.practice)
        assert applied == game.actions[before:]
        assert len(applied) > 4
        seats = {e.seat for e in game.hand.events if type(e).__name__ == "Discarded"}
        assert seats == {0, 1}  # both seats played through it
        table_matches_engine(app, view)
    finally:
        app.request("Menu")


def test_the_hud_of_the_group_chapters_shows_those_tables(app):
    """Three players: the dealer's line says they sit out (no seat has the dealer mark).
    Four in teams: the teams' lines, the partner's table, 125 to play for, and after the
    hand the round's score, ``round_score`` of both hands (it showed your hand's 12)."""
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter16"]["command"]()
    view = screen.view
    app.taskMgr.step()
    lines = view.hud.scores.getText()
    assert "Margo: 0  - sits out this hand" in lines and "(dealer)" not in lines
    screen.show_menu()
    screen.menu.buttons["chapter17"]["command"]()
    view = screen.view
    view.goto(len(view.runner.steps) - 1)
    app.taskMgr.step()
    names = view.runner.names()
    team, points = round_score(
        [(0, names["points"]), (0 if names["partner_won"] else 1, names["partner_points"])]
    )
    lines = view.hud.scores.getText().splitlines()
    assert lines[team].startswith(("You & Sam", "Robin & Kit")[team] + f": {points}")
    assert lines[1 - team].startswith(("You & Sam", "Robin & Kit")[1 - team] + ": 0")
    assert lines[2] == f"Partner Sam vs Kit: Kit won {names['partner_points']}"
    assert view.hud.target.getText().startswith(f"Game to {view.runner.rules.partnership_target}")


def test_the_lesson_table_shows_no_empty_prompt_band(app):
    """The lesson's words are in the narration panel: the HUD's prompt band, empty there,
    is not drawn (an empty gold frame stood over the table); a game's table still has it."""
    screen = open_tutorial(app, play=False)
    screen.menu.buttons["chapter7"]["command"]()
    view = screen.view
    view.goto(1)
    app.taskMgr.step()
    assert not view.hud.prompt.getText() and view.hud.top.isHidden()
    app.request("Menu")
    session = app.start_single_player()
    app.taskMgr.step()
    assert session.hud.prompt.getText() and not session.hud.top.isHidden()
    app.request("Menu")
