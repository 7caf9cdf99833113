"""A failure is always reported, even when Python cannot parse source to show it.

On Debian's Python 3.11.2 ``ast.parse`` now and then raises ``SystemError: AST constructor
recursion depth mismatch`` (a CPython bug fixed in later 3.11 releases). pytest parses the
source of every traceback entry to show a failure, so the error escaped from the report
hook: the worker crashed, the whole run stopped, and the failure's own message was lost.
This plugin catches that error while a report is made and reports the failure plainly
instead: its message and the file, line and function of each frame, read without parsing.
"""

from __future__ import annotations

import re
import traceback

import pytest

MISMATCH = "recursion depth mismatch"
INTERNAL = re.compile(r"[\\/](_pytest|pluggy)[\\/]")  # frames of pytest's own machinery


def plain_failure(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """The failure as text built without ``ast``: where each frame was, then the error."""
    frames = [f for f in traceback.extract_tb(excinfo.tb) if not INTERNAL.search(f.filename)]
    lines = ["Traceback (shown plainly: the source could not be parsed):"]
    for f in frames:
        lines.append(f"  {f.filename}:{f.lineno} in {f.name}")
        if f.line:
            lines.append(f"    {f.line}")
    lines.append(f"{excinfo.typename}: {excinfo.value}")
    return "\n".join(lines)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    try:
        return (yield)
    except SystemError as error:
        if MISMATCH not in str(error) or call.excinfo is None:
            raise
        excinfo = call.excinfo
        # a failing test is shown by repr_failure, a failing fixture by _repr_failure_py
        item.repr_failure = lambda *_: plain_failure(excinfo)  # type: ignore[method-assign]
        item._repr_failure_py = lambda *_, **__: plain_failure(excinfo)  # type: ignore[method-assign]
        try:
            return pytest.TestReport.from_item_and_call(item, call)
        finally:
            del item.repr_failure, item._repr_failure_py


def parse_source(text: str, filename: str = "<source>"):
    """``ast.parse``, tried again when the interpreter's bug above strikes (the same text
    parses the next time): the tests that read the code's structure use it."""
    import ast

    try:
        return ast.parse(text, filename=filename)
    except SystemError as error:
        if MISMATCH not in str(error):
            raise
        return ast.parse(text, filename=filename)
