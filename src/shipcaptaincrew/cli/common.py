"""Helpers shared by the commands: the language, reading rule options, failing with one line.

The language is chosen once per command: the root callback of :data:`~.app.app` reads
``scc --lang`` or the locale environment, and the commands that print words for players take
``--lang`` too (:data:`LangOpt`), through the same :func:`choose_language`.  Every refusal is
then printed in that language: a :class:`~shipcaptaincrew.errors.GameError` carries its
message id and parameters, and :func:`error_text` renders it with the active catalogue.
"""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from .. import errors
from ..errors import GameError
from ..facts import LANGUAGES
from ..i18n import (
    UnknownLanguageError,
    _,
    active_lang,
    detect_lang,
    translator,
    use,
)
from ..messages import N_, Message, Plural
from ..rules import Rules, find_rules
from .helptext import composed, or_words

__all__ = [
    "LANG_HELP",
    "LangOpt",
    "RulesOpt",
    "SetOpt",
    "choose_language",
    "error_text",
    "fail",
    "load_rules",
    "or_words",
    "os_reason",
    "plural",
    "rules_name",
    "start_language",
]

#: ``--rules PRESET`` as every command spells it.
RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        metavar=N_("PRESET"),
        help=N_("A preset's name or alias (scc presets lists them), or a canonical rules text."),
    ),
]
#: ``--set KEY=VALUE`` (repeatable).
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar=N_("KEY=VALUE"),
        help=N_(
            "Change one option of the rules, for example --set half_cargo=true; repeat it for "
            "more (scc presets lists every option)."
        ),
    ),
]

LANG_HELP = composed(
    lambda tr: tr(
        "The language: {languages} (without it: the language of LANG, LC_ALL or LANGUAGE)."
    ).format(languages=or_words(LANGUAGES, tr))
)


def choose_language(value: str | None) -> str | None:
    """Speak ``value`` from now on (``--lang``); None keeps the language chosen so far.

    A language without a catalogue is refused with one line (status 2), before anything else
    of the command runs.
    """
    if value is not None:
        try:
            use(detect_lang(value))
        except UnknownLanguageError as e:
            fail(e)
    return value


#: ``--lang`` of a command: chosen as soon as it is read (an eager option).
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang", metavar=N_("LANG"), help=LANG_HELP, callback=choose_language, is_eager=True
    ),
]


def start_language(value: str | None) -> None:
    """The language at the start of every command: ``scc --lang``, else the locale."""
    try:
        use(detect_lang(value))
    except UnknownLanguageError as e:
        fail(e)


def error_text(error: BaseException) -> str:
    """A refusal in the active language (other errors say what they say)."""
    if isinstance(error, GameError):
        return error.render(translator(active_lang()))
    if isinstance(error, UnknownLanguageError):
        return _("unknown language '{name}'; choose one of: {languages}").format(
            name=error.name, languages=", ".join(LANGUAGES)
        )
    if isinstance(error, OSError):
        return os_reason(error)
    return str(error)


def os_reason(error: BaseException) -> str:
    """Why a file could not be read or written, in the active language.

    >>> import errno
    >>> _ = use("de"); os_reason(FileNotFoundError(errno.ENOENT, "No such file"))
    'Datei oder Verzeichnis nicht gefunden'
    >>> _ = use("en")
    """
    return errors.os_reason(error).render(translator(active_lang()))


def plural(ids: Plural, n: int, **params: object) -> str:
    """A :func:`~shipcaptaincrew.messages.NP_` pair in the active language, counted by ``n``.

    The terminal's own counted words ("1 chip", "3 chips"; "1 Chip", "3 Chips") go through
    here, so every language picks its plural form from its catalogue.
    """
    return Message.of(ids, n=n, **params).render(translator(active_lang()))


def rules_name(rules: Rules) -> str:
    """A rule set's name for people in the active language ("Classic 6-5-4 · half cargo")."""
    from ..i18n.rules_text import rules_title

    return rules_title(rules, translator(active_lang()))


def fail(message: str | BaseException, code: int = 2) -> NoReturn:
    """Print one line naming the problem to stderr and exit (status 2 = bad input)."""
    text = message if isinstance(message, str) else error_text(message)
    typer.echo(_("error: {message}").format(message=text), err=True)
    sys.exit(code)


def load_rules(rules: str, settings: list[str] | None) -> Rules:
    """The rule set from ``--rules`` and ``--set``; bad input exits with status 2."""
    try:
        return find_rules(rules).with_settings(settings or [])
    except GameError as e:
        fail(e)
