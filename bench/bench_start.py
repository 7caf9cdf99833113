"""Start-up and stillness of the real game window, each against a bare Panda3D window.

    python bench/bench_start.py [--runs 5] [--still 10]

Runs in an X server of its own (Xvfb, as the player's-eye suite does) and prints, as medians
over ``--runs`` launches taken in turn with the reference (so both see the same machine), of
the game started again with the same home as a player's later starts are (``--cold``: each
with a new home, a first start):

- launch to the usable menu (the menu's buttons on screen) of the installed ``gin3d``, and of
  a bare Panda3D window with one button built here: seconds and their ratio (goal <= 2x);
- the window's first picture after the window appears (goal <= 0.5 s);
- importing the app, CPU seconds, against Panda3D's own imports (ShowBase and DirectGui):
  ratio (goal <= 2x);
- resident memory at the menu against the bare window: ratio (goal <= 1.3x);
- over ``--still`` seconds of a still menu (nobody touches anything, once its camera has
  come to rest): frames drawn (goal 0) and CPU, % of a core (goal <= 1%).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

BARE = """
import time
from direct.showbase.ShowBase import ShowBase
from direct.gui.DirectGui import DirectButton
base = ShowBase()
DirectButton(text="Play", scale=0.1)
for _ in range(2):
    base.graphicsEngine.renderFrame()
print("ready", flush=True)
time.sleep(1.0)  # resident memory read meanwhile
"""

PANDA_IMPORTS = (
    "import panda3d.core, direct.showbase.ShowBase, direct.gui.DirectGui, "
    "direct.interval.IntervalGlobal"
)
IMPORTS = """
import time
t = time.process_time()
{imports}
print(time.process_time() - t)
"""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def bare_window(display: str) -> tuple[float, int]:
    """Seconds from launch to a bare window with a button drawn, and its resident KiB."""
    env = dict(os.environ, DISPLAY=display)
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", BARE],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    seconds = time.monotonic() - start
    assert line.startswith("ready"), line
    rss = rss_kib(proc.pid)
    proc.wait(30)
    return seconds, rss


def import_cpu(imports: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", IMPORTS.format(imports=imports)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return float(out.stdout.strip().splitlines()[-1])


def game_window(x, home: Path, still: float, shots: Path) -> dict:
    """One launch of the game: to the usable menu, first picture, memory, a still spell."""
    from player_harness import Player

    p = Player(x, home, shots).start(wait=False)
    try:
        p.window()
        appeared = time.monotonic()
        while True:
            try:
                if p.grab().mean() > 12:  # something drawn on the black window
                    break
            except Exception:  # created, not mapped yet
                pass
            assert p.alive(), p.log()[-2000:]
        first = time.monotonic() - appeared
        p.wait(lambda s: s.get("screen") == "Menu" and s.get("buttons"), 90, "the menu")
        menu = time.monotonic() - p.started
        p.move(1270, 700)
        p.wait(lambda s: p.still, 60, "a still menu")
        rss = rss_kib(p.proc.pid)
        frames, cpu, start = p.frame, p.cpu_seconds(), time.monotonic()
        p.wait(lambda s: time.monotonic() - start >= still, still + 10, "a still spell")
        spell = time.monotonic() - start
        return {
            "menu": menu,
            "first": first,
            "rss": rss,
            "frames": p.frame - frames,
            "cpu": (p.cpu_seconds() - cpu) / spell,
        }
    finally:
        p.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--still", type=float, default=10.0, help="seconds of a still menu")
    parser.add_argument(
        "--cold", action="store_true", help="every start with a new home (a first start)"
    )
    args = parser.parse_args(argv)
    from player_harness import XServer

    x = XServer().start()
    bare_s, bare_rss, games = [], [], []
    panda_cpu, app_cpu = [], []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            home, shots = Path(tmp) / "home", Path(tmp) / "shots"
            if not args.cold:  # a first start, not measured: the home is then as a player's
                game_window(x, home, 0.0, shots)
            for run in range(args.runs):
                s, rss = bare_window(x.display)
                bare_s.append(s)
                bare_rss.append(rss)
                games.append(
                    game_window(
                        x, Path(tmp) / f"home{run}" if args.cold else home, args.still, shots
                    )
                )
                panda_cpu.append(import_cpu(PANDA_IMPORTS))
                app_cpu.append(import_cpu(PANDA_IMPORTS + "\nimport gin3d.__main__, gin3d.app"))
    finally:
        x.stop()

    def med(values) -> float:
        return statistics.median(values)

    menu = med(g["menu"] for g in games)
    print(f"runs: {args.runs} (medians), {'first' if args.cold else 'later'} starts of the game")
    print(
        f"launch to the usable menu: gin3d {menu:.2f} s, bare Panda3D window "
        f"{med(bare_s):.2f} s: {menu / med(bare_s):.2f}x (goal <= 2x)"
    )
    print(
        f"first picture after the window appears: {med(g['first'] for g in games):.2f} s "
        "(goal <= 0.5 s)"
    )
    print(
        f"importing the app: {med(app_cpu):.3f} s CPU, Panda3D's imports {med(panda_cpu):.3f} s:"
        f" {med(app_cpu) / med(panda_cpu):.2f}x (goal <= 2x)"
    )
    rss = med(g["rss"] for g in games)
    print(
        f"memory at the menu: {rss / 1024:.0f} MiB, bare window {med(bare_rss) / 1024:.0f} MiB:"
        f" {rss / med(bare_rss):.2f}x (goal <= 1.3x)"
    )
    print(
        f"still menu, {args.still:.0f} s: {max(g['frames'] for g in games)} frames drawn (most "
        f"of any run; goal 0), CPU {100 * med(g['cpu'] for g in games):.2f}% of a core "
        "(goal <= 1%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
