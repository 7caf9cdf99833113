"""What a new player ran into at the table: names, whose turn it is, the hint, the prompt bar,
the deadwood count, the hand after a layoff and the tutorial's one-click discard."""

from __future__ import annotations

import re

import pytest
from scene_harness import Driver, box2d, get_app, resize

from gin3d.engine import (
    Discard,
    DrawStock,
    Knock,
    LaidOff,
    RuleSet,
    deadwood_of_mask,
    mask_of,
    parse_action,
)
from gin3d.players import GreedyPlayer
from gin3d.scene.tabletop import layout

HINT = (
    "Hint: Discard J\u2663: it leaves 27 deadwood, the least you can keep, and your "
    "opponent passed up J\u2666, so it is unlikely to help them."
)


@pytest.fixture(scope="module")
def app():
    """The shared app; its setup (the tests here change its rules) is put back after, so
    a later file in the same process starts from the one it had (the lobby's tests showed
    "Rules: oklahoma" after these)."""
    import copy

    app = get_app()
    before = copy.deepcopy(app.setup)
    yield app
    app.setup = before
    resize(app, 1280, 720)
    app.request("Menu")


def texts(panel) -> list[str]:
    return [w.getText() for w in panel.widgets if hasattr(w, "getText")]


def to_discard(app, seed: int = 245) -> None:
    """Start a game against the computer and play (drawing from the stock) until we hold 11
    cards and must discard."""
    app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic"), seed=seed, names=("You", "Walt")
    )
    ctl = app.session.controller
    for _ in range(20):
        app.taskMgr.step()
        view = ctl.view(0)
        if ctl.waiting_for_human() and view.phase == "discard":
            return
        if ctl.waiting_for_human():
            ctl.submit(DrawStock() if DrawStock() in ctl.legal() else ctl.legal()[0])
    raise AssertionError("never reached a discard")


def test_the_local_player_is_you_in_seat_order_everywhere(app):
    app.user_settings = app.user_settings.but(player_name="Player")  # a new player's default
    session = app.start_single_player()
    names = session.controller.names
    assert names[0] == "You"
    first, second = session.hud.scores.getText().split("\n")
    assert "Player" not in first and first.lstrip("\1turn").startswith("You: 0")
    assert names[1] in second
    Driver(app).play_hand()
    assert app.screens.state in ("HandResult", "GameOver")
    title = app.screens.panel.title.getText()
    assert "Player" not in title
    hand = session.game.hand
    if hand.result is not None:
        assert title == f"{names[hand.winner]} won the hand"
        dead = next(t for t in texts(app.screens.panel) if t.startswith("Deadwood:"))
        r = hand.result
        seat_dead = {hand.knocker: r.knocker_deadwood, 1 - hand.knocker: r.other_deadwood}
        # the same order as the scores: you first, whoever knocked
        assert dead.startswith(f"Deadwood: You {seat_dead[0]} - {names[1]} {seat_dead[1]}")
    score = next(t for t in texts(app.screens.panel) if t.startswith("Score:"))
    assert score.startswith("Score: You ")
    for _ in range(40):  # on to the end of the game
        if app.screens.state == "GameOver":
            break
        app.screens.panel.buttons["next"]["command"]()
        Driver(app).play_hand()
    assert app.screens.state == "GameOver"
    shown = texts(app.screens.panel)
    assert shown[0] == f"{names[session.game.winner]} won the game!"
    assert shown[1:3] == ["You", names[1]]  # the columns: you first
    assert not any("Player" in t for t in shown)
    app.request("Menu")


def test_whose_turn_is_marked_in_the_hud_and_on_the_table(app):
    to_discard(app)
    session, scene = app.session, app.scene
    ctl = session.controller
    lines = session.hud.scores.getText().split("\n")
    assert "to play" in lines[0] and "to play" not in lines[1]
    assert lines[0].startswith("\1turn\1")  # lit
    assert session.hud.turn == 0 and scene.turn == 0
    assert not scene.turn_marks[0].isHidden() and scene.turn_marks[1].isHidden()
    seen = []  # what the table shows each time it is told the computer's turn has come

    def on_change():
        if ctl.view(0).turn == 1:
            seen.append(
                (session.hud.scores.getText().split("\n"), [m.isHidden() for m in scene.turn_marks])
            )

    ctl.on_change.append(on_change)  # after the input's own refresh
    card = next(a.card for a in ctl.legal() if isinstance(a, Discard))
    assert ctl.submit(Discard(card))
    assert seen, "the computer's turn never came"
    lines, hidden = seen[0]
    assert "to play" in lines[1] and "to play" not in lines[0]
    assert hidden == [True, False]
    app.request("Pause")
    assert all(m.isHidden() for m in scene.turn_marks)  # no marker behind a menu
    app.request("Table")
    assert not all(m.isHidden() for m in scene.turn_marks)
    app.request("Menu")
    assert all(m.isHidden() for m in scene.turn_marks)


