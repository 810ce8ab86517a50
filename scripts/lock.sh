#!/usr/bin/env bash
# Resolve the lock files in requirements/ from pyproject.toml, with uv (the version pyproject.toml
# requires, in .venv: run scripts/setup.sh first).  Run it after changing a dependency in
# pyproject.toml and commit the result; tests/test_lock.py fails while the two disagree.
#
#   bash scripts/lock.sh              keep each locked version that pyproject.toml still allows
#   bash scripts/lock.sh --upgrade    the newest versions pyproject.toml allows
#
# requirements/all.txt: every extra and the dev group (what scripts/setup.sh installs);
# requirements/EXTRA.txt: the package's dependencies with one extra (run.sh installs web.txt),
# resolved within all.txt so that every file has the same version of a package;
# requirements/build.txt: what builds the package itself (pyproject.toml's build-system).
# Each is universal (markers choose by Python version and platform) and carries the hash of
# every file, so an install gets exactly these files or stops.
set -euo pipefail
cd "$(dirname "$0")/.."
export UV_PYTHON_DOWNLOADS=never
compile() {
  .venv/bin/uv pip compile --quiet --universal --generate-hashes \
    --custom-compile-command "bash scripts/lock.sh" "$@"
}
compile pyproject.toml --all-extras --group dev -o requirements/all.txt "$@"
for extra in $(.venv/bin/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"])'); do
  [ "$extra" = all ] && continue
  compile pyproject.toml --extra "$extra" -c requirements/all.txt -o "requirements/$extra.txt"
done
.venv/bin/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")' |
  compile - -o requirements/build.txt "$@"
echo "lock.sh: $(ls requirements/*.txt | tr '\n' ' ')"
