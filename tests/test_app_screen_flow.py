"""The screens' declared transitions, read from the screens' own code, and held at run time.

Every request a screen makes (a button's ``self.request("X")``, its Esc target, a helper
method of its class it calls that requests) must lead to a screen that ``flow.TRANSITIONS``
declares for it; every declared screen exists; an undeclared request is refused without a crash.
"""

from __future__ import annotations

import ast
from pathlib import Path

from plain_failures import parse_source
from scene_harness import get_app

from gin3d.app.screens import SCREENS, TRANSITIONS
from gin3d.app.screens.flow import HOME

SOURCE = Path(__file__).resolve().parent.parent / "gin3d" / "app" / "screens"


def _classes() -> dict[str, ast.ClassDef]:
    """Every class of the screens' modules, by name."""
    out = {}
    for path in SOURCE.glob("*.py"):
        for node in ast.walk(parse_source(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                out[node.name] = node
    return out


def _state_name(cls: ast.ClassDef) -> str | None:
    """A screen class's ``name = "X"`` (its state), None for a class that is no screen."""
    for node in cls.body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["name"]:
            if isinstance(node.value, ast.Constant):
                return node.value.value
    return None


def _methods(classes: dict[str, ast.ClassDef], name: str) -> dict[str, ast.FunctionDef]:
    """A class's methods with those it inherits from the screens' classes (its own win)."""
    cls = classes[name]
    out = {}
    for base in reversed(cls.bases):
        if isinstance(base, ast.Name) and base.id in classes:
            out.update(_methods(classes, base.id))
    out.update({f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)})
    return out


def _literal_targets(fn: ast.FunctionDef) -> tuple[set[str], set[str]]:
    """(screens ``fn`` requests by name, the methods of ``self`` it names)."""
    targets, named = set(), set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "self":
                named.add(node.attr)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        args, what = node.args, node.func.attr
        if what in ("request", "_esc") and args and isinstance(args[0], ast.Constant):
            if args[0].value:
                targets.add(args[0].value)
        if what == "accept" and len(args) >= 3 and ast.unparse(args[1]) == "self.request":
            if isinstance(args[2], ast.List) and isinstance(args[2].elts[0], ast.Constant):
                targets.add(args[2].elts[0].value)
    return targets, named


def requests_by_screen() -> dict[str, set[str]]:
    """Each screen's requests: its class's ``enter`` and every helper of its class (or the
    classes it is made from) that it reaches."""
    classes = _classes()
    out = {}
    for cls_name, cls in classes.items():
        state = _state_name(cls)
        if state is None:
            continue
        methods = _methods(classes, cls_name)
        found = {name: _literal_targets(fn) for name, fn in methods.items()}
        seen, todo, targets = set(), ["enter"], set()
        while todo:
            m = todo.pop()
            if m in seen:
                continue
            seen.add(m)
            got, named = found[m]
            targets |= got
            todo += [n for n in named if n in found]
        out[state] = targets
    return out


def test_every_request_a_screen_makes_is_declared():
    found = requests_by_screen()
    assert len(found) >= 20, sorted(found)  # the scan sees the screens
    undeclared = {
        screen: sorted(t for t in targets if t != HOME and t not in TRANSITIONS.get(screen, ()))
        for screen, targets in found.items()
    }
    assert not any(undeclared.values()), {k: v for k, v in undeclared.items() if v}


def test_every_declared_screen_exists_and_every_screen_is_declared():
    states = set(SCREENS)
    declared = set(TRANSITIONS) | {t for ts in TRANSITIONS.values() for t in ts}
    assert declared <= states, declared - states
    assert states <= set(TRANSITIONS), states - set(TRANSITIONS)


def test_an_undeclared_request_is_refused_and_nothing_changes():
    app = get_app()
    app.request("Menu")
    app.request("Rules", "Menu")
    assert app.screens.state == "Rules"
    before = len(app.screens.refused)
    assert app.screens.request("Replay", None) is None  # the rules screen never leads to a replay
    assert app.screens.state == "Rules"
    assert app.screens.refused[before:] == [("Rules", "Replay")]
    app.messenger.send("escape")  # the screen still works
    assert app.screens.state == "Menu"


def test_the_tutorial_chapter_list_and_a_chapter_are_screens_of_the_one_flow():
    app = get_app()
    app.request("Menu")
    app.screens.panel.buttons["tutorial"]["command"]()
    assert app.screens.state == "Tutorial"
    book = app.screens.tutorial
    book.menu.buttons["chapter1"]["command"]()
    assert app.screens.state == "Lesson" and book.view is not None
    app.messenger.send("escape")  # Esc: the chapter list, through the same FSM
    assert app.screens.state == "Tutorial" and book.view is None
    assert app.screens.panel is book.menu
    app.messenger.send("escape")
    assert app.screens.state == "Menu" and app.screens.tutorial is None


def test_the_setup_says_each_opponents_strength_in_words():
    app = get_app()
    app.request("Menu")
    app.request("Setup")
    shown = {}
    for _ in range(4):  # the Opponent row cycles through the levels
        shown[app.setup.level] = app.screens.current.portrait.getText()
        app.screens.panel.buttons["level"]["command"]()
    assert set(shown) == {"beginner", "simple", "hard", "expert"}
    assert "Strength: very strong" in shown["expert"] and "Strength: gentle" in shown["beginner"]
    app.request("Menu")
