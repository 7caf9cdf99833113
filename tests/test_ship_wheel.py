"""Installed like any Python program: the wheel built from the checkout carries the code, the
tutorial chapters and the art, and the game installed from it (not editable, into a fresh
virtual environment) starts to its first frame from a folder outside the checkout, with its
art read from the installed package.

No network: the wheel is built with this Python's setuptools (``--no-build-isolation``) and
installed with ``--no-index --no-deps``; the environment sees this machine's site-packages
(``--system-site-packages``) for Panda3D, numpy and the network libraries.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import site
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

import pytest

import gin3d

ROOT = Path(__file__).resolve().parent.parent
ART = ("textures", "models", "sounds", "fonts")


def _can_build_wheels() -> bool:
    """setuptools builds wheels itself from 70.1; before that it needs the wheel package."""
    if importlib.util.find_spec("setuptools") is None:
        return False
    import setuptools

    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


pytestmark = pytest.mark.skipif(
    not _can_build_wheels(), reason="building a wheel needs the wheel package (the test extra)"
)


def _quiet_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would point Python or gin3d at the checkout."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIN3D_", "PYTHON", "PIP_", "VIRTUAL_ENV"))
    }
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def _copy_source(dest: Path) -> None:
    """What the wheel is built from, copied so no build output lands in the checkout and no
    stale build/ folder there can leak into the wheel."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    dest.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for folder in ("gin3d", *ART):
        shutil.copytree(ROOT / folder, dest / folder, ignore=ignore)


def test_wheel_installs_and_the_installed_game_starts_with_its_own_art(tmp_path):
    src, dist, env_dir, run_dir = (tmp_path / n for n in ("src", "dist", "venv", "run"))
    _copy_source(src)
    started = time.monotonic()
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
            str(src),
        ],
        cwd=tmp_path,
        env=_quiet_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = dist.glob("gin3d-*.whl")
    build_s = time.monotonic() - started

    # the wheel holds every module, the chapters and every art file
    names = set(zipfile.ZipFile(wheel).namelist())
    info = zipfile.ZipFile(wheel).read(f"gin3d-{gin3d.__version__}.dist-info/METADATA")
    assert f"\nVersion: {gin3d.__version__}\n" in info.decode()  # pyproject reads __version__
    for path in sorted((ROOT / "gin3d").rglob("*.py")):
        assert path.relative_to(ROOT).as_posix() in names, f"{path.name} is not in the wheel"
    chapters = sorted((ROOT / "gin3d" / "tutorial" / "chapters").glob("*.json"))
    for path in chapters:
        assert path.relative_to(ROOT).as_posix() in names
    art = [p for folder in ART for p in sorted((ROOT / folder).iterdir()) if p.is_file()]
    assert art
    for path in art:
        assert f"gin3d/_assets/{path.relative_to(ROOT).as_posix()}" in names, path.name

    started = time.monotonic()
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site_dir = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # --system-site-packages shows the base interpreter's packages; when the tests run in a
    # virtual environment themselves (the README's .venv), Panda3D, numpy and pip are in that
    # one's site-packages, so those folders are added too (a path in a .pth file: their own
    # .pth files, such as an editable gin3d's, are not run)
    (site_dir / "gin3d_test_parent_site.pth").write_text(
        "".join(f"{p}\n" for p in site.getsitepackages() if Path(p).is_dir())
    )
    # --ignore-installed: this machine may hold an editable gin3d in its own site-packages
    installed = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-index",
            "--ignore-installed",
            "--no-compile",
            str(wheel),
        ],
        cwd=tmp_path,
        env=_quiet_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    install_s = time.monotonic() - started
    package = site_dir / "gin3d"
    assert (package / "_assets" / "textures" / "cards_atlas.json").is_file()

    run_dir.mkdir()
    env = _quiet_env(
        GIN3D_OFFSCREEN="1",
        GIN3D_EXIT_AFTER_FIRST_FRAME="1",
        GIN3D_HOME=str(tmp_path / "home"),
        HOME=str(tmp_path / "home"),
    )
    started = time.monotonic()
    game = subprocess.run(
        [str(env_dir / "bin" / "gin3d")],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    start_s = time.monotonic() - started
    out = game.stdout + game.stderr
    assert game.returncode == 0, out[-3000:]
    assert "gin3d: first frame rendered" in out, out[-3000:]
    assert f"gin3d: version {gin3d.__version__}\n" in out, out[-3000:]
    found = re.search(
        r"gin3d: data found: (\d+) tutorial chapters, (\d+) sounds "
        r"\(art from (.+)\)",
        out,
    )
    assert found, out[-3000:]
    assert int(found[1]) == len(chapters) > 0
    assert int(found[2]) == len(list((ROOT / "sounds").glob("*.wav"))) > 0
    art_root = Path(found[3]).resolve()
    assert art_root == (package / "_assets").resolve(), art_root
    assert ROOT.resolve() not in (art_root, *art_root.parents)

    # the code that ran is the installed copy too, and it knows its version from its metadata
    where = subprocess.run(
        [str(python), "-c", "import gin3d; print(gin3d.__file__)"],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).resolve().parent == package.resolve()
    version = subprocess.run(
        [str(env_dir / "bin" / "gin3d"), "--version"],
        cwd=run_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert version.stdout == f"gin3d {gin3d.__version__}\n", version.stdout + version.stderr
    print(
        f"wheel {wheel.stat().st_size / 1e6:.2f} MB; build {build_s:.1f} s, "
        f"venv + install {install_s:.1f} s, first frame {start_s:.1f} s"
    )
