"""A real magic-wormhole mailbox server and transit relay on loopback, for the tests of a
friend by code (``gin3d.net.friend``).

Both are the published server programs (``magic-wormhole-mailbox-server``,
``magic-wormhole-transit-relay``, in the test extra) run by Twisted's ``twist`` on free
loopback ports, their files in a test's tmp folder; each is stopped by its own process at
the end. ``Servers.env`` points the game's built-in defaults at them; the tests' conftest
sets ``GIN3D_TEST_LOOPBACK_ONLY`` so nothing can reach the public servers.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from player_harness import end
from service_harness import LOOP, START_S, free_port

TWIST = Path(sys.executable).parent / "twist"


def _listening(port: int) -> bool:
    try:
        with socket.create_connection((LOOP, port), timeout=0.5):
            return True
    except OSError:
        return False


class _Twist:
    """``twist <plugin> --port tcp:PORT:interface=127.0.0.1 ...`` until ``stop``."""

    def __init__(self, plugin: str, folder: Path, *extra: str) -> None:
        if not TWIST.exists():
            pytest.skip("twist is not installed (pip install the test extra)")
        self.port = free_port()
        endpoint = f"tcp:{self.port}:interface={LOOP}"
        self.log = folder / f"{plugin}.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [str(TWIST), plugin, "--port", endpoint, *extra],
                cwd=folder,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_S
        while not _listening(self.port):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"{plugin} did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        end(self.proc, 10)


class Servers:
    """The mailbox server and the transit relay, both up."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.mailbox = _Twist("wormhole-mailbox", folder, "--channel-db", str(folder / "ch.db"))
        try:
            self.transit = _Twist("transitrelay", folder)
        except BaseException:
            self.mailbox.stop()
            raise
        self.mailbox_url = f"ws://{LOOP}:{self.mailbox.port}/v1"
        self.transit_at = f"{LOOP}:{self.transit.port}"

    @property
    def env(self) -> dict[str, str]:
        """What points a game's built-in defaults at these two."""
        return {"GIN3D_RENDEZVOUS": self.mailbox_url, "GIN3D_TRANSIT": self.transit_at}

    def stop(self) -> None:
        self.transit.stop()
        self.mailbox.stop()


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    s = Servers(tmp_path_factory.mktemp("rendezvous"))
    yield s
    s.stop()
