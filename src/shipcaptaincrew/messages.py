"""Words for people: message values and errors that every front end can translate.

The core never formats text for a particular language.  Whatever it has to say -- a step of
the game (:mod:`.narrate`), a label of the option table (:mod:`.options`) or a refusal (bad
dice, an illegal action, an impossible rule set) -- is a :class:`Message`: an English message
id with named parameters.  ``str(message)`` is the English text; a front end renders it with
its catalogue (``message.render(translator("de"))``), so the terminal, the web table and the
logs tell the same story in English, German or Norwegian.

Errors the core raises carry such a message too (:mod:`.errors`), so a web page can show a
refusal in German where a log shows the English text.

>>> str(Message("{name} rolls {faces}.", {"name": "Anna", "faces": "6 5 4"}))
'Anna rolls 6 5 4.'
>>> rounds = NP_("{n} round", "{n} rounds")
>>> str(Message.of(rounds, n=1)), str(Message.of(rounds, n=3))
('1 round', '3 rounds')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Grouped", "Message", "NP_", "N_", "Plural", "Translate"]

#: A translation function: message id in, text out.  Catalogue translators
#: (:func:`~shipcaptaincrew.i18n.translator`) also carry ``ngettext`` for plural forms.
Translate = Callable[[str], str]


def N_(msgid: str) -> str:
    """Mark a message id for extraction into the catalogues (gettext's ``N_``)."""
    return msgid


#: A singular and a plural message id (gettext's ``ngettext`` pair).
Plural = tuple[str, str]


def NP_(singular: str, plural: str) -> Plural:
    """Mark a singular/plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return (singular, plural)


def _english(msgid: str) -> str:
    return msgid


class Grouped(int):
    """A large whole number in a message, its thousands grouped the language's way
    (6,000,000; 6.000.000 in German; 6 000 000 in Norwegian)."""


def _param(value: Any, tr: Translate) -> Any:
    """A parameter as the message shows it: game words translated, a nested message (or an
    error carrying one, such as the reason of a refusal) rendered in the same language."""
    if isinstance(value, tuple):
        return ", ".join(tr(str(w)) for w in value)
    if isinstance(value, Grouped):
        group = getattr(tr, "grouped", None)
        return group(int(value)) if group is not None else f"{int(value):,}"
    if isinstance(value, Message):
        return value.render(tr)
    nested = getattr(value, "message", None)
    if isinstance(nested, Message):
        return nested.render(tr)
    return value


@dataclass(frozen=True)
class Message:
    """A message id with named parameters; ``str()`` gives the English text.

    ``plural`` is the message id's plural form and ``count`` names the parameter that picks
    the form, as gettext's ``ngettext`` does (German and Norwegian plurals follow English,
    but the words differ: "1 Runde", "3 Runden").  Parameters that are tuples are game words
    (role names, methods): each is translated and the tuple joined with commas.
    """

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: str = "n"

    @classmethod
    def of(cls, ids: str | Plural, **params: Any) -> Message:
        """A message from one id or a :func:`NP_` pair (counted by the parameter ``n``)."""
        if isinstance(ids, tuple):
            return cls(ids[0], params, plural=ids[1])
        return cls(ids, params)

    def render(self, translate: Translate | None = None) -> str:
        """The text in the language of ``translate`` (English without one)."""
        tr = translate or _english
        if self.plural is None:
            text = tr(self.msgid)
        else:
            n = self.params[self.count]
            ngettext = getattr(tr, "ngettext", None)
            if ngettext is not None:
                text = ngettext(self.msgid, self.plural, n)
            else:
                text = self.msgid if n == 1 else self.plural
        if not self.params:
            return text
        return text.format(**{k: _param(v, tr) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render()
