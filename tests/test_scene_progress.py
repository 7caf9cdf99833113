"""The player's progress in the real app, offscreen: chapters marked done on the list, the
achievement note (shown, out of the way, taking no input, gone after), the Achievements
screen and the Statistics' charts."""

from __future__ import annotations

import pytest
from scene_harness import get_app
from ship_hands import GIN, play_script
from test_ship_stats import scripted_game

from gin3d import paths, settings
from gin3d import stats as stats_mod
from gin3d.achievements import ACHIEVEMENTS
from gin3d.progress import ProgressBook
from gin3d.recorder import count_results
from gin3d.scene.ui import toast as toast_mod


@pytest.fixture
def app():
    app = get_app()
    for f in (paths.stats_path(), paths.history_path(), paths.progress_path()):
        f.unlink(missing_ok=True)
    app.progress.book = ProgressBook()
    app.progress.toasts.clear()
    app.user_settings = settings.Settings(animation_speed=0.0)
    app.set_speed(0.0)
    app.screens.request("Menu")
    yield app
    app.progress.toasts.clear()
    app.screens.request("Menu")


def _texts(node) -> list[str]:
    return [n.node().getText() for n in node.findAllMatches("**/+TextNode")]


def _inside(inner, outer, base) -> bool:
    lo, hi = inner.getTightBounds(base.aspect2d)
    olo, ohi = outer.getTightBounds(base.aspect2d)
    return olo.x <= lo.x and hi.x <= ohi.x and olo.z <= lo.z and hi.z <= ohi.z


def _apart(a, b, base) -> bool:
    alo, ahi = a.getTightBounds(base.aspect2d)
    blo, bhi = b.getTightBounds(base.aspect2d)
    return ahi.x <= blo.x or bhi.x <= alo.x or ahi.z <= blo.z or bhi.z <= alo.z


def test_the_chapter_list_ticks_the_chapters_done(app):
    app.screens.panel.buttons["tutorial"]["command"]()
    assert "0 of 17 chapters done" in _texts(app.screens.panel.frame)
    app.progress.chapter_done(1)
    app.progress.chapter_done(3)
    app.request("Menu")
    app.request("Tutorial")
    buttons = app.screens.panel.buttons
    assert buttons["chapter1"]["text"].startswith("\u2713 1.")
    assert buttons["chapter3"]["text"].startswith("\u2713 3.")
    assert buttons["chapter2"]["text"].startswith("2.")
    assert "2 of 17 chapters done" in _texts(app.screens.panel.frame)


def test_watching_a_chapter_to_its_end_marks_it_done(app):
    app.screens.panel.buttons["tutorial"]["command"]()
    app.screens.panel.buttons["chapter1"]["command"]()
    view = app.screens.tutorial.view
    while not view.runner.finished:
        assert not app.progress.book.is_done(1)
        app.messenger.send("space")
        app.taskMgr.step()
    assert app.progress.book.is_done(1)
    assert ProgressBook().is_done(1)  # on disk, for the next start
    app.messenger.send("escape")
    app.taskMgr.step()
    assert app.screens.state == "Tutorial"
    assert app.screens.panel.buttons["chapter1"]["text"].startswith("\u2713")


def test_leaving_a_chapter_early_does_not_mark_it(app):
    app.screens.panel.buttons["tutorial"]["command"]()
    app.screens.panel.buttons["chapter2"]["command"]()
    app.messenger.send("space")
    app.taskMgr.step()
    app.messenger.send("escape")
    app.taskMgr.step()
    assert app.screens.state == "Tutorial" and not app.progress.book.is_done(2)


def test_an_achievement_earned_shows_a_note_that_takes_no_input_and_goes(app):
    st = stats_mod.Stats()
    st.record_hand("simple", play_script(GIN, dealer=1), 0, "g")
    st.save()
    toasts = app.progress.toasts
    new = app.progress.announce()
    assert [a.id for a in new] == ["first_gin"]
    assert toasts.showing and toasts.shown[-1] == "Gin!"
    node = toasts.node
    assert {"Achievement earned", "Gin!", "Win a hand by going gin."} <= set(_texts(node))
    assert not node.guiItem.getActive()  # no mouse region: a click goes to the table
    # out of the way: in the band left of a centred panel 1.25 wide, below the tutorial's
    # narration (down to 0.03), above the player's hand (from about -0.35)
    toasts.motion.finish()
    lo, hi = node.getTightBounds(app.aspect2d)
    assert hi.x < -1.25 and hi.z < 0.03 and lo.z > -0.33, (lo, hi)
    # the hold is a timer, not an interval: a still screen is not redrawn for it
    assert toasts.motion is None and app.taskMgr.hasTaskNamed(toast_mod.TASK)
    assert app.progress.announce() == []  # earned once
    toasts._fade()
    toasts.motion.finish()
    assert not toasts.showing and node.isEmpty()
    assert not app.taskMgr.hasTaskNamed(toast_mod.TASK)


