"""Message catalogues: English, German and Norwegian (bokmål) through standard gettext.

Every word a user sees is an English *message id*; the catalogues under ``locales/`` translate
it (``locales/<lang>/LC_MESSAGES/<domain>.po``, compiled to ``.mo`` by ``scripts/i18n.sh``).
Domains keep separate front ends apart: ``scc`` for the command line and the rules text,
``web`` for the web pages.  Only the standard library is needed at run time (:mod:`gettext`
reads the compiled ``.mo`` files); Babel is needed only to extract and compile.

Parameters are named ``{placeholders}`` filled after translation with ``str.format``, so a
translation may reorder them but must keep every one (``tests/test_i18n.py`` checks it).

>>> translator("de")("ship")
'Schiff'
>>> translator("nb")("captain")
'kaptein'
>>> translator("en")("ship")
'ship'
>>> detect_lang(None, {"LANG": "nb_NO.UTF-8"})
'nb'
>>> detect_lang("de-AT", {})
'de'
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from ..facts import DECIMAL_SIGNS, DEFAULT_LANG, LANGUAGES, THOUSANDS_SEPARATORS
from ..messages import N_, NP_

__all__ = [
    "DEFAULT_LANG",
    "LANGUAGES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "Translator",
    "UnknownLanguageError",
    "_",
    "active_lang",
    "detect_lang",
    "domains",
    "normalize_lang",
    "translator",
    "use",
]

#: Where the catalogues live (inside the package, so an installed wheel carries them).
LOCALE_DIR = Path(__file__).parent / "locales"

#: Other spellings people type or have in their locale, mapped to a catalogue (each catalogue's
#: own code is its own spelling).  Nynorsk and the macro-language code ``no`` get bokmål, the
#: only Norwegian the sheets (001) are written in.
_ALIASES = {
    **{lang: lang for lang in LANGUAGES},
    "english": "en",
    "englisch": "en",
    "engelsk": "en",
    "deutsch": "de",
    "german": "de",
    "tysk": "de",
    "no": "nb",
    "nn": "nb",
    "nob": "nb",
    "norsk": "nb",
    "bokmal": "nb",
    "bokmål": "nb",
    "norwegian": "nb",
    "norwegisch": "nb",
    "c": "en",
    "posix": "en",
}


class UnknownLanguageError(ValueError):
    """A ``--lang`` value that names no catalogue (``name``: the value as given)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"unknown language {name!r}; choose one of: {', '.join(LANGUAGES)}")


def normalize_lang(text: str) -> str | None:
    """The catalogue for a language tag or locale name, or None if there is none.

    >>> [normalize_lang(t) for t in ("de_DE.UTF-8", "nb-NO", "no", "en_GB", "fr_FR", "C")]
    ['de', 'nb', 'nb', 'en', None, 'en']
    """
    t = text.strip().lower()
    if not t:
        return None
    if t in _ALIASES:
        return _ALIASES[t]
    base = t.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0]
    return _ALIASES.get(base)


def detect_lang(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` if given, else the locale environment, else English.

    ``explicit`` must name a known language (a typo should not silently give English); the
    environment is read the way gettext reads it (``LANGUAGE``, a colon-separated preference
    list, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), skipping languages without a catalogue.
    """
    if explicit is not None and explicit.strip():
        lang = normalize_lang(explicit)
        if lang is None:
            raise UnknownLanguageError(explicit)
        return lang
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            lang = normalize_lang(part)
            if lang is not None:
                return lang
        if var != "LANGUAGE":
            # LC_ALL / LC_MESSAGES / LANG name one locale: the first one set decides.
            return DEFAULT_LANG
    return DEFAULT_LANG


def domains() -> tuple[str, ...]:
    """Every catalogue domain present (``scc``, and ``web`` once the web pages have one)."""
    found = {p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")}
    found |= {p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.mo")}
    return tuple(sorted(found | {"scc"}))


@lru_cache(maxsize=32)
def _translations(lang: str, domain: str) -> _gettext.NullTranslations:
    if lang == DEFAULT_LANG:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, str(LOCALE_DIR), languages=[lang], fallback=True)


class Translator:
    """A language's translation function: ``tr(msgid)``, plural forms and numbers.

    Calling it translates a message id (gettext); :meth:`ngettext` picks a plural form;
    :meth:`number` and :meth:`percent` write numbers the way the language does, so a German
    page says "39,7 %" where an English one says "39.7 %" (with a no-break space before the
    sign, so a narrow phone never puts "%" on a line of its own).

    >>> tr = translator("de")
    >>> tr.lang, tr("ship"), tr.percent(0.397), translator("en").percent(0.397)
    ('de', 'Schiff', '39,7\\xa0%', '39.7\\xa0%')
    >>> translator("nb").ngettext("{n} round", "{n} rounds", 3).format(n=3)
    '3 runder'
    """

    __slots__ = ("_t", "lang")

    def __init__(self, lang: str, domain: str) -> None:
        self.lang = lang
        self._t = _translations(lang, domain)

    def __call__(self, msgid: str) -> str:
        return self._t.gettext(msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The plural form of a message for count ``n``."""
        return self._t.ngettext(singular, plural, n)

    def number(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals and the language's decimal sign."""
        return f"{value:.{digits}f}".replace(".", DECIMAL_SIGNS.get(self.lang, "."))

    def grouped(self, n: int) -> str:
        """A whole number with its thousands grouped ("6,000,000"; "6.000.000" in German).

        >>> translator("de").grouped(6_000_000), translator("en").grouped(1234)
        ('6.000.000', '1,234')
        """
        return f"{n:,}".replace(",", THOUSANDS_SEPARATORS.get(self.lang, ","))

    def percent(self, p: float, digits: int = 1) -> str:
        """A probability as a percentage ("39.7 %"; "39,7 %" in German and Norwegian)."""
        return self.number(100 * p, digits) + "\u00a0%"


@lru_cache(maxsize=32)
def translator(lang: str | None = None, domain: str = "scc") -> Translator:
    """The :class:`Translator` for a language and catalogue domain.

    ``lang`` may be any spelling :func:`normalize_lang` understands; None (or an unknown
    language, e.g. from an old log) gives English, the message ids themselves.  A message
    without a translation also stays English, so a missing entry never hides a message.
    """
    code = normalize_lang(lang) if lang else None
    return Translator(code or DEFAULT_LANG, domain)


_active: list[str] = [DEFAULT_LANG]


def use(lang: str) -> Translator:
    """Make ``lang`` the language of :func:`_` for this process (one language per command)."""
    code = normalize_lang(lang) or DEFAULT_LANG
    _active[0] = code
    return translator(code)


def active_lang() -> str:
    """The language chosen by the last :func:`use` (English before any)."""
    return _active[0]


def _(msgid: str) -> str:
    """Translate a message id into the active language (see :func:`use`)."""
    return _translations(_active[0], "scc").gettext(msgid)
