"""How long the tutorial takes in Watch mode at normal animation speed, on a simulated clock.

    python bench/tutorial_watch_time.py [--fps 20] [--preset classic] [--chapter N]

Runs the app offscreen with the frame clock forced to 1/fps seconds a frame, starts each
chapter from the chapter list in Watch mode and lets it play by itself (animations, reading
pauses, the practice hand) until it is complete. Prints simulated minutes per chapter and in
total: the time a newcomer spends if they never press a key.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fps", type=float, default=20.0)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--chapter", type=int, default=0)
    args = parser.parse_args(argv)

    from panda3d.core import ClockObject, loadPrcFileData

    loadPrcFileData(
        "bench",
        "window-type offscreen\naudio-library-name null\nwin-size 640 360\n"
        "sync-video 0\nnotify-level-display error\n",
    )
    from gin3d.app import GinApp, Settings

    app = GinApp(Settings(animation_speed=1.0), seed=1, sound=False)
    clock = ClockObject.getGlobalClock()
    clock.setMode(ClockObject.MNonRealTime)
    clock.setFrameRate(args.fps)
    app.setup.preset = args.preset
    app.request("Menu")  # a saved game would open on Resume, which leads nowhere else
    app.request("Tutorial")
    screen = app.screens.tutorial
    total = 0.0
    wall = time.perf_counter()
    for chapter in screen.chapters:
        if args.chapter and chapter.number != args.chapter:
            continue
        view = screen.start(chapter)
        frames = 0
        while not view.runner.finished and frames < args.fps * 60 * 10:
            app.taskMgr.step()
            frames += 1
        minutes = frames / args.fps / 60
        total += minutes
        state = "complete" if view.runner.finished else "NOT complete"
        print(f"chapter {chapter.number:2d} {chapter.title:42s} {minutes:5.2f} min  {state}")
    print(f"total {total:.1f} simulated minutes ({time.perf_counter() - wall:.0f} s of wall time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
