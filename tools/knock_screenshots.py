"""Save screenshots of the moments a hand is decided: each knock or gin as it is laid out,
each layoff, the Knock!/Gin! banner over the spread, and each hand's result.

    python tools/knock_screenshots.py [out_dir] [--size 1280x720] [--seed 245] [--hands 4]

Renders offscreen (no display needed), like ``tools/screenshots.py``: the local seat is
played through the real input path by ``InputDriver`` against the simple computer player.
Seed 245's first hands hold a gin by you, a knock, your layoff and an undercut.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out/knocks")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seed", type=int, default=245)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--detail", default="auto", choices=("auto", "full", "light"))
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "shots",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\nnotify-level-device fatal\n",
    )
    from gin3d.app import GinApp
    from gin3d.engine import Knocked, LaidOff, RuleSet
    from gin3d.players import GreedyPlayer
    from gin3d.scene.autoplay import InputDriver
    from gin3d.settings import Settings

    app = GinApp(Settings(animation_speed=0.0), seed=args.seed, sound=False, detail=args.detail)
    saved: list[str] = []

    def shot(name: str) -> None:
        for _ in range(2):
            app.graphicsEngine.renderFrame()
        path = out / f"{len(saved):02d}_{name}.png"
        app.win.saveScreenshot(str(path))
        saved.append(str(path))

    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=args.seed)
    app.scene.set_sort("melds")
    ctl = session.controller
    driver = InputDriver(app)
    events: list = []
    ctl.on_applied.append(lambda action, evs: events.extend(evs))
    banners = 0
    for hand_no in range(args.hands):
        while not ctl.game.hand.over:
            events.clear()
            driver.play_turn()
            app.queue.finish_all()
            for e in events:
                if isinstance(e, Knocked):
                    who = "you" if e.seat == 0 else "computer"
                    shot(f"hand{hand_no}_{e.kind}_by_{who}")
                    if banners < 2:
                        banners += 1
                        _banner_shot(app, e, shot, f"hand{hand_no}_{e.kind}_banner")
                elif isinstance(e, LaidOff):
                    shot(f"hand{hand_no}_layoff_by_{'you' if e.seat == 0 else 'computer'}")
        shot(f"hand{hand_no}_result")
        if app.screens.state != "HandResult":
            break
        app.screens.panel.buttons["next"]["command"]()
    print("\n".join(saved))
    return 0


def _banner_shot(app, e, shot, name: str) -> None:
    """The knock's banner as it stands, at full size, over the laid-out spread."""
    word = {"gin": "Gin!", "big_gin": "Big Gin!"}.get(e.kind, "Knock!")
    app.queue.speed = 1.0
    pop = app.scene.banner(word, (1.0, 0.85, 0.3, 1) if e.kind != "knock" else (1, 0.96, 0.85, 1))
    pop.start()
    pop.setT(pop.getDuration() * 0.5)
    shot(name)
    pop.finish()
    app.queue.speed = 0.0


if __name__ == "__main__":
    raise SystemExit(main())
