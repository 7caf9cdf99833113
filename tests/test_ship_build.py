"""The packaged Linux build: build_apps freezes the game, and the frozen binary starts and
renders its first frame offscreen (the log file lands in the user's data folder) with its
network stack working on this machine's OpenSSL (Debian 12 has 3.0; the build carries its
own 3.5), two frozen gin3d-match processes play a whole LAN match over loopback, and a build
that would miss any of the game's files is refused."""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = "manylinux2014_x86_64"
LOG = Path(".local/share/gin3d/output.log")  # where a build's programs write (docs/ship.md)

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


def load_setup_build():
    spec = importlib.util.spec_from_file_location("setup_build", ROOT / "setup_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # setup() runs only as a script
    return module


def test_a_build_missing_any_game_file_is_refused(tmp_path):
    build = load_setup_build()
    expected = build.shipped_files()
    assert "models/table.egg.bam" in expected and "textures/cards_atlas.json" in expected
    assert any(rel.startswith("gin3d/tutorial/chapters/") for rel in expected)
    for rel in expected:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(b"x")
    assert build.missing_from(tmp_path) == []
    (tmp_path / "models" / "card.egg.bam").unlink()  # what a failed egg conversion leaves
    (tmp_path / "sounds" / "deal.wav").unlink()
    assert build.missing_from(tmp_path) == ["models/card.egg.bam", "sounds/deal.wav"]
    # a checkout with an empty art folder is no game either
    shutil.rmtree(tmp_path / "sounds")
    empty = tmp_path / "checkout"
    for folder in ("models", "textures", "gin3d/tutorial/chapters"):
        shutil.copytree(ROOT / folder, empty / folder)
    (empty / "sounds").mkdir()
    assert "sounds/ (no files in the checkout)" in build.missing_from(tmp_path, empty)


def test_a_macos_build_is_checked_inside_its_app_bundle(tmp_path):
    build = load_setup_build()
    assert build.game_folder(tmp_path) == tmp_path
    resources = tmp_path / "Gin3D.app" / "Contents" / "Resources"
    resources.mkdir(parents=True)
    assert build.game_folder(tmp_path) == resources


def wheel_source() -> dict[str, str]:
    """Where build_apps's pip finds the Linux wheels: GIN3D_BUILD_WHEELS, a folder of them
    (``pip download -r requirements.txt psycopg-binary==<pin> --platform
    manylinux2014_x86_64 --only-binary=:all: -d <folder>``), for a machine with no network;
    else the package index, and the test skips when that cannot be reached."""
    folder = os.environ.get("GIN3D_BUILD_WHEELS")
    if folder:
        return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": folder}
    probe = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", "panda3d"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(
            "the package index cannot be reached and GIN3D_BUILD_WHEELS names no wheel folder: "
            + (probe.stderr.strip().splitlines() or ["no answer"])[-1]
        )
    return {}


