#!/usr/bin/env bash
# Set up a fresh machine and start the main job: the web app on an embedded SQLite database
# (in the user's data directory), at http://127.0.0.1:8654/.  Installs only what that needs
# (the package and its web extra, from requirements/web.txt).  Extra arguments go to
# `scc serve` (e.g. --host 0.0.0.0 so that phones on the same network can join).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
exec .venv/bin/scc serve "$@"
