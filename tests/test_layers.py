"""The layers of DESIGN.md, read from the code's own imports: every import points down, no
circles between the parts, and Panda3D only in the scene, the app and the launcher; inside
the scene, its sub-packages import each other in one order (``gin3d/scene/__init__.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

from plain_failures import parse_source

PKG = Path(__file__).resolve().parent.parent / "gin3d"
SERVICES = {
    "paths",
    "saves",
    "settings",
    "stats",
    "history",
    "recorder",
    "undo",
    "tournament",
    "built_in",
}
# what each part may import of gin3d (DESIGN.md's table; the file services sit beside the
# engine and use only it and each other; ``players`` picks an AI for a seat)
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "ai": {"engine"},
    "players": {"engine", "ai"},
    "net": {"engine", "paths", "__init__"},  # __init__: the version (gin3d-relay --version)
    "driver": {"engine", "ai"},  # the one game loop and its seats
    "tutorial": {"engine", "ai", "players", "paths"},
    **{s: {"engine", "__init__"} | SERVICES for s in SERVICES},  # __init__: the version
    "arena": {"engine", "ai", "players"},
    # the player's progress: achievements decided from the records (names from players)
    "achievements": {"engine", "players"} | SERVICES,
    "progress": {"engine", "achievements"} | SERVICES,
    "scene": {"engine", "ai", "players", "net", "tutorial", "driver", "__init__"} | SERVICES,
    "app": {"engine", "ai", "players", "net", "tutorial", "driver", "scene", "__init__"}
    | {"achievements", "progress"}
    | SERVICES,
    "__main__": {"app", "net", "scene", "settings", "__init__"},
    "__init__": set(),
}
# command-line entry points inside a part may also pick a computer seat
ENTRY_POINTS = {("net", "cli.py"): {"players"}}
PANDA_PARTS = {"scene", "app", "__main__"}
SCENE = PKG / "scene"
# what each of the scene's sub-packages may import of the others
SCENE_ALLOWED: dict[str, set[str]] = {
    "media": set(),
    "ui": {"media"},
    "tabletop": {"media", "ui"},
    "control": {"media", "ui", "tabletop"},
    "scripted": {"media", "ui", "tabletop", "control"},
    "window": {"media", "ui", "tabletop"},
}


def _part(rel: Path) -> str:
    return rel.parts[0].removesuffix(".py") if len(rel.parts) > 1 else rel.stem


def _targets(path: Path, pkg: Path | None = None) -> list[tuple[str, int]]:
    """(absolute module, line) for every import in one file of gin3d (found at ``pkg``)."""
    rel = path.relative_to(pkg or PKG)
    here = ["gin3d", *rel.with_suffix("").parts]
    if rel.name == "__init__.py":
        here = here[:-1] + ["__init__"]
    out = []
    for node in ast.walk(parse_source(path.read_text(encoding="utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: -node.level]
                names = [".".join(base + ([node.module] if node.module else []))]
                if not node.module:  # "from . import x": x is a sibling module
                    names = [".".join(base + [a.name]) for a in node.names]
            else:
                names = [node.module or ""]
        out.extend((name, node.lineno) for name in names)
    return out


def _imports(path: Path) -> list[tuple[str, int]]:
    """(top-level gin3d part or 'panda3d', line) for every import in one file."""
    out = []
    for name, line in _targets(path):
        parts = name.split(".")
        if parts[0] in ("panda3d", "direct"):
            out.append(("panda3d", line))
        elif parts[0] == "gin3d":
            out.append((parts[1] if len(parts) > 1 else "__init__", line))
    return out


def _scene_imports(path: Path, scene: Path | None = None) -> list[tuple[str, int]]:
    """(scene sub-package, line) for every import of the scene in one file of it."""
    out = []
    for name, line in _targets(path, (scene or SCENE).parent):
        parts = name.split(".")
        if parts[:2] == ["gin3d", "scene"] and len(parts) > 2:
            out.append((parts[2], line))
    return out


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of the graph (its nodes in order, the first again at the end), or []."""
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    return trail + [nxt]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))
    return []


