"""The tree passes the pinned ruff: its lint rules and its formatting (pyproject.toml's
[tool.ruff]), so the README's test command, and so CI, fails on either."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    return subprocess.run(
        [found, *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_ruff_finds_nothing():
    result = ruff("check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def test_the_tree_is_formatted():
    result = ruff("format", "--check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
