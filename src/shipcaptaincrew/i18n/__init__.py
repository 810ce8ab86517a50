"""Message catalogues (en, de, nb).

``translator(lang, domain)`` returns a function mapping an English message id to its
translation.  Until the catalogues land it is the identity (English).
"""

from __future__ import annotations

from collections.abc import Callable


def translator(lang: str | None = None, domain: str = "scc") -> Callable[[str], str]:
    """The translation function for a language and catalogue domain."""
    del lang, domain
    return lambda s: s
