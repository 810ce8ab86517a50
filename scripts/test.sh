#!/usr/bin/env bash
# Run every check of the project from a fresh clone: set-up, lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"; .venv/bin/ruff check src tests benchmarks
echo "== mypy --strict (core)"; .venv/bin/mypy
echo "== pytest"; .venv/bin/pytest "$@"
