"""The server's own message ids of the ``web`` catalogue: how they are marked and listed.

The server says things in two tables of one shape: its refusals (:mod:`.refusals`) and the words
it writes for the table (:mod:`.server_texts`), each a module of upper-case constants (and a few
dicts of labels) marked with :func:`N_`.  Both are listed by :func:`message_ids` for the
catalogue check, and both are said in a language by one lookup,
:meth:`.render.Words.render` (a refusal is a :class:`~.render.Words` with a code and a status).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["Label", "N_", "message_ids"]


def N_(msgid: str) -> str:
    """Mark a message id for the ``web`` catalogue."""
    return msgid


def message_ids(namespace: Mapping[str, object]) -> tuple[str, ...]:
    """Every message id a module defines as an upper-case constant (``vars(module)``): a
    string, or the values of a dict of labels, so the catalogue check lists them without a
    hand-kept list to forget one in."""
    ids: list[str] = []
    for name, value in list(namespace.items()):
        if not name.isupper():
            continue
        if isinstance(value, str):
            ids.append(value)
        elif isinstance(value, dict):
            ids.extend(v for v in value.values() if isinstance(v, str))
    return tuple(ids)


class Label(str):
    """A ``web`` message id used as a parameter of another (translated with it)."""

    __slots__ = ()
