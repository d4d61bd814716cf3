#!/usr/bin/env bash
# Create or refresh .venv from the project's own files: the project with its `dev` (tests,
# linters) and `terminal` (prompt_toolkit) extras, every package at the exact version pinned in
# constraints.txt. pip runs only when pyproject.toml or constraints.txt changed since the last
# install (a stamp in .venv holds their hash), so a second run is instant.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
stamp=.venv/.project-hash
want=$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install -q -c constraints.txt -e ".[dev,terminal]"
  echo "$want" > "$stamp"
fi
