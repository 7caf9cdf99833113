"""A tiny, safe expression language for the lesson files' claims and conditions.

Lessons say things like ``deadwood(0) == 8`` or ``points == gin_bonus + 23``; the runner checks
them against the live engine state at every step. Only literals, names from the step's
namespace, whitelisted functions, comparisons, ``and``/``or``/``not`` and ``+ - *`` are
allowed, so a lesson file can never run arbitrary code.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
}
_ALLOWED = (
    ast.Expression,
    ast.Compare,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.BinOp,
    ast.Constant,
    ast.Name,
    ast.Load,
    ast.Call,
    ast.List,
    ast.Tuple,
    *_COMPARE,
    *_BINARY,
)


class ExpressionError(ValueError):
    """A claim or condition that cannot be parsed or evaluated; the message says why."""


def parse_expression(text: str) -> ast.Expression:
    """Parse and check ``text``; raise ExpressionError for anything outside the language."""
    if not isinstance(text, str) or not text.strip():
        raise ExpressionError(f"an expression must be non-empty text, got {text!r}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse {text!r}: {exc.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExpressionError(f"{type(node).__name__} is not allowed in {text!r}")
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.keywords):
            raise ExpressionError(f"only plain calls like f(1, 'x') are allowed in {text!r}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, str, bool)):
            raise ExpressionError(f"constant {node.value!r} is not allowed in {text!r}")
    return tree


def evaluate(text: str, names: Mapping[str, Any]) -> Any:
    """The value of ``text`` with ``names`` (values and callables) in scope."""
    tree = parse_expression(text)

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise ExpressionError(f"unknown name {node.id!r} in {text!r}")
            return names[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return (not value) if isinstance(node.op, ast.Not) else -value
        if isinstance(node, ast.BinOp):
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(ev(v) for v in node.values)
            return any(ev(v) for v in node.values)
        if isinstance(node, ast.Compare):
            return _chain_holds(node, ev)
        if isinstance(node, ast.Call):
            func = names.get(node.func.id)
            if not callable(func):
                raise ExpressionError(f"unknown function {node.func.id!r} in {text!r}")
            return func(*(ev(a) for a in node.args))
        raise ExpressionError(f"cannot evaluate {ast.dump(node)} in {text!r}")

    return ev(tree)


def _chain_holds(node: ast.Compare, ev: Callable[[ast.AST], Any]) -> bool:
    """Whether every link of ``a < b <= c`` holds; operands are evaluated left to right
    and no further than the first link that fails."""
    left = ev(node.left)
    for op, right_node in zip(node.ops, node.comparators):
        right = ev(right_node)
        if not _COMPARE[type(op)](_plain(left), _plain(right)):
            return False
        left = right
    return True


def _plain(value: Any) -> Any:
    """Cards compare with their text form (``top == 'QH'``); everything else as is."""
    from gin3d.engine import Card

    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
