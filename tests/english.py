"""English left in German or Norwegian output: the checks the language tests share.

A helper module, not a test file.  Three ways English shows through:

* a message of the ``scc`` catalogue whose translation differs from its English id, found
  in the output as it stands in English (every literal stretch of two words or more between
  its placeholders, so "line {no} is not JSON" is found as "is not JSON");
* Typer's own words ("Usage:", "Try '...' for help", "Error", a box) that the command line
  must never show;
* English function words ("the", "must", "cannot", ...) in running text, which catch English
  that never was a catalogue message (a library's or an exception's own text).
"""

from __future__ import annotations

import re
from functools import lru_cache

from babel.messages.pofile import read_po

from shipcaptaincrew.i18n import LOCALE_DIR

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: What Typer and Click say of their own; none of it may reach a reader.
TYPER_WORDS = (
    "Usage:",
    "Try '",
    "Error:",
    "Show this message",
    "Invalid value",
    "No such",
    "Missing ",
    "[default:",
    "[required]",
    "<str>",
    "<int>",
    "<bool>",
    "╭─",
    "Aborted",
    "Traceback",
)
#: Words of English running text that neither German nor Norwegian uses.
ENGLISH_WORDS = frozenset(
    "the is are must cannot which got use of has should would does and with not there "
    "this that needs unknown".split()
)


@lru_cache(maxsize=4)
def catalogue_fragments(lang: str) -> tuple[str, ...]:
    """The English stretches of every translated message of ``lang``'s ``scc`` catalogue.

    A stretch that its own translation keeps (option names, notation such as ``sip:2``) is
    no English left and is not looked for.
    """
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "scc.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    found: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, (tuple, list)) else [m.id]
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string]
        translated = " ".join(" ".join(s for s in strings if s).split())
        if not translated or translated in ids:
            continue
        for msgid in ids:
            for piece in _PLACEHOLDER.split(msgid):
                piece = " ".join(piece.split()).strip(" .,;:()'\"")
                if len(piece.split()) >= 2 and len(piece) >= 10 and piece not in translated:
                    found.add(piece)
    return tuple(sorted(found))


def _words(text: str) -> list[str]:
    """The plain words of running text (not options, notation, paths or numbers)."""
    out = []
    for token in text.split():
        if re.search(r"[_=:/\\.@{}<>]|--|\d", token):
            continue
        word = token.strip("()[],;!?\"'„“«»").lower()
        if word.isalpha():
            out.append(word)
    return out


def english_left(text: str, lang: str, *, words: bool = True) -> list[str]:
    """What in ``text`` (output in ``lang``) is still English; empty when nothing is.

    ``words``: also look for English function words (off for text that quotes another
    program's own words, such as a database driver's reason).
    """
    flat = " ".join(text.split())
    left = [f"catalogue: {p!r}" for p in catalogue_fragments(lang) if p in flat]
    left += [f"typer: {w!r}" for w in TYPER_WORDS if w in text]
    if words:
        left += [f"word: {w!r}" for w in sorted(set(_words(text)) & ENGLISH_WORDS)]
    return left
