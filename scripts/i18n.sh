#!/usr/bin/env bash
# Message catalogues: extract message ids, update the de and nb translations, compile to .mo.
#
#   scripts/i18n.sh            extract + update + compile every domain
#   scripts/i18n.sh compile    compile only (after editing a .po file)
#   scripts/i18n.sh --drop     the same as the first, dropping the translations of messages
#                              changed or removed on purpose
#
# Nothing is lost by accident: the update stops, naming the message, when a message id is
# glued from parts at run time (the extractor cannot see it, so its translations would go),
# and when it would drop a translation that exists (the catalogues are then left as they were);
# see scripts/i18n_guard.py.
# A domain is a catalogue name (scc: the command line and rules text; web: the web pages).
# The domains extracted from the code, and Babel's map of which files go to each, come from one
# place: src/shipcaptaincrew/i18n/catalogues.py.  A domain it does not name (its owner extracts
# it) is only updated from its D.pot and compiled.
# Keywords: _ and N_ (gettext's), NP_ (a singular/plural pair) and tr (a translate function
# passed as a parameter).
set -euo pipefail
cd "$(dirname "$0")/.."
BABEL=${PYBABEL:-.venv/bin/pybabel}
PY=${PYTHON:-.venv/bin/python}
CATALOGUES=(env PYTHONPATH=src "$PY" -m shipcaptaincrew.i18n.catalogues)
EXTRACTED=$("${CATALOGUES[@]}" --domains)
MAP=$(mktemp)
before=""
trap 'rm -f "$MAP"; [ -z "$before" ] || rm -rf "$before"' EXIT
LOCALES=src/shipcaptaincrew/i18n/locales
LANGS=(de nb)
mode=${1:-all}
case "$mode" in all | compile | --drop) ;; *) echo "usage: $0 [compile|--drop]" >&2; exit 2 ;; esac

if [ "$mode" != compile ]; then
  "$PY" scripts/i18n_guard.py glued
  before=$(mktemp -d)
  cp -r "$LOCALES"/. "$before"/
fi

domains() {
  {
    for d in $EXTRACTED; do echo "$d"; done
    for f in "$LOCALES"/*.pot "$LOCALES"/*/LC_MESSAGES/*.po; do [ -e "$f" ] && basename "$f" | sed 's/\.po[t]*$//'; done
  } | sort -u
}

for d in $(domains); do
  pot="$LOCALES/$d.pot"
  if [ "$mode" != compile ]; then
    if [[ " $EXTRACTED " == *" $d "* ]]; then
      "${CATALOGUES[@]}" "$d" >"$MAP"
      "$BABEL" -q extract -F "$MAP" -k _ -k N_ -k "NP_:1,2" -k tr --no-location --sort-output \
        --project shipcaptaincrew --copyright-holder "shipcaptaincrew developers" \
        -o "$pot" src/shipcaptaincrew
    fi
    if [ -e "$pot" ]; then
      for l in "${LANGS[@]}"; do
        po="$LOCALES/$l/LC_MESSAGES/$d.po"
        if [ -e "$po" ]; then
          "$BABEL" -q update -D "$d" -i "$pot" -d "$LOCALES" -l "$l" --no-fuzzy-matching --ignore-obsolete
        else
          "$BABEL" -q init -D "$d" -i "$pot" -d "$LOCALES" -l "$l"
        fi
      done
    fi
  fi
done
if [ "$mode" = --drop ]; then
  "$PY" scripts/i18n_guard.py dropped "$before" "$LOCALES" 2>&1 | sed 's/would drop/drops/' || true
elif [ "$mode" = all ] && ! "$PY" scripts/i18n_guard.py dropped "$before" "$LOCALES"; then
  cp -r "$before"/. "$LOCALES"/
  echo "catalogues left as they were: change the code back, or drop these on purpose with $0 --drop" >&2
  exit 1
fi
for d in $(domains); do
  for l in "${LANGS[@]}"; do
    po="$LOCALES/$l/LC_MESSAGES/$d.po"
    [ -e "$po" ] && "$BABEL" -q compile -D "$d" -d "$LOCALES" -l "$l" --statistics
  done
done
echo "catalogues: $(domains | tr '\n' ' ')"
