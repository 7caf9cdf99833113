"""``gin3d`` / ``python -m gin3d``: open the window and play."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gin3d", description="Gin Rummy on a 3D table")
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every game")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="animation speed (1 normal, 2 twice as fast, 0 instant)")
    parser.add_argument("--size", default="1280x720", help="window size, e.g. 1920x1080")
    args = parser.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x720, got {args.size!r}")
    if args.speed < 0:
        parser.error("--speed cannot be negative")
    from panda3d.core import loadPrcFileData

    loadPrcFileData("gin3d", f"win-size {w} {h}\nwindow-title gin3d\nframebuffer-multisample 1"
                             "\nmultisamples 4")
    from gin3d.scene.first_frame import configure_before_window, install_exit_after_first_frame

    configure_before_window()
    from gin3d.app import GinApp, Settings

    app = GinApp(Settings(speed=args.speed), seed=args.seed)
    install_exit_after_first_frame(app)
    app.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
