"""A failure whose source Python cannot parse is still reported, and the run goes on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# ``ast.parse`` failing as Debian's Python 3.11.2 now and then makes it fail, once the test
# has started (its module was already rewritten by then)
FAILING = """
import ast

real = ast.parse

def broken(*args, **kwargs):
    ast.parse = real  # once, as the bug strikes
    raise SystemError("AST constructor recursion depth mismatch (before=147, after=199)")

def test_fails_while_ast_is_broken():
    ast.parse = broken
    assert 1 + 1 == 3, "the failure's own message"

def test_after_it():
    assert True
"""


def _run(tmp_path: Path, *plugin: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_inner.py").write_text(FAILING)
    env = dict(os.environ, PYTHONPATH=str(HERE))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugin, "test_inner.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_a_failure_pytest_cannot_format_is_reported_plainly(tmp_path):
    run = _run(tmp_path, "-p", "plain_failures")
    out = run.stdout + run.stderr
    assert run.returncode == 1, out  # tests failed; not 3, pytest's own crash
    assert "INTERNALERROR" not in out
    assert "1 failed, 1 passed" in out
    assert "shown plainly" in out and "the failure's own message" in out
    line = next(i for i, t in enumerate(FAILING.splitlines(), 1) if "assert 1 + 1" in t)
    assert f"test_inner.py:{line} in test_fails_while_ast_is_broken" in out
    shown = out.split("shown plainly")[1].split("AssertionError")[0]
    assert "pluggy" not in shown and "runner.py" not in shown  # only the test's own frames


def test_without_the_plugin_the_run_crashes(tmp_path):
    """What the plugin is for: pytest alone stops the whole run on it."""
    run = _run(tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 3 and "recursion depth mismatch" in out, out