def test_notes_that_come_together_follow_one_another(app):
    st = stats_mod.Stats()
    count_results(st, scripted_game(True), "hard", 0, "g", ("You", "M"), paths.history_path())
    st.save()
    new = [a.id for a in app.progress.announce()]
    assert new == ["first_gin", "shutout", "beat_hard"]
    toasts = app.progress.toasts
    assert toasts.shown[-1] == "Gin!" and len(toasts.waiting) == 2
    for title in ("Shutout", "Beat Margo"):
        toasts.motion.finish()
        toasts._fade()
        toasts.motion.finish()
        assert toasts.shown[-1] == title
    toasts.clear()
    assert not toasts.showing and not toasts.waiting


def test_the_achievements_screen_lists_every_one(app):
    app.progress.book.progress.earned["first_gin"] = "2026-12-07"
    app.screens.panel.buttons["achievements"]["command"]()
    assert app.screens.state == "Achievements"
    screen = app.screens.current
    assert len(screen.rows) == len(ACHIEVEMENTS)
    texts = _texts(app.screens.panel.frame)
    assert f"1 of {len(ACHIEVEMENTS)} earned" in texts
    assert "Earned 2026-12-07" in texts and texts.count("Locked") == len(ACHIEVEMENTS) - 1
    assert "Win a hand by undercutting the knocker." in texts  # how to earn a locked one
    app.messenger.send("escape")
    assert app.screens.state == "Menu"


def test_statistics_lead_to_the_charts_and_achievements_and_back(app):
    st = stats_mod.Stats()
    for i, win in enumerate([True, False, True]):
        count_results(
            st, scripted_game(win), "simple", 0, f"g{i}", ("Y", "W"), paths.history_path()
        )
    st.save()
    app.request("Stats", "Menu")
    app.screens.panel.buttons["charts"]["command"]()
    assert app.screens.state == "Charts"
    charts = app.screens.current.charts
    assert len(charts) == 3
    texts = [t for c in charts for t in _texts(c)]
    assert "Walt" in texts and "Classic" in texts and "2 won, 1 lost" in texts
    assert "Win rate over your last 3 games" in texts
    panel = app.screens.panel.frame
    for c in charts:
        assert _inside(c, panel, app)
    assert _apart(charts[0], charts[1], app) and _apart(charts[1], charts[2], app)
    assert _apart(charts[0], charts[2], app)
    app.messenger.send("escape")
    assert app.screens.state == "Stats"
    app.screens.panel.buttons["achievements"]["command"]()
    assert app.screens.state == "Achievements"
    app.screens.panel.buttons["back"]["command"]()
    assert app.screens.state == "Stats"
    app.screens.panel.buttons["back"]["command"]()
    assert app.screens.state == "Menu"


def test_a_new_player_with_old_records_gets_them_quietly(app, tmp_path, monkeypatch):
    st = stats_mod.Stats()
    count_results(st, scripted_game(True), "expert", 0, "g", ("Y", "V"), paths.history_path())
    st.save()
    from gin3d.app.progress_shown import PlayerProgress

    fresh = PlayerProgress(app)
    assert fresh.book.earned_on("beat_expert") and fresh.book.earned_on("shutout")
    assert not fresh.toasts.showing and fresh.announce() == []


def test_a_damaged_progress_file_gives_an_empty_record_and_a_message(app):
    paths.progress_path().write_text('{"format": "gin3d-progress", "version": 1, "earned": 3}')
    from gin3d.app.progress_shown import PlayerProgress

    fresh = PlayerProgress(app)
    assert fresh.book.progress.chapters_done == set() and fresh.book.progress.earned == {}
    assert len(fresh.messages) == 1 and "progress.json.bad" in fresh.messages[0]
    assert "progress starts afresh" in fresh.messages[0]
