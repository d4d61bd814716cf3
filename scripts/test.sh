#!/usr/bin/env bash
# Set up the virtual environment from the project's own files (scripts/setup.sh: pip runs only
# when pyproject.toml changed) and run the whole test suite (pytest). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -q "$@"
