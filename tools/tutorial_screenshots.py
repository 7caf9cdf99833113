"""Save one screenshot per tutorial chapter, at a step that shows what the chapter teaches.

    python tools/tutorial_screenshots.py [out_dir] [--preset classic] [--size 1280x720]

Renders offscreen. Chapter 5 is shown in Play-along mode right after a wrong move (the
no-throw-back rule, explained in the panel), chapter 15 mid-way through the practice hand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# chapter number: (step index shown, mode)
STEPS = {
    1: (4, "watch"),
    2: (1, "watch"),
    3: (4, "watch"),
    4: (2, "watch"),
    5: (3, "play"),
    6: (2, "watch"),
    7: (3, "watch"),
    8: (3, "watch"),
    9: (3, "watch"),
    10: (3, "watch"),
    11: (2, "watch"),
    12: (4, "watch"),
    13: (0, "watch"),
    14: (1, "watch"),
    15: (1, "play"),
    16: (2, "watch"),
    17: (4, "watch"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out/tutorial")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--size", default="1280x720")
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
    from gin3d.engine import parse_action
    from gin3d.scene.scripted.tutorial_view import TutorialDriver
    from gin3d.settings import Settings

    app = GinApp(Settings(animation_speed=0.0), seed=1, sound=False)
    app.setup.preset = args.preset
    app.request("Menu")  # a saved game would open on Resume, which leads nowhere else
    app.request("Tutorial")
    screen = app.screens.tutorial

    def shot(name: str) -> None:
        for _ in range(3):
            app.taskMgr.step()
        path = out / f"{name}.png"
        app.win.saveScreenshot(str(path))
        print(path)

    shot("00_chapters")
    for chapter in screen.chapters:
        index, mode = STEPS[chapter.number]
        screen.mode = mode
        view = screen.start(chapter)
        view.goto(index)
        if chapter.number == 15:
            driver = TutorialDriver(app, view)
            for _ in range(4):  # a few moves of the practice hand, by the hints
                driver.perform(view.runner.hint().action)
        if chapter.number == 5:  # try to throw back the card just taken: refused, explained
            TutorialDriver(app, view).perform(parse_action("discard 8C"))
        shot(f"{chapter.number:02d}_{chapter.id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
