#!/usr/bin/env bash
# Set up and start the main job.  Until the web app lands this is the terminal game:
# an interactive match if a terminal is attached, else a scripted demo match between bots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -t 0 ] && .venv/bin/scc play --help >/dev/null 2>&1; then
  exec .venv/bin/scc play "$@"
fi
exec .venv/bin/scc demo "$@"