def test_the_hint_selects_its_card_so_enter_discards_it(app):
    pytest.importorskip("gin3d.ai.hint")
    for confirm in ("enter", "pile"):
        to_discard(app)
        session = app.session
        inp, ctl = session.input, session.controller
        drv = Driver(app)
        drv.key("h")
        action = inp.last_hint.action
        assert isinstance(action, (Discard, Knock)), action
        assert inp.selected == action.card  # selected, not only lit
        before = len(ctl.game.hand.actions)
        if confirm == "enter":
            drv.key("enter")
        else:
            drv.click_node_point(inp.pile_point())
        assert ctl.game.hand.actions[before] == action, confirm


@pytest.mark.parametrize("size", ((1280, 720), (1024, 768)))
def test_a_long_hint_stays_in_the_prompt_bar_clear_of_the_menu_button(app, size):
    to_discard(app)
    hud = app.session.hud
    resize(app, *size)
    hud.set_prompt("Discard: click a card then the pile, or drag it onto the pile")
    hud.set_message(HINT)
    app.taskMgr.step()
    band = box2d(app, hud.top)
    for line in (hud.prompt, hud.message):
        x0, y0, x1, y1 = box2d(app, line)
        assert band[0] - 1e-3 <= x0 and x1 <= band[2] + 1e-3, (size, line.getText())
        assert band[1] - 1e-3 <= y0, (size, line.getText())
    for other in (hud.menu_button, hud.deadwood, hud.scores, hud.target):
        box = box2d(app, other)
        assert band[2] <= box[0] or box[2] <= band[0] or band[3] <= box[1] or box[3] <= band[1], (
            size,
            other,
        )
    assert hud.message.getScale()[0] >= 0.03  # readable, not shrunk to a line of dots
    resize(app, 1280, 720)


def test_deadwood_with_eleven_cards_is_after_the_best_discard(app):
    to_discard(app)
    ctl = app.session.controller
    view = ctl.view(0)
    assert len(view.hand) == 11
    mask = mask_of(view.hand)
    left = {
        a.card: deadwood_of_mask(mask & ~(1 << a.card))
        for a in ctl.legal()
        if isinstance(a, Discard)
    }
    best = min(left.values())
    text = app.session.hud.deadwood.getText()
    first, second = text.split("\n")
    assert first == f"Deadwood {best}"
    named = second.removeprefix("after discarding ")
    assert named != second
    assert any(
        left[c] == best
        and c.pretty
        == named.replace("\5c\5", "\u2663")
        .replace("\5s\5", "\u2660")
        .replace("\5h\5", "\u2665")
        .replace("\5d\5", "\u2666")
        for c in left
    )
    # with 10 cards it is the plain count again
    card = next(c for c, v in left.items() if v == best)
    ctl.submit(Discard(card))
    assert app.session.hud.deadwood.getText() == f"Deadwood {best}"


def test_the_hand_closes_up_after_a_layoff(app):
    # seed 0: the computer knocks in the first hand and you lay a card off (found with the
    # engine alone, GreedyPlayer on both seats)
    app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=0)
    session, scene = app.session, app.scene
    laid = []

    def after(action, events):
        if any(isinstance(e, LaidOff) and e.seat == 0 for e in events):
            app.queue.finish_all()
            sizes = [len(g) for g in scene.hand_groups]
            want = [p for p, _ in layout.hand_poses(sizes)]
            got = [tuple(n.np.getPos()) for n in scene.hands[0]]
            laid.append((want, got))

    session.controller.on_applied.append(after)
    Driver(app).play_hand()
    assert laid, "no layoff by you in this hand"
    for want, got in laid:
        assert len(want) == len(got)
        for w, g in zip(want, got):
            assert g == pytest.approx(w, abs=1e-3)


def test_the_tutorial_discard_step_takes_the_clicks_the_table_takes(app):
    app.request("Menu")
    app.screens.panel.buttons["tutorial"]["command"]()
    screen = app.screens.tutorial
    screen.menu.buttons["mode"]["command"]()  # Play along
    chapter = next(c for c in screen.chapters if c.id == "turn")
    view = screen.start(chapter)
    runner = view.runner
    from gin3d.scene.scripted.tutorial_view import TutorialDriver

    driver = TutorialDriver(app, view)
    for _ in range(40):
        step = runner.step
        if runner.waiting and step.expect.move == "discard KC":
            break
        if runner.waiting:
            driver.perform(parse_action(runner.table.action_text(step.expect.move)))
        else:
            view.panel.buttons["next"]["command"]()
            app.taskMgr.step()
    else:
        raise AssertionError("never reached the step that says: click the K\u2663")
    assert "then the pile" in runner.prompt()
    assert "then the pile" in view.hud.prompt.getText()  # the table's own words
    index = runner.index
    kc = parse_action("discard KC").card
    driver.click_card(kc)  # the first click selects, as at the table: a slip costs nothing
    assert runner.index == index and kc in runner.table.game.hand.hands[0]
    assert "click it again or the pile" in view.hud.prompt.getText()
    driver.click_card(kc)  # the second discards
    assert runner.index > index or not runner.waiting
    assert kc not in runner.table.game.hand.hands[0]
    app.request("Menu")


