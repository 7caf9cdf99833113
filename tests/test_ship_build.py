"""The packaged Linux build: build_apps freezes the game, and the frozen binary starts and
renders its first frame offscreen (the log file lands in the user's data folder)."""

from __future__ import annotations

import os
import platform
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = "manylinux2014_x86_64"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (sys.platform.startswith("linux") and platform.machine() == "x86_64"),
        reason="the Linux x86_64 build only runs on Linux x86_64",
    ),
    pytest.mark.skipif(
        os.environ.get("GIN3D_SKIP_BUILD_TEST") == "1", reason="GIN3D_SKIP_BUILD_TEST=1"
    ),
]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    return struct.unpack(">II", data[16:24])


def test_frozen_linux_build_starts_to_its_first_frame(tmp_path):
    build = tmp_path / "build"
    result = subprocess.run(
        [
            sys.executable,
            "setup_build.py",
            "build_apps",
            "--build-base",
            str(build),
            "-p",
            PLATFORM,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    app = build / PLATFORM
    binary = app / "Gin3D"  # not "gin3d": that is the folder of the package data
    assert binary.is_file() and os.access(binary, os.X_OK)
    # the game's files and the plugins travel with it
    for rel in (
        "textures/cards_atlas.json",
        "textures/cards_classic.png",
        "textures/icon.png",
        "models/table.egg.bam",
        "sounds/deal.wav",
        "libpandagl.so",
        "libp3openal_audio.so",
        "libp3headlessgl.so",
    ):
        assert (app / rel).exists(), rel
    assert not (app / "tests").exists() and not (app / "tools").exists()

    home = tmp_path / "home"
    shot = tmp_path / "first.png"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GIN3D_"))}
    env.update(
        HOME=str(home),
        GIN3D_OFFSCREEN="1",
        GIN3D_EXIT_AFTER_FIRST_FRAME="1",
        GIN3D_SCREENSHOT=str(shot),
    )
    env.pop("DISPLAY", None)
    run = subprocess.run(
        [str(binary)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    log = home / ".local" / "share" / "gin3d" / "output.log"
    text = log.read_text(errors="replace") if log.exists() else "(no log file)"
    assert run.returncode == 0, text[-3000:]
    assert "gin3d: first frame rendered" in text
    version = re.search(r'__version__ = "([^"]+)"', (ROOT / "gin3d" / "__init__.py").read_text())
    assert f"gin3d: version {version[1]}" in text
    # the network stack is probed and reported; the frozen ssl module needs the host's OpenSSL
    # to be 3.3 or newer (docs/ship.md), so an older host reports "unavailable" with the reason
    network = re.search(r"gin3d: network: (ok|unavailable \((.+)\))", text)
    assert network, text[-2000:]
    assert network[1] == "ok" or "OPENSSL_" in network[2], network[0]
    found = re.search(r"gin3d: data found: (\d+) tutorial chapters, (\d+) sounds", text)
    assert found, text[-2000:]
    chapters = sorted((ROOT / "gin3d" / "tutorial" / "chapters").glob("*.json"))
    assert int(found[1]) == len(chapters) > 0
    assert int(found[2]) == len(list((ROOT / "sounds").glob("*.wav"))) > 0
    assert png_size(shot) == (1280, 720)
