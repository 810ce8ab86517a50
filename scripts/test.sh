#!/usr/bin/env bash
# Run every check of the project from a fresh clone: set-up, system packages (as root), lint,
# types, the test suite with doctests, then the browser tests in a pytest process of their own
# (pytest-playwright's event loop would break later asyncio tests in the same process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  bash scripts/web-deps.sh
  bash scripts/scale-deps.sh
else
  echo "note: not root, system packages (chromium, postgresql, redis-server) not installed; tests needing them skip"
fi
echo "== ruff"; .venv/bin/ruff check src tests benchmarks examples
echo "== ruff format --check"; .venv/bin/ruff format --check src tests benchmarks examples
echo "== mypy --strict"; .venv/bin/mypy
echo "== pytest"; .venv/bin/pytest -p no:playwright "$@"
echo "== pytest (browser: Chromium end to end)"; .venv/bin/pytest tests/web -m browser "$@"
