"""The README's two set-up commands work on a Python that refuses system-wide installs
(PEP 668: Debian 12's own): they make a virtual environment first and install into it, and
CI (.ci/run) runs exactly the test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_the_setup_commands_install_into_a_virtual_environment():
    play, test = setup_commands()
    assert play == (
        "python3 -m venv .venv && .venv/bin/pip install -c requirements.txt -e . && .venv/bin/gin3d"
    )
    assert test == (
        "python3 -m venv .venv && .venv/bin/pip install -c requirements-test.txt"
        ' -e ".[test]" && .venv/bin/python -m pytest -n 2 --dist loadfile'
        " --no-loadscope-reorder"
    )
    for command in (play, test):
        # nothing is installed with the system's pip, which PEP 668 refuses
        assert "python3 -m pip" not in command and not command.startswith("pip")
    assert "apt-get install python3-venv" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command():
    _, test = setup_commands()
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test in lines
    assert lines[-1] == test  # the last thing CI does, so its status is CI's