@pytest.fixture(scope="module")
def built_in_port() -> int:
    """A free loopback port, named as the build's online service (``--service``): the
    scenario below starts a node on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def linux_app(tmp_path_factory, built_in_port) -> Path:
    build = tmp_path_factory.mktemp("build")
    env = dict(os.environ, **wheel_source())
    result = subprocess.run(
        [
            sys.executable,
            "setup_build.py",
            "build_apps",
            "--build-base",
            str(build),
            "-p",
            PLATFORM,
            "--service",
            f"127.0.0.1:{built_in_port}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return build / PLATFORM


def test_frozen_linux_build_starts_to_its_first_frame(linux_app, tmp_path):
    app = linux_app
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
        "libssl.so.3",
        "libcrypto.so.3",
        "licenses/OpenSSL.txt",
        "gin3d.desktop",
        "install-desktop-entry.sh",
        "gin3d-match",
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
    log = home / LOG
    text = log.read_text(errors="replace") if log.exists() else "(no log file)"
    assert run.returncode == 0, text[-3000:]
    assert "gin3d: first frame rendered" in text
    version = re.search(r'__version__ = "([^"]+)"', (ROOT / "gin3d" / "__init__.py").read_text())
    assert f"gin3d: version {version[1]}" in text
    # the network stack is probed and reported: the frozen ssl module needs OpenSSL 3.3 or
    # newer, which the build carries beside it, so it works on any host's OpenSSL
    network = re.search(r"gin3d: network: (.+)", text)
    assert network and network[1] == "ok", network[0] if network else text[-2000:]
    found = re.search(r"gin3d: data found: (\d+) tutorial chapters, (\d+) sounds", text)
    assert found, text[-2000:]
    chapters = sorted((ROOT / "gin3d" / "tutorial" / "chapters").glob("*.json"))
    assert int(found[1]) == len(chapters) > 0
    assert int(found[2]) == len(list((ROOT / "sounds").glob("*.wav"))) > 0
    assert png_size(shot) == (1280, 720)


def _listening(host: subprocess.Popen, log: Path, deadline: float) -> tuple[str, str]:
    """The port and code the frozen host prints (the build sends a program's output to its
    log file), read as the log grows."""
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        found = re.search(r"^LISTENING (\d+) (\S+)$", text, re.M)
        if found:
            return found[1], found[2]
        if host.poll() is not None:
            raise AssertionError(f"the frozen host ended before listening: {text[-2000:]}")
        time.sleep(0.1)
    raise AssertionError("the frozen host did not listen within a minute")


def test_two_frozen_processes_play_a_lan_match(linux_app, tmp_path):
    match = linux_app / "gin3d-match"
    fast = ["--heartbeat", "0.3", "--dead-after", "4", "--retry", "0.2"]

    def env(who: str) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("GIN3D_", "PYTHON"))}
        return dict(keep, HOME=str(tmp_path / who))

    host = subprocess.Popen(
        [str(match), "host", "--listen", "127.0.0.1", "--port", "0"]
        + ["--out", str(tmp_path / "host.json"), *fast],
        env=env("host"),
    )
    try:
        port, code = _listening(host, tmp_path / "host" / LOG, time.monotonic() + 60)
        guest = subprocess.run(
            [str(match), "join", "--address", f"127.0.0.1:{port}", "--code", code]
            + ["--out", str(tmp_path / "guest.json"), *fast],
            env=env("guest"),
            timeout=300,
        )
        assert host.wait(timeout=60) == 0
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert guest.returncode == 0, (tmp_path / "guest" / LOG).read_text()[-2000:]
    ours, theirs = (json.loads((tmp_path / n).read_text()) for n in ("host.json", "guest.json"))
    assert ours["ended"] == theirs["ended"] == "finished"
    assert ours["log_head"] == theirs["log_head"] and ours["log_ok"] and theirs["log_ok"]
    assert ours["totals"] == theirs["totals"] and max(ours["totals"][0]) >= 100
    assert ours["refusals"] == theirs["refusals"] == []


def test_a_build_with_a_built_in_service_lists_its_tables_at_first_start(
    linux_app, built_in_port, player, tmp_path
):
    """Built with ``--service``, the frozen game started with an empty home (no settings,
    nothing typed) finds that service's open tables under Online, Find."""
    from service_harness import tables_held
    from test_player_flows import open_online

    from gin3d.built_in import FORMAT

    baked = json.loads((linux_app / "gin3d" / "service.json").read_text())
    assert baked == {"format": FORMAT, "online_service": f"127.0.0.1:{built_in_port}"}
    node = subprocess.Popen(
        [sys.executable, "-m", "gin3d.net.relay", "--host", "127.0.0.1"]
        + ["--port", str(built_in_port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert "listening on" in node.stdout.readline()
        with tables_held(("127.0.0.1", built_in_port), ["Ann's table"]):
            p = player(home=tmp_path / "empty-home", exe=linux_app / "Gin3D")
            open_online(p)
            p.click_button("Find")
            p.wait(p.shows("Ann's table"), 60, "the built-in service's table")
            p.screenshot("build-built-in-service-find")
            assert p.problems() == []
    finally:
        node.terminate()
        node.wait(10)
