"""Text for people inside a room picture, rendered in each connection's language on the way out.

A picture is built once per event for everyone at the table; the few texts in it (the rule
set's human name, a moment's one-liner, the podium's reason) stay :class:`Words` until the
picture is written as JSON for one language (:func:`..connections.transport.dumps`), where orjson
hands each to :meth:`Words.render`.  So a table with German and Norwegian players builds one picture and
writes it twice, and a table in one language pays nothing for the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from ...bots.reasons import render_reason
from ...errors import GameError
from ...i18n import translator
from ...i18n.rules_text import rules_title
from ...messages import Message
from ...rules import Rules
from .catalogue import Label, Plural
from .server_texts import AND_LIST


class Text(Protocol):
    """Anything a picture carries that must be said in a language."""

    def render(self, lang: str) -> str: ...


@dataclass(frozen=True)
class Words:
    """A message id of one catalogue (``web`` or ``scc``) with parameters; a parameter that
    is itself :class:`Text` is rendered in the same language, a tuple of strings is a list
    of names, a refusal of the core (a :class:`~shipcaptaincrew.errors.GameError` or a
    :class:`~shipcaptaincrew.messages.Message`) is said in the ``scc`` catalogue and a
    :class:`~.catalogue.Label` in the ``web`` one.  The one lookup of the server's own words:
    a refusal (:class:`~.refusals.RoomError`) is rendered by it too."""

    msgid: str | Plural
    params: dict[str, Any] = field(default_factory=dict)
    domain: str = "web"

    def render(self, lang: str) -> str:
        """The text in ``lang`` (a :class:`~.catalogue.Plural` in the form for its ``n``)."""
        tr = translator(lang, self.domain)
        if isinstance(self.msgid, Plural):
            text = tr.ngettext(*self.msgid, int(self.params["n"]))
        else:
            text = tr(self.msgid)
        if not self.params:
            return text
        return text.format(**{k: _value(v, lang) for k, v in self.params.items()})


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, tuple):
        return and_list(value, lang)
    if isinstance(value, GameError | Message):
        return value.render(translator(lang, "scc"))
    if isinstance(value, Label):
        return translator(lang, "web")(value)
    if hasattr(value, "render"):
        return value.render(lang)
    return value


def and_list(names: Sequence[str], lang: str) -> str:
    """Names joined as the language joins them ("Anna, Bo and Cy"; "Anna, Bo und Cy")."""
    if len(names) < 2:
        return "".join(names)
    return translator(lang, "web")(AND_LIST).format(names=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True)
class Listed:
    """Texts listed in a sentence as the language lists them ("a sip for Bo and 2 sips for
    Cy")."""

    items: tuple[Text, ...]

    def render(self, lang: str) -> str:
        """The list in ``lang``."""
        return and_list([item.render(lang) for item in self.items], lang)


#: One line of the table's narration: the core's (``scc``) or the server's own.
Line = Message | Words


def say_line(line: Line, lang: str) -> str:
    """A narration line in ``lang``."""
    if isinstance(line, Words):
        return line.render(lang)
    return line.render(translator(lang, "scc"))


@dataclass(frozen=True)
class Title:
    """A rule set's human name (``i18n.rules_text.rules_title``), built once per language."""

    rules: Rules

    def render(self, lang: str) -> str:
        """The name in ``lang``."""
        return _title(self.rules, lang)


@lru_cache(maxsize=256)
def _title(rules: Rules, lang: str) -> str:
    return rules_title(rules, translator(lang, "scc"))


@dataclass(frozen=True)
class Reason:
    """Why a bot chose what it chose (the core's ``Bot.explain``, a :mod:`~...bots.reasons`
    message of the ``scc`` catalogue), its numbers written the way the language writes them."""

    message: Message

    def render(self, lang: str) -> str:
        """The reason in ``lang`` (its subject is the bot: the page puts the name before it)."""
        return render_reason(self.message, translator(lang, "scc"))
