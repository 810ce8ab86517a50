"""Every refusal of the core, as errors that carry a translatable message.

Each error is a ``ValueError`` (callers that only care that input was bad catch that) and a
:class:`GameError`: ``str(error)`` is the English text for logs, ``error.message`` the
:class:`~.messages.Message` a front end renders in the player's language.  The names say what
went wrong, python-chess style: bad dice, text that is no action, an action the rules do not
allow now, an impossible rule set, a match that cannot be set up.

>>> e = InvalidDiceError("face {face} is not a die face (1..6)", face=7)
>>> str(e), e.message.msgid, isinstance(e, ValueError)
('face 7 is not a die face (1..6)', 'face {face} is not a die face (1..6)', True)
>>> import pickle; str(pickle.loads(pickle.dumps(e)))
'face 7 is not a die face (1..6)'
"""

from __future__ import annotations

import errno
from typing import Any

from .messages import N_, Message, Plural, Translate

__all__ = [
    "GameError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDiceError",
    "InvalidRulesError",
    "InvalidSetupError",
    "UnmodelledRulesError",
    "os_reason",
]


def _rebuild(
    cls: type[GameError], msgid: str | Plural, params: dict[str, Any], count: str = "n"
) -> GameError:
    return cls(msgid, count=count, **params)


class GameError(ValueError):
    """A refusal a player can read in their own language.

    Built from a message id (or a :func:`~.messages.NP_` pair counted by the parameter named
    by ``count``: "give 1 face", "give 2 faces") and its parameters; ``render(translate)``
    gives the text in the translator's language.

    >>> from shipcaptaincrew.messages import NP_
    >>> ids = NP_("give {n} face", "give {n} faces")
    >>> str(InvalidDiceError(ids, n=1)), str(InvalidDiceError(ids, n=3))
    ('give 1 face', 'give 3 faces')
    """

    def __init__(self, msgid: str | Plural, /, count: str = "n", **params: Any) -> None:
        if isinstance(msgid, tuple):
            self.message = Message(msgid[0], params, plural=msgid[1], count=count)
        else:
            self.message = Message(msgid, params)
        super().__init__(self.message.render())

    def render(self, translate: Translate | None = None) -> str:
        """The refusal in the language of ``translate`` (English without one)."""
        return self.message.render(translate)

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle their ``args``; these are rebuilt from the message instead
        # (simulator workers send errors back to the parent process).
        m = self.message
        ids = m.msgid if m.plural is None else (m.msgid, m.plural)
        return (_rebuild, (type(self), ids, m.params, m.count))


class InvalidDiceError(GameError):
    """Dice that cannot be: a face outside 1..6, or the wrong number of dice for a roll."""


class InvalidActionError(GameError):
    """Text that is not an action at all (as opposed to a legal-looking but illegal one)."""


class IllegalActionError(GameError):
    """An action that the rules do not allow in this state (wrong phase, wrong choice)."""


class InvalidRulesError(GameError):
    """A rule set or option value that cannot work (unknown option, bad value, conflict)."""


class InvalidSetupError(GameError):
    """A match that cannot be set up (player count, solo target, starter seat, stakes)."""


class UnmodelledRulesError(InvalidRulesError):
    """A rule set that a fast path modelling the rules itself does not model: it names the
    option (see :mod:`.options.modelled`); the engine and the shells that ask it play it."""


#: What the system says about a file, by error number, as catalogue messages.
_OS_REASONS = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a directory"),
    errno.ENOTDIR: N_("a part of the path is not a directory"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EEXIST: N_("it exists already"),
}


def os_reason(error: BaseException) -> Message:
    """Why a file could not be read or written, as a message every front end can translate.

    The system's own text (English, whatever the locale) is kept only for an error number
    the catalogue does not name.

    >>> os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")).msgid
    'no such file or directory'
    """
    if isinstance(error, UnicodeDecodeError):
        return Message(N_("not a text file (UTF-8)"))
    if isinstance(error, OSError) and error.errno in _OS_REASONS:
        return Message(_OS_REASONS[error.errno])
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return Message("{reason}", {"reason": text})
