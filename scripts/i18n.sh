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
# Domain D is extracted with the Babel map src/shipcaptaincrew/i18n/D.cfg when there is one;
# a domain without a map (its owner extracts it) is only updated from its D.pot and compiled.
# Keywords: _ and N_ (gettext's), NP_ (a singular/plural pair) and tr (a translate function
# passed as a parameter).
set -euo pipefail
cd "$(dirname "$0")/.."
BABEL=${PYBABEL:-.venv/bin/pybabel}
PYTHON=${PYTHON:-.venv/bin/python}
LOCALES=src/shipcaptaincrew/i18n/locales
LANGS=(de nb)
mode=${1:-all}
case "$mode" in all | compile | --drop) ;; *) echo "usage: $0 [compile|--drop]" >&2; exit 2 ;; esac

if [ "$mode" != compile ]; then
  "$PYTHON" scripts/i18n_guard.py glued
  before=$(mktemp -d)
  trap 'rm -rf "$before"' EXIT
  cp -r "$LOCALES"/. "$before"/
fi

domains() {
  {
    for f in src/shipcaptaincrew/i18n/*.cfg; do [ -e "$f" ] && basename "$f" .cfg; done
    for f in "$LOCALES"/*.pot "$LOCALES"/*/LC_MESSAGES/*.po; do [ -e "$f" ] && basename "$f" | sed 's/\.po[t]*$//'; done
  } | sort -u
}

for d in $(domains); do
  pot="$LOCALES/$d.pot"
  if [ "$mode" != compile ]; then
    cfg="src/shipcaptaincrew/i18n/$d.cfg"
    if [ -e "$cfg" ]; then
      "$BABEL" -q extract -F "$cfg" -k _ -k N_ -k "NP_:1,2" -k tr --no-location --sort-output \
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
  "$PYTHON" scripts/i18n_guard.py dropped "$before" "$LOCALES" 2>&1 | sed 's/would drop/drops/' || true
elif [ "$mode" = all ] && ! "$PYTHON" scripts/i18n_guard.py dropped "$before" "$LOCALES"; then
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
