#!/usr/bin/env bash
# Installs what the scale-out tests (tests/scale) and benchmarks/bench_scale.py need on a fresh
# Debian machine (run as root; idempotent):
#   - redis-server (the tests start their own on loopback, on a free port, without persistence),
#   - the PostgreSQL server binaries (the tests start their own throwaway clusters),
#   - the Python redis client into .venv (if there is one).
# A redis-server that apt starts as a service is not needed by the tests and is left alone.
#
#   sudo scripts/scale-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "scale-deps.sh: run as root (apt-get needs it)" >&2
  exit 2
fi

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v runuser >/dev/null 2>&1 || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${need[@]}"
fi

if [ -x .venv/bin/pip ]; then
  .venv/bin/pip install -q "redis>=5" "psycopg[binary]>=3.1" "hypothesis>=6" "websockets>=12" "httpx>=0.27"
fi
echo "scale-deps.sh: $(redis-server --version | cut -d' ' -f1-3), PostgreSQL $(ls -d /usr/lib/postgresql/*/ | head -1)"
