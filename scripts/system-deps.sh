#!/usr/bin/env bash
# The system packages the tests and benchmarks need, by name, in this one place (Debian; run as
# root; idempotent: only what is missing is installed):
#   chromium       the browser tests drive /usr/bin/chromium (never `playwright install`, which
#                  downloads a browser build of its own)
#   postgresql     server binaries for the throwaway clusters the tests start (initdb, pg_ctl);
#                  a packaged cluster that apt starts is not used and is left alone
#   redis-server   the scale-out tests start their own on loopback, without persistence
#   nodejs, npm    npm ci installs axe-core (tests/web/package-lock.json) for the accessibility audit
#   util-linux     runuser: PostgreSQL refuses to run as root, so the tests start it as postgres
# The Python packages come from the lock files in requirements/ (scripts/setup.sh), never here.
#
#   sudo bash scripts/system-deps.sh           install what is missing
#   bash scripts/system-deps.sh --check        only say what is missing (exit 1 if anything is)
set -euo pipefail

missing=()
# want PROBE PACKAGE...: the packages are installed unless the shell test PROBE succeeds.
want() {
  local probe=$1
  shift
  bash -c "$probe" >/dev/null 2>&1 || missing+=("$@")
}
want "command -v chromium" chromium
want "ls /usr/lib/postgresql/*/bin/initdb" postgresql
want "command -v redis-server" redis-server
want "command -v npm" nodejs npm
want "command -v runuser" util-linux

if [ ${#missing[@]} -eq 0 ]; then
  echo "system-deps.sh: chromium, PostgreSQL $(basename "$(dirname "$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -1)")")"), Redis $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/'), node $(node --version), runuser: all present"
  exit 0
fi
if [ "${1:-}" = --check ]; then
  echo "system-deps.sh: missing: ${missing[*]}" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps.sh: missing ${missing[*]}; run as root to install them: sudo bash scripts/system-deps.sh" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
exec bash "$0" --check
