"""The code's shape (issue 7, Structure): the rules modules import each other without a cycle
(lazy imports included), and no module imports another module's underscore names."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "ai", "bot", "storage", "service", "terminal", "devtools")


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, imported name or None) for every ``from X import y`` / ``import X``."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.extend((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend((a.name, None) for a in node.names)
    return out


def _rules_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "rules").glob("*.py")):
        mod = f"rules.{path.stem}"
        deps: set[str] = set()
        for module, name in _imports(path):
            if module == "rules" and name is not None and (ROOT / "rules" / f"{name}.py").exists():
                deps.add(f"rules.{name}")
            elif module.startswith("rules.") and module != mod:
                deps.add(module)
        graph[mod] = deps
    return graph


def test_rules_modules_import_without_a_cycle() -> None:
    graph = _rules_graph()
    state: dict[str, int] = {}  # 1 = on the path, 2 = done
    cycles: list[list[str]] = []

    def visit(mod: str, path: list[str]) -> None:
        state[mod] = 1
        for dep in sorted(graph.get(mod, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[mod] = 2

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def test_no_module_imports_another_modules_private_names() -> None:
    bad = []
    for pkg in (*PACKAGES, "tests"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            for module, name in _imports(path):
                if (
                    module.split(".")[0] in PACKAGES
                    and name is not None
                    and name.startswith("_")
                    and not name.startswith("__")
                ):
                    bad.append(f"{path.relative_to(ROOT)}: from {module} import {name}")
    assert not bad, "\n".join(bad)
