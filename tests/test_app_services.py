"""Screens are one class per screen, handed ``ScreenServices`` and never the whole app.

Read from the screens' source: no screen module names the app (``.app``, an ``app``
argument, ``GinApp``) or imports ``game_app`` to run; everything a screen asks of
``self.services`` is a member ``ScreenServices`` declares. Held at run time: every state of
``flow.TRANSITIONS`` has a registered screen class with its own ``enter``, the FSM's
``enterX``/``exitX`` are that screen's, and no screen keeps the app in an attribute.
"""

from __future__ import annotations

import ast
from pathlib import Path

from plain_failures import parse_source
from scene_harness import get_app

from gin3d.app.game_app import GinApp
from gin3d.app.screens import SCREENS, TRANSITIONS, Screen
from gin3d.app.services import ScreenServices

SOURCE = Path(__file__).resolve().parent.parent / "gin3d" / "app" / "screens"


def _modules() -> dict[str, ast.Module]:
    return {
        p.name: parse_source(p.read_text(encoding="utf-8"), str(p)) for p in SOURCE.glob("*.py")
    }


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the imports under ``if TYPE_CHECKING:`` (types only, nothing that runs)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            out |= {id(n) for n in ast.walk(node) if isinstance(n, ast.ImportFrom)}
    return out


def test_no_screen_module_names_the_app():
    found = []
    for name, tree in _modules().items():
        typing_only = _type_checking_only(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "app":
                found.append(f"{name}:{node.lineno} .app")
            elif isinstance(node, ast.Name) and node.id in ("app", "GinApp"):
                found.append(f"{name}:{node.lineno} {node.id}")
            elif isinstance(node, ast.arg) and node.arg == "app":
                found.append(f"{name}:{node.lineno} an app argument")
            elif isinstance(node, ast.ImportFrom) and id(node) not in typing_only:
                if (node.module or "").endswith("game_app"):
                    found.append(f"{name}:{node.lineno} imports game_app")
    assert not found, found


def test_what_the_screens_ask_of_their_services_is_declared_there():
    asked = set()
    for tree in _modules().values():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "services"
            ):
                asked.add(node.attr)
    assert len(asked) > 10, sorted(asked)  # the scan sees the screens
    declared = {n for n in vars(ScreenServices) if not n.startswith("_")}
    assert asked <= declared, sorted(asked - declared)


def test_every_declared_state_has_a_screen_class_with_enter_and_exit():
    states = set(TRANSITIONS) | {t for ts in TRANSITIONS.values() for t in ts}
    assert states == set(SCREENS), states ^ set(SCREENS)
    for state, cls in SCREENS.items():
        assert issubclass(cls, Screen) and cls.name == state
        assert cls.enter is not Screen.enter, f"{cls.__name__} has no enter of its own"
        assert callable(cls.exit)


def test_the_fsm_dispatches_to_the_registered_screens_which_hold_only_the_services():
    app = get_app()
    flow = app.screens
    assert isinstance(flow.services, ScreenServices) and "app" not in vars(flow)
    assert set(flow.screens) == set(SCREENS)
    for state, screen in flow.screens.items():
        assert type(screen) is SCREENS[state]
        assert screen.services is flow.services and screen.flow is flow
        assert getattr(flow, f"enter{state}") == screen.enter
        assert getattr(flow, f"exit{state}") == screen.exit
        held = [k for k, v in vars(screen).items() if isinstance(v, GinApp)]
        assert not held, (state, held)
    app.request("Menu")
    assert flow.current is flow.screens["Menu"]
