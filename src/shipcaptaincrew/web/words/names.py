"""Names at a table: each one a person can read, and tell from every other.

**Readable.**  A name is drawn on every card, strip and podium, so it must show and it must
fit: at least one visible letter or digit; no character that draws nothing (Unicode's
default-ignorable characters such as the Hangul fillers U+3164 and U+115F, format and
control characters, symbols that are blank like the Braille blank U+2800); no combining
mark standing alone, and at most :data:`MARKS` marks on one letter (Vietnamese needs two,
Tibetan stacks a few more; 31 stacked marks draw over the lines around them); at most
:data:`WIDTH` columns in all, a wide glyph (CJK, an emoji) counting two and a ligature as
many as the letters it stands for, so ﷺ counts for the phrase it is.  Symbols are emoji
only (``Extended_Pictographic``, flags): a symbol such as ﷽ draws a whole phrase in one
character.  The properties come from the ``regex`` module (maintained with each Unicode
release, and it has what the standard library lacks: ``Default_Ignorable_Code_Point``,
``Extended_Pictographic`` and grapheme clusters, ``\\X``), never a list written here.

**Apart.**  A name that merely looks like a seated player's -- ``Pіet`` with a Cyrillic ``і``
beside ``Piet``, ``Bot l`` beside ``Bot 1``, full-width ``ＰＩＥＴ`` beside ``Piet`` -- would
let someone pose as that player in the narration, the scores and the chat bubbles.  Unicode's
Technical Standard #39 defines when two strings are confusable: they have the same
*skeleton*.  The skeleton is the maintained implementation's (``disarm.skeleton_key`` with
TR 39's digit classes, built from Unicode's own confusables table), taken of the name folded
as Unicode's NFKC_Casefold does (compatibility forms such as full-width letters folded, case
folded), so ``anna`` and ``ＡＮＮＡ`` cannot sit beside ``Anna`` either.  And no person is
named like a bot ("Bot 1", "bot7 (easy)", in any language the table speaks): the table's
bots are named so, and a person must never pass for one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import regex
from disarm import skeleton_key
from pydantic_core import PydanticCustomError

from ...facts import LANGUAGES
from ...i18n import translator
from . import refusals as E
from .refusals import ErrorCode, RoomError

#: Combining marks one letter may carry.
MARKS = 4
#: Columns a name may take: a wide glyph counts two (see the module).
WIDTH = 32

_CLUSTER = regex.compile(r"\X")
_MARK = regex.compile(r"\p{M}")
_LETTER = regex.compile(r"[\p{L}\p{N}]")
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Regional_Indicator}]")
_WIDE = regex.compile(r"\p{East_Asian_Width=Wide}|\p{East_Asian_Width=Fullwidth}")
#: Characters that join or vary an emoji (ZWJ, the variation selectors, tags): shown only
#: inside an emoji's cluster.
_EMOJI_PARTS = regex.compile(r"[\u200d\ufe0e\ufe0f\U000e0020-\U000e007f]")
#: Zero-width non-joiner: written between letters in Persian and some Indic scripts.
_ZWNJ = "\u200c"
#: General categories a name may hold (symbols: see :func:`_shows`).
_ALLOWED = frozenset({"L", "M", "N", "P", "Zs", "Sm", "Sc", "Sk"})


def _refuse(kind: str) -> PydanticCustomError:
    return PydanticCustomError(kind, "this name cannot be read at a table")


def _shows(ch: str, cluster: str) -> bool:
    """Whether ``ch`` (in its grapheme ``cluster``) is a character a name may hold."""
    if _EMOJI.match(ch):
        return True
    if _EMOJI_PARTS.match(ch):
        return bool(_EMOJI.search(cluster))
    if ch == _ZWNJ:
        return True  # (a ZWNJ between letters; one at either end is trimmed away by then)
    if _IGNORABLE.match(ch):
        return False
    category = unicodedata.category(ch)
    return category in _ALLOWED or category[0] in _ALLOWED


def _width(cluster: str) -> int:
    """The columns a grapheme cluster takes (see the module)."""
    if _WIDE.search(cluster) or _EMOJI.search(cluster):
        return 2
    base = _MARK.sub("", cluster)
    return max(1, len(unicodedata.normalize("NFKC", base)))


def readable(name: str) -> str:
    """``name`` if a person can read it at a table (see the module), else the validators'
    refusal, which :mod:`.invalid` says in the person's language.

    >>> readable("Tiến 🍺")
    'Tiến 🍺'
    >>> for bad in ("\\u3164", "\\u2800", "\\u0301x", "a" + "\\u0301" * 31, "\\ufdfd" * 2):
    ...     try:
    ...         readable(bad)
    ...     except PydanticCustomError as e:
    ...         print(e.type)
    name_hidden
    name_hidden
    name_lone_mark
    name_marks
    name_hidden
    """
    clusters = _CLUSTER.findall(name.strip(_ZWNJ))
    if clusters and _MARK.match(clusters[0]):
        raise _refuse("name_lone_mark")
    width = 0
    for cluster in clusters:
        if not all(_shows(ch, cluster) for ch in cluster):
            raise _refuse("name_hidden")
        if len(_MARK.findall(_EMOJI_PARTS.sub("", cluster))) > MARKS:
            raise _refuse("name_marks")
        width += _width(cluster)
    if not any(_LETTER.match(ch) and not _IGNORABLE.match(ch) for ch in name):
        raise _refuse("name_no_letter")
    if width > WIDTH:
        raise _refuse("name_wide")
    if _bot_like(name):
        raise _refuse("name_bot")
    return name


def folded(name: str) -> str:
    """The name as Unicode's NFKC_Casefold compares it: compatibility forms (full-width
    letters, ligatures) folded and case folded.

    >>> folded("ＰＩＥＴ") == folded("piet")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """The name's confusable skeleton, of its folded form (a key for comparing, never for
    showing).

    >>> skeleton("Pіet") == skeleton("Piet"), skeleton("Bot 1") == skeleton("Bot l")
    (True, True)
    >>> skeleton("ＰＩＥＴ") == skeleton("Piet"), skeleton("Jörg") == skeleton("Jorg")
    (True, False)
    """
    name = folded(name)
    # (A name of characters with no skeleton at all is compared as it is.)
    return skeleton_key(name, digit_policy="tr39") or name


