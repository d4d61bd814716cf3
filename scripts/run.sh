#!/usr/bin/env bash
# Set up the virtual environment from the project's own files (scripts/setup.sh: pip runs only
# when pyproject.toml or constraints.txt changed) and run the bot: python -m turnpost ARGS. Without
# arguments, a local game in the terminal against a computer player (no Discord account, no
# token, no network).
#   bash scripts/run.sh local --seats "Ana,Bo,ai:heuristic"   # hot-seat + AI
#   bash scripts/run.sh demo --players 4 --seed 7 demo-out     # an all-AI game with pictures
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "$#" -eq 0 ]; then
  set -- local
fi
exec .venv/bin/python -m turnpost "$@"
