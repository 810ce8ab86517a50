#!/usr/bin/env bash
# Run every check of the project from a fresh clone: system packages (installed when root), the
# full set-up from the lock files, lint, types, the test suite with doctests, then the browser
# tests in a pytest process of their own (pytest-playwright's event loop would break later
# asyncio tests in the same process).  SCC_REQUIRE_ALL=1 turns every "component missing" skip into a failure:
# here a broken install must fail the run, not turn it green with whole suites skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/system-deps.sh
else
  bash scripts/system-deps.sh --check
fi
bash scripts/setup.sh
export SCC_REQUIRE_ALL=1
echo "== ruff"; .venv/bin/ruff check src tests benchmarks examples
echo "== ruff format --check"; .venv/bin/ruff format --check src tests benchmarks examples
echo "== mypy --strict"; .venv/bin/mypy
echo "== vulture (dead code)"; .venv/bin/vulture
echo "== docs site (mkdocs --strict: guides and the API reference)"; .venv/bin/mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
echo "== pytest"; .venv/bin/pytest -p no:playwright "$@"
echo "== every option at its extremes through every shell"; .venv/bin/python scripts/extremes.py

echo "== pytest (browser: Chromium end to end)"; .venv/bin/pytest tests/web -m browser "$@"
