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
#   caddy          the HTTPS proxy of scripts/deploy.sh; the tests start their own with a local
#                  certificate authority (tls internal) in front of scc serve
#   libnss3-tools  certutil: the browser tests trust that authority in a certificate database
#                  of their own (Chromium reads $HOME/.pki/nssdb)
#   zbar-tools     zbarimg: the tests read back the QR codes the server draws
#   systemd        systemd-analyze verify checks the units scripts/deploy.sh writes
#   openssl        the tests make throwaway certificates for scc serve --tls-cert
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
# runuser lives in /usr/sbin, which a user's PATH often lacks: look for the file itself.
want "command -v runuser || test -x /usr/sbin/runuser || test -x /sbin/runuser" util-linux
want "command -v caddy" caddy
want "command -v certutil" libnss3-tools
want "command -v zbarimg" zbar-tools
want "command -v systemd-analyze" systemd
want "command -v openssl" openssl

if [ ${#missing[@]} -eq 0 ]; then
  echo "system-deps.sh: chromium, PostgreSQL $(basename "$(dirname "$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -1)")")"), Redis $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/'), node $(node --version), runuser, $(caddy version | cut -d' ' -f1 | sed 's/^/Caddy /'), certutil, zbarimg, systemd-analyze: all present"
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
