"""``gin3d`` / ``python -m gin3d``: open the window and play."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gin3d", description="Gin Rummy on a 3D table")
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every game")
    parser.add_argument("--speed", type=float, default=None,
                        help="animation speed (1 normal, 2 twice as fast, 0 instant); "
                             "default: the saved setting")
    parser.add_argument("--size", default=None,
                        help="window size, e.g. 1920x1080; default: the saved setting")
    args = parser.parse_args(argv)
    from gin3d import settings as settings_mod

    loaded = settings_mod.load()  # never raises: a bad file gives the defaults and a message
    user = loaded.settings
    if loaded.message:
        print(f"gin3d: {loaded.message}", flush=True)
    try:
        if args.size is not None:
            user = user.but(resolution=tuple(int(v) for v in args.size.lower().split("x")))
        if args.speed is not None:
            user = user.but(animation_speed=args.speed)
    except ValueError as err:
        parser.error(str(err))
    from panda3d.core import loadPrcFileData

    from gin3d.scene.ship_screens import window_prc

    loadPrcFileData("gin3d", "window-title gin3d\n" + window_prc(user))
    from gin3d.scene.first_frame import configure_before_window, install_exit_after_first_frame

    configure_before_window()
    from gin3d.app import GinApp

    app = GinApp(seed=args.seed, user_settings=user, notice=loaded.message)
    install_exit_after_first_frame(app)
    app.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
