#!/usr/bin/env bash
# Create or refresh .venv from the project's own files. pip runs only when pyproject.toml
# changed since the last install (a stamp in .venv holds its hash), so a second run is instant.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
stamp=.venv/.project-hash
want=$(cat pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install -q -e ".[dev]"
  echo "$want" > "$stamp"
fi
