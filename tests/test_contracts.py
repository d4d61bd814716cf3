"""The layers (pyproject.toml's [tool.importlinter] contracts) hold: one test per contract runs
import-linter on this checkout, so the README's test command enforces them. scripts/test.sh
also runs `lint-imports` before pytest."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "importlinter"
]["contracts"]
# `lint-imports` run by this interpreter: the venv's import-linter (the dev extra: missing, the
# tests fail), with this checkout first on sys.path (`python -c` puts the working folder there)
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def test_the_layers_have_their_contracts() -> None:
    assert {c["id"] for c in CONTRACTS} >= {
        "rules-pure",
        "layers",
        "render-below-the-app",
        "no-discord-below-bot",
        "surfaces-through-the-service",
    }


def test_no_contract_has_an_exception() -> None:
    """Issue 28: no upward arrow is excused: the contracts ignore no import."""
    assert [c["id"] for c in CONTRACTS if c.get("ignore_imports")] == []


@pytest.mark.parametrize("contract", [c["id"] for c in CONTRACTS])
def test_contract_is_kept(contract: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-logo", "--no-cache", "--contract", contract],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout, run.stdout
