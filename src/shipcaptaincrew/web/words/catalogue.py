"""The server's own message ids of the ``web`` catalogue: how they are marked and listed.

The server says things in two tables of one shape: its refusals (:mod:`.refusals`) and the words
it writes for the table (:mod:`.server_texts`), each a module of upper-case constants (and a few
dicts of labels) marked with :func:`N_`.  Both are listed by :func:`message_ids` for the
catalogue check, and both are said in a language by one lookup,
:meth:`.render.Words.render` (a refusal is a :class:`~.render.Words` with a code and a status).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

__all__ = ["N_", "NP_", "Label", "Plural", "message_ids"]


def N_(msgid: str) -> str:
    """Mark a message id for the ``web`` catalogue."""
    return msgid


class Plural(NamedTuple):
    """A message with plural forms: its singular (also its id) and plural English texts; the
    count is the parameter ``n``.  Each language has its own forms (German and Norwegian as
    English, two; other languages more), chosen by the count (gettext's ``ngettext``)."""

    singular: str
    plural: str


def NP_(singular: str, plural: str) -> Plural:
    """Mark a message with plural forms for the ``web`` catalogue ("1 die", "2 dice")."""
    return Plural(singular, plural)


def message_ids(namespace: Mapping[str, object]) -> tuple[str | Plural, ...]:
    """Every message id a module defines as an upper-case constant (``vars(module)``): a
    string or a plural pair, or the values of a dict of labels, so the catalogue check lists
    them without a hand-kept list to forget one in."""
    ids: list[str | Plural] = []
    for name, value in list(namespace.items()):
        if not name.isupper():
            continue
        if isinstance(value, str | Plural):
            ids.append(value)
        elif isinstance(value, dict):
            ids.extend(v for v in value.values() if isinstance(v, str | Plural))
    return tuple(ids)


class Label(str):
    """A ``web`` message id used as a parameter of another (translated with it)."""

    __slots__ = ()
