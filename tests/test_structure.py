"""The code's shape (issue 7, Structure): the rules modules import each other without a cycle
(lazy imports included), no module imports another module's underscore names, and no import
circle joins the top-level packages (the layers) or the modules of bot/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "rules",
    "i18n",
    "render",
    "ai",
    "bot",
    "storage",
    "service",
    "web",
    "terminal",
    "devtools",
    "turnpost",
)


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, imported name or None) for every ``from X import y`` / ``import X``."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.extend((node.module, a.name) for a in node.names)
        elif isinstance(node, ast.Import):
            out.extend((a.name, None) for a in node.names)
    return out


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _rules_graph() -> dict[str, set[str]]:
    """Every module of the rules packages (each game's and the shared ones) -> the rules
    modules it imports (``from rules.brazil import actions`` counts as the module)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / "rules").rglob("*.py")):
        mod = _module_name(path)
        deps: set[str] = set()
        for module, name in _imports(path):
            if module != "rules" and not module.startswith("rules."):
                continue
            sub = ROOT.joinpath(*module.split("."), f"{name}.py") if name else None
            if sub is not None and sub.exists():
                deps.add(f"{module}.{name}")
            elif module != mod:
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


@pytest.mark.slow
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


# --------------------------------------------------------------------------- import circles
# The graph of the project's own modules as they run: module-level and function-level imports
# count (a lazy import still ties the two modules together), `if TYPE_CHECKING:` blocks do not
# (they never run). `from a import b` counts as importing the module a.b where there is one.
# The layers themselves are checked by import-linter (pyproject.toml, tests/test_contracts.py).


def _module_names() -> dict[str, Path]:
    """Every module of the project's packages -> its file (`bot.cogs` for bot/cogs/__init__.py)."""
    names: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(
    module: str, path: Path, modules: dict[str, Path], *, typing_too: bool = False
) -> set[str]:
    """The project modules `module` imports when it runs (see above), itself left out;
    ``typing_too``: its `if TYPE_CHECKING:` imports as well (the whole picture of who names
    whom)."""
    found: set[str] = set()

    def resolve(name: str) -> str | None:
        parts = name.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        return ".".join(parts) if parts else None

    def base_of(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        return ".".join([*package, *([node.module] if node.module else [])])

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test) and not typing_too:
            for stmt in node.orelse:
                visit(stmt)
            return
        targets: list[str | None] = []
        if isinstance(node, ast.Import):
            targets = [resolve(a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = base_of(node)
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in modules else resolve(base)
                for a in node.names
            ]
        found.update(t for t in targets if t is not None and t != module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _module_graph(*, typing_too: bool = False) -> dict[str, set[str]]:
    modules = _module_names()
    return {
        mod: _runtime_imports(mod, path, modules, typing_too=typing_too)
        for mod, path in modules.items()
    }


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One shortest circle through each group of mutually importing nodes (strongly connected
    component), as `[a, b, …, a]`; nodes and groups in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: set[str] = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    circles = []
    for group in sorted(groups, key=min):
        start = min(group)
        paths = {start: [start]}
        queue = [start]
        while queue:  # breadth first, inside the group, back to start
            v = queue.pop(0)
            nxt = sorted(w for w in graph[v] if w in group)
            if start in nxt:
                circles.append([*paths[v], start])
                break
            for w in nxt:
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    queue.append(w)
    return circles


def test_runtime_imports_count_lazy_ones_but_not_type_checking(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "from p import b\n"
        "from .c import thing\n"
        "if TYPE_CHECKING:\n"
        "    import p.d\n"
        "else:\n"
        "    import p.e.x\n"
        "def f() -> None:\n"
        "    from p.f import g\n",
        encoding="utf-8",
    )
    modules = {m: path for m in ("p", "p.a", "p.b", "p.c", "p.d", "p.e", "p.f")}
    assert _runtime_imports("p.a", path, modules) == {"p.b", "p.c", "p.e", "p.f"}


def _unit(module: str) -> str:
    """The layer a module belongs to: its top-level package."""
    return module.split(".")[0]


@pytest.mark.slow
def test_no_import_circle_between_the_top_level_packages() -> None:
    units: dict[str, set[str]] = {}
    for mod, deps in _module_graph().items():
        units.setdefault(_unit(mod), set()).update(_unit(d) for d in deps if _unit(d) != _unit(mod))
    assert units.keys() >= {"rules", "service", "bot", "render", "terminal", "turnpost"}
    assert _circles(units) == []


def test_circles_finds_every_group_once() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}}
    assert _circles(graph) == [["a", "b", "c", "a"], ["e", "f", "e"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.slow
def test_no_import_circle_inside_bot() -> None:
    # Today's only circle in bot/ is type-only (bot.app <-> bot.cogs.*, whose `TurnpostBot`
    # annotations sit under `if TYPE_CHECKING:`), so it does not count. If a change in bot/
    # brings a circle back, the message names it; mark this test
    # `@pytest.mark.xfail(strict=False, reason=...)` only while that circle is being undone.
    graph = {
        mod: {d for d in deps if d.split(".")[0] == "bot"}
        for mod, deps in _module_graph().items()
        if mod.split(".")[0] == "bot"
    }
    circles = _circles(graph)
    assert circles == [], "import circles in bot/:\n" + "\n".join(" -> ".join(c) for c in circles)


@pytest.mark.slow
def test_no_import_circle_inside_service_not_even_for_types() -> None:
    """The service's parts (session, reading, places, turn) name what they use of the core
    and of the service by protocols of their own pages (``service.session.Core``,
    ``service.turn.Service``), so not even a type-only import closes a circle in service/
    (issue #28: the core split into parts with 0 circles)."""
    graph = {
        mod: {d for d in deps if d.split(".")[0] == "service"}
        for mod, deps in _module_graph(typing_too=True).items()
        if mod.split(".")[0] == "service"
    }
    circles = _circles(graph)
    assert circles == [], "import circles in service/:\n" + "\n".join(
        " -> ".join(c) for c in circles
    )