@lru_cache(maxsize=1)
def _bot_words() -> tuple[frozenset[str], frozenset[str]]:
    """The skeletons of the word the bots' names start with, in every language, and the
    characters of the skeletons of digits (a bot's number, or letters that pass for one)."""
    words = set()
    for lang in LANGUAGES:
        word = translator(lang, "scc")("Bot {n}").split("{n}")[0]
        words.add(skeleton(word).replace(" ", ""))
    digits = frozenset("".join(skeleton(c) for c in "0123456789"))
    return frozenset(words), digits


def _bot_like(name: str) -> bool:
    """Whether ``name`` reads as a bot's: the bots' word, then nothing, a number (or, as a
    word of its own, letters that pass for one), or a bracket ("Bot", "Bot 1", "bot7 (easy)",
    "Bot l"; not "Botond" or "Boto").

    >>> [_bot_like(n) for n in ("Bot 1 (easy)", "B0T 2", "Bot", "Bot l", "Botond", "Boto")]
    [True, True, True, True, False, False]
    """
    words, digits = _bot_words()
    parts = folded(name).split()
    plain = "".join(parts)
    for end in range(1, len(plain) + 1):
        if skeleton(plain[:end]) in words:
            rest = plain[end:]
            if not rest or rest[0] == "(" or rest[0].isdigit():
                return True
    if len(parts) > 1 and skeleton(parts[0]) in words:
        number = skeleton(parts[1].split("(")[0])
        return bool(number) and set(number) <= digits
    return False


def check_name(name: str, taken: Iterable[str]) -> None:
    """Refuse ``name`` if it is, or looks like, one of the ``taken`` names (in the player's
    language when rendered)."""
    mine = skeleton(name)
    for other in taken:
        if other.casefold() == name.casefold():
            raise RoomError(ErrorCode.NAME_TAKEN, E.NAME_TAKEN, 409, name=name)
        if skeleton(other) == mine:
            raise RoomError(ErrorCode.NAME_TAKEN, E.NAME_LOOKALIKE, 409, name=name, other=other)
