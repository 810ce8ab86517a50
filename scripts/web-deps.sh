#!/usr/bin/env bash
# Installs what the web tests need on a fresh Debian machine (run as root; idempotent):
#   - Chromium from apt for the Playwright tests (never `playwright install`: it downloads a
#     browser, which fails here, and the tests use /usr/bin/chromium),
#   - the PostgreSQL server binaries (the tests start their own throwaway cluster),
#   - Node.js/npm and axe-core (npm, into tests/web/node_modules) for the accessibility audit,
#   - the Python packages of the web app and its tests into .venv (if there is one).
#
#   sudo scripts/web-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "web-deps.sh: run as root (apt-get needs it)" >&2
  exit 2
fi

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/lib/postgresql/15/bin/initdb ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
command -v runuser >/dev/null 2>&1 || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}"
fi
# The tests start their own PostgreSQL cluster; a packaged one left running is not needed.

(cd tests/web && npm install --no-audit --no-fund --silent)

if [ -x .venv/bin/pip ]; then
  .venv/bin/pip install -q "fastapi>=0.110" "uvicorn[standard]>=0.29" "sqlalchemy>=2.0" "alembic>=1.13" \
    "pydantic-settings>=2.2" "platformdirs>=4" "psycopg[binary]>=3.1" "segno>=1.6" "httpx>=0.27" \
    "websockets>=12" "playwright>=1.44" "pytest-playwright>=0.5" "babel>=2.14"
fi
echo "web-deps.sh: chromium $(command -v chromium), PostgreSQL $(ls -d /usr/lib/postgresql/*/ | head -1), axe-core $(node -p "require('./tests/web/node_modules/axe-core/package.json').version")"
