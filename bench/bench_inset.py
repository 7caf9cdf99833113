"""What the partnership game's inset (your partner's table, small, left of yours) costs a
frame, offscreen at 1280x720 with a GPU sync every frame.

    python bench/bench_inset.py [--size 1280x720] [--frames 40] [--rounds 4] [--detail auto]

A team game mid-hand, made as ``bench_scene.py`` makes the app. Blocks of ``--frames``
frames with the inset drawn and with it switched off (its display region inactive: what
the table cost before it), taken in turn ``--rounds`` times so the machine's load falls on
both alike: first with everything still (your partner's computers held in thought), then
with your partner's hand playing on, animated in the inset, while your table waits for you.
Prints for each the median over the rounds of the mean and 99th-percentile frame time and
of the CPU time of this process per frame (all threads, so a software renderer's rasteriser
threads count).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_scene import bench_parser, offscreen_app, stats  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__, 40, "frames per block")
    parser.add_argument("--rounds", type=int, default=4, help="blocks of each kind")
    args = parser.parse_args(argv)
    app, w, h = offscreen_app(args.size, args.detail)
    from gin3d.app.game_app import GameSetup
    from gin3d.scene.control.autoplay import InputDriver

    app.setup = GameSetup(level="simple", players=4)
    app.set_speed(0.0)
    session = app.start_single_player()
    ctl = session.controller
    driver = InputDriver(app)
    for _ in range(4):
        driver.play_turn()
    app.set_speed(1.0)
    pace = ctl.partner.pace
    ctl.partner.pace = lambda seconds: 1e6  # still: nothing moves at either table
    app.win.getScreenshot()

    inset = getattr(ctl, "inset", None)  # (none in the code before it: run there to compare)

    def block(shown: bool) -> tuple[list[float], float]:
        if inset is not None:
            inset.set_shown(shown)
        times: list[float] = []
        used = time.process_time()
        for _ in range(args.frames):
            t = time.perf_counter()
            app.taskMgr.step()
            app.win.getScreenshot()  # read the frame back: waits for the GPU to finish it
            times.append(time.perf_counter() - t)
        return times, (time.process_time() - used) / len(times) * 1000

    for _ in range(10):
        block(True)  # warm up: textures uploaded, shaders built
    results: dict[tuple[str, bool], list[tuple[float, float, float]]] = {}

    def run(kind: str) -> None:
        for _ in range(args.rounds):
            for shown in (True, False):
                times, cpu = block(shown)
                results.setdefault((kind, shown), []).append((*stats(times), cpu))

    run("still")
    ctl.partner.pace = pace  # your partner's table plays on, animated in the inset
    ctl.partner.restart_pause()
    moves = len(ctl.game.partner.hand.actions)
    run("playing")
    moved = len(ctl.game.partner.hand.actions) - moves

    print(
        f"size {w}x{h}, renderer {app.win.getGsg().getDriverRenderer()}, detail"
        f" {app.scene.detail}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs,"
        f" {args.rounds} rounds of {args.frames} frames each"
    )
    for (kind, shown), rows in results.items():
        mean, p99, cpu = (statistics.median(r[i] for r in rows) for i in range(3))
        label = f"{kind}, inset {'drawn' if shown and inset else 'off'}"
        print(f"{label:22s}: mean {mean:6.2f} ms  p99 {p99:6.2f} ms  CPU {cpu:5.2f} ms/frame")
    print(f"your partner's moves while playing: {moved}" + ("" if inset else " (no inset here)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
