"""The pure parts of Kuhn poker import nothing of the platform but the shared rules modules,
and nothing that does I/O or reads a clock (the game's randomness is the state's RNG)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
PURE = ("state", "actions", "engine", "notation", "view", "game", "messages")
SHARED = {"rules.games", "rules.errors", "rules.events", "rules.text", "rules.registry"}
STDLIB = {"__future__", "collections", "collections.abc", "dataclasses", "json", "random", "typing"}
THIRD_PARTY = {"pydantic"}


def imports(module: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("module", PURE)
def test_a_pure_module_imports_only_the_shared_rules_and_the_stdlib(module: str) -> None:
    own = {f"examples.kuhn.{m}" for m in PURE}
    extra = imports(module) - own - SHARED - STDLIB - THIRD_PARTY
    assert not extra, f"examples/kuhn/{module}.py imports {sorted(extra)}"


def test_the_check_sees_the_imports() -> None:
    assert "rules.errors" in imports("engine") and "pydantic" in imports("state")
    assert imports("adapter") & {"service.games", "i18n"}  # the adapter is not pure
    assert not {"time", "os", "io", "pathlib", "datetime"} & set().union(*map(imports, PURE))
