"""A hand played with animations on (sped up): every interval runs through real frames, input
stays locked while anything moves, and the table still matches the engine at each stop."""

from __future__ import annotations

import pytest
from scene_harness import Driver, check_scene, get_app

from gin3d.engine import RuleSet
from gin3d.players import GreedyPlayer


@pytest.fixture(scope="module")
def app():
    return get_app()


def test_animated_hand(app):
    app.set_speed(25.0)
    try:
        session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
        ctl, inp = session.controller, session.input
        driver = Driver(app)
        locked_seen = False
        for _ in range(6000):
            app.taskMgr.step()
            if ctl.game.hand.over and not app.queue.busy:
                break
            if app.queue.busy:
                locked_seen = True
                assert ctl.legal() == [] and inp.click(app.scene.cards[0]) is False
                continue
            if ctl.waiting_for_human():
                check_scene(app)
                driver.play_turn()
        else:
            pytest.fail("the animated hand did not finish")
        assert locked_seen
        assert app.screens.state in ("HandResult", "GameOver")
        check_scene(app)
        assert {"shuffle", "deal", "flip"} <= set(app.sounds.played)
    finally:
        app.set_speed(0.0)
        app.queue.finish_all()