def _graph() -> dict[str, dict[str, list[str]]]:
    graph: dict[str, dict[str, list[str]]] = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG)
        part = _part(rel)
        for target, line in _imports(path):
            graph.setdefault(part, {}).setdefault(target, []).append(f"{rel}:{line}")
    return graph


def test_every_import_points_down_the_layers():
    wrong = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG)
        part = _part(rel)
        allowed = ALLOWED.get(part)
        assert allowed is not None, f"gin3d/{rel}: a part DESIGN.md's layers do not name"
        extra = ENTRY_POINTS.get((part, rel.name), set())
        for target, line in _imports(path):
            if target == "panda3d":
                if part not in PANDA_PARTS:
                    wrong.append(f"gin3d/{rel}:{line} imports Panda3D")
            elif target != part and target not in allowed | extra:
                wrong.append(f"gin3d/{rel}:{line} ({part}) imports gin3d.{target}")
    assert not wrong, "\n".join(wrong)


def test_no_circles_between_the_parts():
    graph = {p: {t for t in ts if t not in (p, "panda3d")} for p, ts in _graph().items()}
    circle = _circle(graph)
    assert not circle, "a circle: " + " -> ".join(circle)


def test_the_scene_sub_packages_import_in_their_order():
    """Every module of the scene is in a sub-package, and each sub-package imports only those
    before it (which also means no circles between them)."""
    wrong = []
    for path in sorted(SCENE.rglob("*.py")):
        rel = path.relative_to(SCENE)
        if len(rel.parts) == 1:
            assert rel.name == "__init__.py", f"gin3d/scene/{rel}: not in a sub-package"
            continue
        sub = rel.parts[0]
        allowed = SCENE_ALLOWED.get(sub)
        assert allowed is not None, f"gin3d/scene/{rel}: a sub-package the order does not name"
        for target, line in _scene_imports(path):
            if target != sub and target not in allowed:
                wrong.append(f"gin3d/scene/{rel}:{line} ({sub}) imports scene.{target}")
    assert not wrong, "\n".join(wrong)
    assert not _circle(SCENE_ALLOWED)


def test_the_check_sees_a_wrong_import(tmp_path, monkeypatch):
    """The scan itself: an engine module importing the scene is found."""
    fake = tmp_path / "gin3d"
    (fake / "engine").mkdir(parents=True)
    (fake / "engine" / "bad.py").write_text("from ..scene import table\nimport panda3d.core\n")
    monkeypatch.setattr(__import__(__name__), "PKG", fake)
    assert _imports(fake / "engine" / "bad.py") == [("scene", 1), ("panda3d", 2)]


def test_the_check_sees_a_scene_import_out_of_order(tmp_path):
    """The scene's scan: a ui module importing the table's control is found, relative or
    absolute, and a circle is found."""
    scene = tmp_path / "gin3d" / "scene"
    (scene / "ui").mkdir(parents=True)
    bad = scene / "ui" / "bad.py"
    bad.write_text("from ..control import tableinput\nimport gin3d.scene.tabletop.table\n")
    assert _scene_imports(bad, scene) == [("control", 1), ("tabletop", 2)]
    assert _circle({"ui": {"control"}, "control": {"ui"}}) == ["ui", "control", "ui"]


def test_only_the_engine_reads_a_games_private_state():
    """A game's decks and log are read through its public API (``Game.decks``,
    ``Game.from_log``), never through ``Game._decks`` from outside the engine."""
    readers = []
    for path in sorted(PKG.rglob("*.py")):
        if path.relative_to(PKG).parts[0] == "engine":
            continue
        for node in ast.walk(parse_source(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and node.attr == "_decks":
                readers.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert readers == []
