"""Frame times of the 3D table, offscreen at 1280x720, with a GPU sync every frame.

    python bench/bench_scene.py [--size 1280x720] [--frames 240] [--detail auto]

The app is made the way ``gin3d`` makes it (``gin3d.__main__.launch`` with the default player
settings, so the window asks for 4x antialiasing like a fresh install does), only offscreen.

Prints the mean and 99th-percentile frame time (and fps) during a deal and during a knock
spread, each with its ratio to an empty scene measured in the same run, and the time from
launching a fresh process to the first rendered frame of the main menu. Each frame is
synchronised by reading the rendered image back from the GPU. Also printed: the CPU time of
this process per frame (all threads, so a software renderer's rasteriser threads count),
which, unlike wall time, hardly changes when other programs load the machine. Targets on a
software renderer: >= 60 fps mean, 99th percentile <= 25 ms, first frame <= 3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIRST_FRAME = """
import sys, time
sys.path.insert(0, {root!r})
from panda3d.core import loadPrcFileData
loadPrcFileData('', 'window-type offscreen\\naudio-library-name null\\nwin-size {w} {h}\\n'
                    'sync-video 0\\nnotify-level-display error\\nnotify-level-device fatal')
from gin3d.__main__ import launch
app = launch()
app.graphicsEngine.renderFrame()
app.win.getScreenshot()
print(time.time())
"""


def first_frame_seconds(w: int, h: int) -> float:
    start = time.time()
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME.format(root=str(ROOT), w=w, h=h)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1]) - start


def stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.fmean(times) * 1000, p99 * 1000


def bench_parser(doc: str, frames: int, frames_help: str) -> argparse.ArgumentParser:
    """The scene benches' options: ``--size``, ``--frames`` and ``--detail``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--frames", type=int, default=frames, help=frames_help)
    from gin3d.scene.media.quality import add_detail_option

    add_detail_option(parser)
    return parser


def offscreen_app(size: str, detail: str):
    """The app made the way ``gin3d`` makes it (default player settings), offscreen at
    ``size`` ("1280x720"); returns it with the width and height."""
    w, h = (int(v) for v in size.lower().split("x"))
    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "bench",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\n"
        "notify-level-device fatal\n",
    )
    from gin3d.__main__ import launch
    from gin3d.settings import Settings

    app = launch(speed=1.0, seed=245, user=Settings().but(resolution=(w, h)), detail=detail)
    return app, w, h


def main(argv: list[str] | None = None) -> int:
    args = bench_parser(__doc__, 240, "most frames per phase").parse_args(argv)
    app, w, h = offscreen_app(args.size, args.detail)
    from gin3d.engine import Knock, RuleSet
    from gin3d.players import GreedyPlayer
    from gin3d.scene.control.autoplay import InputDriver

    cpu: dict[int, float] = {}  # id(times list) -> CPU seconds used by its frames

    def frame() -> float:
        t = time.perf_counter()
        app.taskMgr.step()
        app.win.getScreenshot()  # read the frame back: waits for the GPU to finish it
        return time.perf_counter() - t

    def measure(while_, limit: int) -> list[float]:
        times: list[float] = []
        used = time.process_time()  # this process, all threads (the software renderer's too)
        for _ in range(limit):
            if not while_():
                break
            times.append(frame())
        cpu[id(times)] = time.process_time() - used
        return times

    for _ in range(10):
        frame()  # warm up: textures uploaded, shaders built
    # empty scene: nothing in the 3D world, no GUI
    app.scene.root.hide()
    app.screens.panel.frame.hide()
    empty = measure(lambda: True, 120)
    app.scene.root.show()
    app.screens.panel.frame.show()

    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=245)
    scene = app.scene
    deal = measure(lambda: app.queue.busy, args.frames * 4)
    dealt = len(scene.hands[0]) + len(scene.hands[1])

    # play on at speed 0 until you are about to knock, then knock with animations on (a
    # deal cut short by --frames is finished first: the table takes input once it is dealt)
    app.set_speed(0.0)
    app.queue.finish_all()
    driver = InputDriver(app)
    ctl = session.controller
    for _ in range(2000):
        if ctl.game.hand.over:
            app.screens.panel.buttons["next"]["command"]()
            continue
        if ctl.waiting_for_human() and isinstance(driver.brain.choose(ctl.view(0)), Knock):
            break
        driver.play_turn()
    app.set_speed(1.0)
    # the fast-forward rendered frames nobody waited for: wait for them now, or the first
    # measured frame would pay for drawing all of them
    app.win.getScreenshot()
    driver.play_turn()
    knock = measure(lambda: app.queue.busy, args.frames * 4)

    e_mean, e_p99 = stats(empty)
    e_cpu = cpu[id(empty)] / len(empty) * 1000
    print(
        f"size {w}x{h}, GPU sync by frame read-back each frame, renderer "
        f"{app.win.getGsg().getDriverRenderer()}, detail {app.scene.detail}, "
        f"multisamples {app.win.getFbProperties().getMultisamples()} "
        f"({app.framebuffer}), "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"empty scene : mean {e_mean:6.2f} ms ({1000 / e_mean:5.1f} fps)  p99 {e_p99:6.2f} ms"
        f"  [{len(empty)} frames]  CPU {e_cpu:5.2f} ms/frame"
    )
    for name, times in (("deal", deal), ("knock spread", knock)):
        mean, p99 = stats(times)
        print(
            f"{name:12s}: mean {mean:6.2f} ms ({1000 / mean:5.1f} fps)  p99 {p99:6.2f} ms"
            f"  [{len(times)} frames]  ratio to empty: mean {mean / e_mean:4.2f}x,"
            f" p99 {p99 / e_p99:4.2f}x"
        )
        used = cpu[id(times)] / len(times) * 1000
        print(
            f"{'':12s}  CPU {used:5.2f} ms/frame (all threads), {used / e_cpu:4.2f}x the empty"
            " scene's"
        )
    print(f"cards dealt during the measured deal: {dealt}")
    print(f"launch to first menu frame: {first_frame_seconds(w, h):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
