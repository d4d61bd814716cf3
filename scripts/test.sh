#!/usr/bin/env bash
# Set up the virtual environment from the project's own files (scripts/setup.sh: pip runs only
# when pyproject.toml or constraints.txt changed), then check and test:
#   ruff check .            lint (pyproject's [tool.ruff])
#   ruff format --check .   formatting
#   mypy                    types, strict, on [tool.mypy]'s files
#   lint-imports            the layers ([tool.importlinter]'s contracts)
#   pytest                  the whole test suite; extra arguments go to pytest
# Every step runs even when an earlier one failed; the script then exits non-zero and names the
# steps that failed. SKIP_LINT=1 runs pytest alone (quick runs of a few tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bin=.venv/bin
failed=()

step() {
  local name=$1
  shift
  echo "== $name" >&2
  if ! "$@"; then
    failed+=("$name")
  fi
}

if [ "${SKIP_LINT:-0}" != 1 ]; then
  step "ruff check" "$bin/ruff" check .
  step "ruff format" "$bin/ruff" format --check .
  step "mypy" "$bin/mypy"
  step "lint-imports" "$bin/lint-imports" --no-logo
fi
step "pytest" "$bin/python" -m pytest -q "$@"

if [ "${#failed[@]}" -gt 0 ]; then
  (IFS=","; echo "FAILED: ${failed[*]}" >&2)
  exit 1
fi
