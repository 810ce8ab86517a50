#!/usr/bin/env bash
# The network tests (tests/web without the browser, tests/scale) N times in a row (default 20),
# stopping at the first failing run; prints how many passed.  A test that fails once in N runs
# is a bug, not bad luck: the failing run's output is kept for its cause.
#
#   bash scripts/repeat-network-tests.sh [N] [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
shift || true
export SCC_REQUIRE_ALL=1
out=$(mktemp -t scc-network-run.XXXXXX)
start=$(date +%s)
for i in $(seq 1 "$n"); do
  t0=$(date +%s)
  if ! .venv/bin/pytest -p no:playwright -m "not browser" tests/web tests/scale "$@" >"$out" 2>&1; then
    tail -n 60 "$out"
    echo "repeat-network-tests: run $i of $n FAILED after $((i - 1)) passing runs (full output: $out)"
    exit 1
  fi
  echo "run $i/$n passed in $(($(date +%s) - t0)) s: $(tail -n 1 "$out")"
done
rm -f "$out"
echo "repeat-network-tests: $n of $n runs passed, 0 failures ($(($(date +%s) - start)) s)"
