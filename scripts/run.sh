#!/usr/bin/env bash
# Set up the virtual environment from the project's own files and run the rules engine's
# command-line tools: python -m rules ARGS (selfplay, bench, describe; --help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
.venv/bin/python -m pip install -q -e ".[dev]"
exec .venv/bin/python -m rules "$@"
