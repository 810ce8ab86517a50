#!/usr/bin/env bash
# Set up .venv/ from the lock files (requirements/*.txt, made by scripts/lock.sh): exactly the
# locked versions, each file checked against its hash; never a fresh resolve.
#
#   bash scripts/setup.sh          everything (requirements/all.txt): every extra, the dev tools
#                                  (pytest, ruff, mypy, Playwright), and axe-core (npm ci in
#                                  tests/web) for the tests
#   bash scripts/setup.sh run      only what the main job needs: the package and its web extra
#                                  (requirements/web.txt)
#   bash scripts/setup.sh EXTRA    the package and one more extra of pyproject.toml, from
#                                  requirements/EXTRA.txt: web, plot (matplotlib), sim (pandas,
#                                  pyarrow, Dask, matplotlib), rl (Gymnasium, PettingZoo,
#                                  OpenSpiel) or i18n (Babel); a command that needs one says which
#
# Idempotent; safe to run again.  "run" and an extra add what is missing and remove nothing; the
# full set-up makes .venv match the lock exactly (a package left over from elsewhere is removed).
# uv comes from PyPI through pip, at the version pyproject.toml's [tool.uv] requires, into .venv
# itself; it uses the Python that made .venv and never downloads one.  PYTHON=/path/to/python3.11
# chooses the interpreter.  Any failure stops here with the installer's own message.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-all}
case "$profile" in
  all) ;;
  run) lock=requirements/web.txt ;;
  web | plot | sim | rl | i18n) lock=requirements/$profile.txt ;;
  *) echo "setup.sh: unknown profile '$profile' (all, run, web, plot, sim, rl or i18n)" >&2; exit 2 ;;
esac
PY=${PYTHON:-python3}

if ! command -v "$PY" >/dev/null 2>&1; then
  echo "setup.sh: no '$PY' on PATH; install Python 3.11 or newer (apt-get install python3 python3-venv)" >&2
  exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup.sh: shipcaptaincrew needs Python 3.11 or newer; '$PY' is $("$PY" -V 2>&1)." >&2
  echo "          Install a newer one and point PYTHON at it: PYTHON=/usr/bin/python3.11 bash scripts/setup.sh" >&2
  exit 1
fi

# A .venv from another interpreter, or a broken one, is made anew.
if [ -e .venv ] && ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "setup.sh: .venv is broken or too old; making it anew"
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv; then
    rm -rf .venv
    echo "setup.sh: '$PY -m venv' failed. On Debian and Ubuntu the venv module and its pip are a" >&2
    echo "          package of their own: apt-get install python3-venv (then run this again)." >&2
    exit 1
  fi
fi

UV_VERSION=$(sed -n 's/^required-version = "==\(.*\)"$/\1/p' pyproject.toml)
if [ -z "$UV_VERSION" ]; then
  echo "setup.sh: pyproject.toml's [tool.uv] has no required-version = \"==X.Y.Z\"" >&2
  exit 1
fi
if [ "$(.venv/bin/uv --version 2>/dev/null | cut -d' ' -f2)" != "$UV_VERSION" ]; then
  # -qq: pip's errors still show; only its progress and notes are quiet.
  .venv/bin/python -m pip install -qq --disable-pip-version-check "uv==$UV_VERSION"
fi

export UV_PYTHON_DOWNLOADS=never
# uv trusts the certificates the system trusts, as pip does: behind a proxy that signs with a
# company's own authority (installed in /etc/ssl/certs) the install works as pip's did.
export UV_SYSTEM_CERTS=1
# Every installed module byte-compiled now, once: otherwise each process compiles what it imports
# from source until a first run may write __pycache__ -- and where none may be written (a
# read-only .venv, PYTHONDONTWRITEBYTECODE=1), every process, each worker of scc serve
# --workers K included, compiles the web app and its libraries again: seconds of CPU apiece.
export UV_COMPILE_BYTECODE=1
unset VIRTUAL_ENV
uv=(.venv/bin/uv pip --quiet)
if [ "$profile" != all ]; then
  "${uv[@]}" install --python .venv/bin/python -r "$lock"
else
  # sync: the environment becomes exactly the lock (anything else is removed).
  "${uv[@]}" sync --python .venv/bin/python requirements/all.txt
fi
# The package itself, editable, built with the locked setuptools (its dependencies are in place).
"${uv[@]}" install --python .venv/bin/python --no-deps --build-constraints requirements/build.txt -e .
if [ "$profile" = all ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup.sh: npm is missing (the browser tests' accessibility audit needs axe-core);" >&2
    echo "          install the system packages first: sudo bash scripts/system-deps.sh" >&2
    exit 1
  fi
  # npm ci: exactly tests/web/package-lock.json.
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
fi
# The package's own modules too (editable: uv compiles site-packages only); a module edited
# later is compiled from its source again, and written back where Python may write.
.venv/bin/python -m compileall -q -j 0 src/shipcaptaincrew >/dev/null
.venv/bin/python -c "import shipcaptaincrew"
echo "setup.sh: .venv ($profile) from requirements/: $(.venv/bin/python -V), $(.venv/bin/uv --version)"
echo "setup.sh: the scc command is .venv/bin/scc; 'source .venv/bin/activate' puts it on the PATH of this shell"
