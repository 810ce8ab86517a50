"""The fixed facts of the game and of the project, each stated once.

Every shell (terminal, web, simulator, environments) imports these instead of typing its own
copy: how many players a table seats, which faces a die shows, which roles are collected, which
languages the catalogues speak.  What a rule set may change -- the dice in the cup, the rolls of
a turn, the faces the roles need, the cargo's dice and its rerolls -- is the turn's shape, read
from :class:`~shipcaptaincrew.rules.Rules` instead (the sheets' five dice are the default of
the ``dice`` option).

>>> MIN_PLAYERS, MAX_PLAYERS
(2, 8)
>>> PLAYER_COUNTS
(2, 3, 4, 5, 6, 7, 8)
>>> LANGUAGES
('en', 'de', 'nb')
"""

from __future__ import annotations

__all__ = [
    "DECIMAL_SIGNS",
    "DEFAULT_LANG",
    "FACES",
    "HOUSE_RULE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PLAYER_COUNTS",
    "ROLES",
    "THOUSANDS_SEPARATORS",
    "SESSION_ROUNDS",
    "SOLO_PLAYERS",
    "TOURNAMENT_MIN_PLAYERS",
    "house_rule",
    "house_rule_where",
]


#: A table seats two to eight players (001.1); one seat is solo practice against a target.
MIN_PLAYERS = 2
MAX_PLAYERS = 8
SOLO_PLAYERS = 1
#: Every table size a match can be played with.
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
#: The tournament's final is played by two, so it needs a third player to mean anything (002.29).
TOURNAMENT_MIN_PLAYERS = 3

#: Rounds a session lasts when only programs could stop it.  A session ends when the people at
#: the table stop (000.17: a run of rounds); bots are always up for another round unless
#: stopping wins them the match, so every program that plays a session without people (the
#: simulator, the learning environments, ``scc demo``, the match solver) stops it after this
#: many rounds unless told otherwise.
SESSION_ROUNDS = 5

#: The faces of a six-sided die.
FACES = (1, 2, 3, 4, 5, 6)
#: The roles, in the order they must be collected (000.2, 001.5-001.7, 002.10-002.12).
ROLES = ("ship", "captain", "crew")

#: How a source that is no sheet sentence reads: a house rule, and where tables play it
#: (:func:`house_rule`).  Every other source is a sheet sentence, ``000.25``.
HOUSE_RULE = "house rule: "


def house_rule(where: str) -> str:
    """The source of a rule no sheet has: where tables play it.

    >>> house_rule("tables that count round wins")
    'house rule: tables that count round wins'
    """
    return HOUSE_RULE + where


def house_rule_where(source: str) -> str | None:
    """Where tables play a house rule, from its source (None: a sheet's sentence).

    >>> house_rule_where(house_rule("tables that count round wins")), house_rule_where("000.4")
    ('tables that count round wins', None)
    """
    return source[len(HOUSE_RULE) :] if source.startswith(HOUSE_RULE) else None


#: The catalogue languages, English first (its message ids are the English text).
LANGUAGES = ("en", "de", "nb")
DEFAULT_LANG = "en"
#: Each language's name in that language, for language pickers.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "nb": "Norsk bokmål"}
#: Each language's decimal sign (German and Norwegian write 39,7).
DECIMAL_SIGNS = {"en": ".", "de": ",", "nb": ","}
#: Each language's thousands separator (a no-break space in Norwegian).
THOUSANDS_SEPARATORS = {"en": ",", "de": ".", "nb": "\u00a0"}
