"""Start-up checks for packaged builds: run offscreen and exit after the first frame.

Environment variables (read by ``gin3d.__main__``):

- ``GIN3D_OFFSCREEN=1``: render into an offscreen buffer with no display and no audio device
  (CI machines, build checks, screenshot scripts).
- ``GIN3D_EXIT_AFTER_FIRST_FRAME=1``: once the first frame has been rendered, log
  ``gin3d: first frame rendered ...`` and what data it found (and the folder its art came
  from), then exit with status 0. The build test starts the frozen
  binary this way.
- ``GIN3D_SCREENSHOT=<file.png>``: with the above, save that first frame as a picture.
"""

from __future__ import annotations

import os
import sys

from panda3d.core import Filename, loadPrcFileData

from gin3d import version

OFFSCREEN_ENV = "GIN3D_OFFSCREEN"
EXIT_ENV = "GIN3D_EXIT_AFTER_FIRST_FRAME"
SHOT_ENV = "GIN3D_SCREENSHOT"
FRAMES = 3  # frames to render first: the first one may still be compiling shaders


def _data_report() -> str:
    """What a packaged build must carry besides code, counted (the build test reads it)."""
    from ...tutorial import load_chapters
    from ..media.assets import asset_path, asset_root

    try:
        chapters = len(load_chapters())
    except (OSError, ValueError) as err:
        chapters = f"error {err}"
    sounds = len(list(asset_path("sounds").glob("*.wav")))
    return f"{chapters} tutorial chapters, {sounds} sounds (art from {asset_root()})"


def _network_report() -> str:
    """Whether the network stack loads in this build: its crypto, PAKE and discovery libraries
    are compiled extensions that a packaged build has to carry."""
    try:
        import spake2  # noqa: F401
        import zeroconf  # noqa: F401
        from cryptography.hazmat.primitives.asymmetric import ec

        import gin3d.net.api  # noqa: F401

        ec.generate_private_key(ec.SECP256R1())
    except Exception as err:  # any failure here means network play would fail too
        return f"unavailable ({type(err).__name__}: {err})"
    return "ok"


def _on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def configure_before_window() -> None:
    """Call before ShowBase is made: switches to an offscreen buffer when asked."""
    if _on(OFFSCREEN_ENV):
        loadPrcFileData("gin3d-offscreen", "window-type offscreen\naudio-library-name null")


def install_exit_after_first_frame(base) -> bool:
    """When asked by the environment, exit once the first frames are drawn. True if set up."""
    if not _on(EXIT_ENV):
        return False
    shot = os.environ.get(SHOT_ENV)

    def check(task):
        if task.frame < FRAMES:
            return task.cont
        base.graphicsEngine.renderFrame()
        gsg = base.win.getGsg() if base.win is not None else None
        renderer = gsg.getDriverRenderer() if gsg is not None else "no renderer"
        if shot:
            base.win.saveScreenshot(Filename.fromOsSpecific(shot))
        print(
            f"gin3d: first frame rendered ({renderer}, "
            f"{base.win.getXSize()}x{base.win.getYSize()})",
            flush=True,
        )
        print(f"gin3d: version {version()}", flush=True)
        print(f"gin3d: data found: {_data_report()}", flush=True)
        print(f"gin3d: network: {_network_report()}", flush=True)
        sys.stdout.flush()
        base.userExit()
        return task.done

    base.taskMgr.add(check, "gin3d-exit-after-first-frame")
    return True
