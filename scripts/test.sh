#!/usr/bin/env bash
# Set up a virtual environment from the project's own files and run the whole test suite
# (pytest). Extra arguments are passed to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
.venv/bin/python -m pytest -q "$@"
