"""One source of pinned versions: requirements.txt (the game's packages) and
requirements-test.txt (the same pins plus the test tools), both made by tools/lock.sh from
pyproject.toml's ranges. The README's commands, CI and the packaged build install from them."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ImportError:  # Python 3.10: pytest brings tomli
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def pins(name: str) -> list[Requirement]:
    """The pinned lines of a lock file, comments dropped."""
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    found = [Requirement(line) for line in lines if line.strip() and line[0] not in " #"]
    assert found, f"{name} pins nothing"
    return found


def pinned_versions(name: str) -> dict[str, str]:
    """Package -> version for this Python (a lock holds a line per Python where they differ)."""
    versions: dict[str, str] = {}
    for req in pins(name):
        if req.marker is not None and not req.marker.evaluate():
            continue
        (spec,) = req.specifier
        assert spec.operator == "==", f"{req} is not pinned"
        key = canonicalize_name(req.name)
        assert key not in versions, f"{req.name} pinned twice for this Python in {name}"
        versions[key] = spec.version
    return versions


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def extra(name: str) -> list[str]:
    return project()["optional-dependencies"][name]


@pytest.mark.parametrize(
    ("lock", "wanted"),
    [
        ("requirements.txt", lambda p: p["dependencies"]),
        ("requirements-test.txt", lambda p: p["dependencies"] + extra("test") + extra("build-tls")),
    ],
)
def test_every_dependency_is_pinned_inside_its_range(lock, wanted):
    versions = pinned_versions(lock)
    for line in wanted(project()):
        req = Requirement(line)
        key = canonicalize_name(req.name)
        assert key in versions, f"{req.name} (pyproject.toml) is not in {lock}: run tools/lock.sh"
        assert req.specifier.contains(versions[key], prereleases=True), (
            f"{lock} pins {req.name}=={versions[key]}, outside pyproject's {req.specifier}"
        )


def test_the_test_lock_keeps_the_game_s_pins():
    game = pinned_versions("requirements.txt")
    test = pinned_versions("requirements-test.txt")
    assert {k: test.get(k) for k in game} == game


def test_the_style_checker_is_pinned():
    assert "ruff" in pinned_versions("requirements-test.txt")


@pytest.mark.skipif(
    sys.prefix == sys.base_prefix,
    reason="not in a virtual environment: the README's test command installs the lock into one",
)
def test_this_environment_holds_the_locked_versions():
    build_only = {canonicalize_name(Requirement(r).name) for r in extra("build-tls")}
    wrong = {}
    for key, version in pinned_versions("requirements-test.txt").items():
        if key in build_only:  # a wheel setup_build.py takes files from, never installed
            continue
        try:
            installed = metadata.version(key)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong[key] = (installed, version)
    assert not wrong, f"installed vs locked: {wrong}"