def test_settings_say_only_what_they_do(app, monkeypatch):
    from gin3d import paths
    from gin3d.app import services as ship_screens

    before = app.user_settings
    app.user_settings = before.but(antialiasing=4, card_style="classic")
    try:
        for software in (True, False):
            monkeypatch.setattr(
                ship_screens, "is_software", lambda base, s=software: s, raising=False
            )
            app.request("Settings", "Menu")
            shown = texts(app.screens.panel)
            for row in ("Music", "Table ambience", "Sound effects", "Felt", "Card back"):
                assert row in shown
            note = app.screens.current.aa_note.getText()
            assert note == ("(not available on this renderer)" if software else ""), software
            app.request("Menu")
        # the card style applies as soon as it is saved, on every card and the stacks
        app.request("Settings", "Menu")
        app.screens.panel.buttons["style"]["command"]()  # classic -> four-colour
        app.screens.panel.buttons["save"]["command"]()
        scene = app.scene
        assert scene.factory.atlas.image_path.endswith("cards_four_colour.png")
        tex = scene.factory.atlas.texture
        assert all(n.np.getTexture() == tex for n in scene.cards)
        assert all(body.root.getTexture() == tex for body, _ in scene.stacks)
    finally:
        app.user_settings = before
        ship_screens.apply_settings(app, before)  # classic again
        paths.settings_path().unlink(missing_ok=True)
    assert app.scene.factory.atlas.image_path.endswith("cards_classic.png")
    app.request("Menu")


def test_setup_explains_every_choice_and_cycles_both_ways(app):
    from direct.gui.DirectGui import DGG

    app.setup.preset, app.setup.options, app.setup.target = "classic", {}, None
    app.request("Setup")
    screens = app.screens
    buttons = screens.panel.buttons
    notes = [line.getText() for line, _ in screens.current.rows.notes]
    # players, opponent (its portrait below), second opponent (3 players), rules, target,
    # four options
    assert len(notes) == 9
    assert notes[0] and all(notes[3:]), notes
    assert notes[3].startswith("Classic:")
    assert any("11 cards" in n for n in notes) and any("last discard" in n for n in notes)
    buttons["preset:prev"]["command"]()  # back one: classic -> oklahoma
    assert app.setup.preset == "oklahoma"
    assert screens.current.rows.notes[3][0].getText().startswith("Oklahoma:")
    assert buttons["preset"]["text"] == "oklahoma"
    buttons["preset:next"]["command"]()
    assert app.setup.preset == "classic"
    app.messenger.send(DGG.B3PRESS + buttons["preset"].guiId, [None])  # right-click: back
    assert app.setup.preset == "oklahoma"
    buttons["preset"]["command"]()  # a click: forward
    assert app.setup.preset == "classic"
    level = app.setup.level
    buttons["level:next"]["command"]()
    buttons["level:prev"]["command"]()
    assert app.setup.level == level
    buttons["target:prev"]["command"]()
    assert app.setup.rules().game_target == 50  # 100 is first of the targets: back wraps
    buttons["target:next"]["command"]()
    assert app.setup.rules().game_target == 100
    app.request("Menu")


@pytest.mark.parametrize("preset", ["classic", "pagat", "oklahoma"])
def test_the_rules_screen_says_what_each_number_means(app, preset):
    rules = RuleSet.preset(preset, last_chance=True)
    app.setup.preset, app.setup.options, app.setup.target = preset, {"last_chance": True}, None
    app.request("Rules", "Menu")
    shown = texts(app.screens.panel)
    explained = rules.explain()
    for line in explained:
        assert line in shown
    # every number of the short summary is there, with words after it saying what it means
    for short in rules.describe():
        subject = re.split(r"[:,]| or ", short)[0]
        match = [line for line in explained if line.startswith(subject)]
        assert match and all(len(m) > len(short) + 15 for m in match), short
    if preset == "classic":
        assert (
            "Box bonus: 25 for every hand you won, added at the end (it does not count "
            "toward the target)"
        ) in shown
    app.setup.options = {}
    app.request("Menu")


