"""Save screenshots of gin3d's screens: main menu, the deal, mid-hand with melds grouped,
the knock spread, the hand result and game over.

    python tools/screenshots.py [out_dir] [--size 1280x720] [--seed 245]

Renders offscreen (no display needed). The local seat is played by ``InputDriver`` through
the real input path against the simple computer player.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seed", type=int, default=245)
    parser.add_argument(
        "--detail",
        default="full",
        choices=("auto", "full", "light"),
        help="full: textured table model (what a GPU shows); light: the software-renderer path",
    )
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "shots",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\n"
        "notify-level-device fatal\n",
    )
    from gin3d.app import GinApp
    from gin3d.engine import RuleSet
    from gin3d.players import GreedyPlayer
    from gin3d.scene.autoplay import InputDriver
    from gin3d.settings import Settings

    app = GinApp(Settings(animation_speed=1.0), seed=args.seed, sound=False, detail=args.detail)
    saved: list[str] = []

    def shot(name: str) -> None:
        for _ in range(2):
            app.graphicsEngine.renderFrame()
        path = out / f"{name}.png"
        app.win.saveScreenshot(str(path))
        saved.append(str(path))

    def frames(until, limit: int = 2000) -> None:
        for _ in range(limit):
            if until():
                return
            app.taskMgr.step()
        raise RuntimeError("the scene never reached the wanted state")

    shot("1_menu")
    app.screens.request("Setup")
    shot("1b_setup")
    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=args.seed)
    scene = app.scene
    frames(lambda: len(scene.hands[0]) + len(scene.hands[1]) >= 13)
    shot("2_deal")
    app.set_speed(0.0)
    app.queue.finish_all()
    app.taskMgr.step()
    driver = InputDriver(app)
    ctl = session.controller

    _play_to_melds(ctl, driver)
    shot("3_mid_hand")
    app.request("Pause")
    shot("3b_pause")
    app.screens.panel.buttons["rules"]["command"]()
    shot("3c_rules")
    app.request("Table")
    _play_to_a_knock(app, ctl, driver)
    panel = app.screens.panel
    if panel is not None:
        panel.frame.hide()
    shot("4_knock_spread")
    if panel is not None:
        panel.frame.show()
    if not ctl.game.hand.over:
        driver.play_hand()
    shot("5_hand_result")
    while app.screens.state != "GameOver":
        app.screens.panel.buttons["next"]["command"]()
        driver.play_hand()
    shot("6_game_over")
    print("\n".join(saved))
    return 0


def _play_to_melds(ctl, driver) -> None:
    """Play on until the local seat is to discard holding two melds (or the hand ends)."""
    from gin3d.engine import best_melds

    for _ in range(60):
        view = ctl.view(0)
        if view.phase == "discard" and len(best_melds(list(view.hand)).melds) >= 2:
            return
        if ctl.game.hand.over:
            return
        driver.play_turn()


def _play_to_a_knock(app, ctl, driver) -> None:
    """Play hands until one has a knock: stop at its layoff, or at its end."""
    from gin3d.engine import Knocked

    knocked: list = []
    ctl.on_applied.append(
        lambda action, events: knocked.extend(e for e in events if isinstance(e, Knocked))
    )
    for _ in range(400):
        if ctl.game.hand.over:
            if knocked:
                return
            app.screens.panel.buttons["next"]["command"]()
        if knocked and ctl.view(0).phase == "layoff":
            return
        driver.play_turn()


if __name__ == "__main__":
    raise SystemExit(main())