@pytest.mark.parametrize(
    "screen, expect",
    [
        ("Menu", "Main menu"),
        ("Setup", "Right-click"),
        ("Table", "draw from the stock"),
        ("Lan", "LAN play"),
        ("Tutorial", "Click a chapter"),
    ],
)
def test_f1_lists_the_keys_on_every_screen_and_esc_closes_it(app, screen, expect):
    help_ = app.help
    if screen == "Table":
        to_discard(app)
    else:
        app.request(screen)
    state = app.screens.state
    assert not help_.is_open
    app.messenger.send("f1")
    assert help_.is_open
    said = help_.text()
    assert expect in said and "F1 or ?" in said, said
    if screen == "Table":
        for key in ("s", "k", "Enter / Space", "1 / 2 / 3", "h"):  # from the table's own KEYS
            assert key in said.split("\n"), key
        inp, ctl = app.session.input, app.session.controller
        before = len(ctl.game.hand.actions)
        app.messenger.send("enter")  # reading the help moves no card
        assert len(ctl.game.hand.actions) == before and not inp.enabled
    app.messenger.send("escape")  # closes the help, and only the help
    assert not help_.is_open and app.screens.state == state
    app.messenger.send("shift-/")  # ? opens it too, and closes it
    assert help_.is_open
    app.messenger.send("shift-/")
    assert not help_.is_open
    if screen == "Table":
        assert app.session.input.enabled
    if screen != "Menu":
        app.messenger.send("escape")  # the screen's own Esc works again
        app.taskMgr.step()
        assert app.screens.state != state
    app.request("Menu")


def test_a_question_mark_typed_in_a_field_stays_there(app):
    app.request("Lan")
    entry = app.screens.panel.entries["code"]
    entry["focus"] = 1
    app.messenger.send("shift-/")
    assert not app.help.is_open
    entry["focus"] = 0
    app.messenger.send("f1")
    assert app.help.is_open
    app.messenger.send("f1")
    app.request("Menu")


def test_the_score_sheet_shows_each_hand_over_the_table(app):
    """Tab (or the HUD's Score sheet button) puts the pad over the table: a line per hand
    with who won it, how and for how much, the totals and the boxes, as the game has them;
    Tab takes it away, and so does a panel over the table (the hand's result)."""
    from gin3d.engine.sheet import score_sheet

    app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic"), seed=245, names=("You", "Walt")
    )
    session = app.session
    inp, game = session.input, session.controller.game
    assert "sheet" in inp.buttons and not session.hud.buttons["sheet"].isHidden()
    assert inp.do("sheet") and inp.sheet.shown
    assert "No hand scored yet" in inp.sheet.lines
    Driver(app).play_hand()
    app.taskMgr.step()
    assert game.hands[0].over and app.screens.state == "HandResult"
    assert not inp.sheet.shown  # the result's panel is over the table
    app.screens.panel.buttons["next"]["command"]()
    app.taskMgr.step()
    assert app.screens.state == "Table" and inp.do("sheet")
    first = score_sheet(game).lines[0]
    lines = " | ".join(inp.sheet.lines)
    assert "Hand  You  Walt" in lines, lines
    if first.winner is None:
        assert "1  drawn  drawn" in lines, lines
    else:
        assert f"1  +{first.points} {first.how}" in lines, lines
    totals = game.score.running()
    assert f"Total  {totals[0]}  {totals[1]}" in lines, lines
    assert inp.do("sheet") and not inp.sheet.shown
    app.request("Menu")
    assert not inp.sheet.shown


def test_end_hurries_the_computers_move_and_no_button_shows_for_it(app):
    """At normal speed, End makes the computer's move at once (its thinking pause and its
    animations go, its choice is its own) and hands the turn back; only a hand you sit out
    gets a button for it."""
    speed = app.speed
    app.set_speed(1.0)
    try:
        app.start_game(
            [None, GreedyPlayer()], RuleSet.preset("classic"), seed=245, names=("You", "Walt")
        )
        ctl, inp = app.session.controller, app.session.input
        for _ in range(5000):  # to a moment the computer is to move (thinking, or animating)
            seat = ctl.driver.seat
            if seat is not None and not seat.local:
                break
            if ctl.waiting_for_human():
                ctl.submit(ctl.legal()[0])
            app.taskMgr.step()
        assert ctl.can_skip()
        assert "skip" not in inp.buttons
        before = len(ctl.game.actions)
        assert inp.do("skip")
        assert len(ctl.game.actions) > before
        assert ctl.waiting_for_human() or ctl.game.hand.over
        assert not ctl.can_skip() or ctl.game.hand.over
    finally:
        app.set_speed(speed)
