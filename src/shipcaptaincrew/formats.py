"""Match formats: how many rounds make a match and who wins it.

A format is a kind and, for the kinds that need one, a number: ``single``, ``rounds:N``,
``first_to:N``, ``tournament``, ``wins:N``, ``session``.  :data:`FORMAT_KINDS` says for each kind whether it takes a
number and within which bounds, so parsing, validation, the set-up dialogues and the web form
all read the same table.

>>> MatchFormat.parse("rounds:5")
MatchFormat(kind=<FormatKind.ROUNDS: 'rounds'>, n=5)
>>> str(MatchFormat.parse("first_to:50")), MatchFormat.parse("single").kind.value
('first_to:50', 'single')
>>> MatchFormat.parse("rounds:0")
Traceback (most recent call last):
...
shipcaptaincrew.errors.InvalidRulesError: rounds:N needs 1 <= N <= 1000, got 0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidRulesError
from .facts import house_rule
from .messages import N_, NP_, Plural

__all__ = ["FORMAT_KINDS", "FormatKind", "KindSpec", "MatchFormat"]


class FormatKind(StrEnum):
    """The kinds of match."""

    #: One round; its winner wins (000.7, 003.7).
    SINGLE = "single"
    #: A fixed number of rounds, highest total wins (001.18, 002.25-002.27).
    ROUNDS = "rounds"
    #: Rounds until a total reaches N; several past it: the highest total wins (001.18).
    FIRST_TO = "first_to"
    #: Two preliminary rounds, the two best totals play a final, its winner takes all (002.29).
    TOURNAMENT = "tournament"
    #: The first to win N rounds wins (not in the sheets).
    WINS = "wins"
    #: Round after round until the table stops; then the highest total wins (000.17).
    SESSION = "session"


@dataclass(frozen=True)
class KindSpec:
    """What a format kind needs: a number N within ``bounds``, or none (``bounds`` None).

    ``label`` and ``help`` are message ids for menus and forms; ``title`` is the few words a
    rule set's human name uses (a plural pair with ``{n}`` for kinds that take N);
    ``rule`` is the rules text's sentence; ``pot_rule`` the stakes sentence that replaces the
    ``pot_to`` option's under a pot (the tournament pays its pot one way only);
    ``default_n`` is what a dialogue offers first; ``sources`` cite the sheets.
    """

    kind: FormatKind
    label: str
    help: str
    title: str | Plural
    rule: str | Plural
    sources: tuple[str, ...]
    bounds: tuple[int, int] | None = None
    default_n: int = 0
    pot_rule: str = ""


#: Every format kind, in the order menus list them.
FORMAT_KINDS: dict[FormatKind, KindSpec] = {
    k.kind: k
    for k in (
        KindSpec(
            FormatKind.SINGLE,
            N_("one round"),
            N_("one round; its winner wins the match"),
            N_("one round"),
            N_("- One round; its winner wins the match."),
            ("000.7", "003.7"),
        ),
        KindSpec(
            FormatKind.ROUNDS,
            N_("a number of rounds, highest total wins"),
            N_("a fixed number of rounds; the highest total of all scores wins"),
            NP_("{n} round", "{n} rounds"),
            NP_(
                "- One round decides; a tie is broken like a tie in a round.",
                "- {n} rounds; the highest total of all scores wins. A tie is broken like a tie "
                "in a round.",
            ),
            ("001.18", "002.25", "002.27"),
            (1, 1000),
            3,
        ),
        KindSpec(
            FormatKind.FIRST_TO,
            N_("rounds until someone reaches a score"),
            N_("rounds until a total reaches the mark; past it together, the highest total wins"),
            N_("first to {n}"),
            N_(
                "- Rounds until someone's total of points reaches {n} (chips never count "
                "towards it); if several pass it in the same round, the highest total wins (001)."
            ),
            ("001.18",),
            (1, 10000),
            50,
        ),
        KindSpec(
            FormatKind.TOURNAMENT,
            N_("tournament: two preliminary rounds and a final"),
            N_("two preliminary rounds; the two best totals play a final; winner takes all"),
            N_("tournament"),
            N_(
                "- Tournament (002): two preliminary rounds; the two highest totals play a final "
                "round, and its winner wins the match."
            ),
            ("002.29", "002.30"),
            pot_rule=N_(
                "- The pot builds up over the whole tournament, and the final's winner takes all "
                "of it (002.30)."
            ),
        ),
        KindSpec(
            FormatKind.WINS,
            N_("rounds until someone has won a number of them"),
            N_("rounds until a player has won N of them; that player wins the match"),
            NP_("first to {n} round win", "first to {n} round wins"),
            NP_(
                "- The first player to win a round wins the match (not in the sheets).",
                "- The first player to win {n} rounds wins the match (not in the sheets).",
            ),
            (
                house_rule(
                    N_("tables that play to a number of round wins, as many pub dice games do")
                ),
            ),
            (1, 1000),
            3,
        ),
        # 000.17/003.17 read as a run of rounds: see docs/rules.md, "one round or a run of
        # rounds".
        KindSpec(
            FormatKind.SESSION,
            N_("rounds until the table stops"),
            N_(
                "round after round; after each one the next round's first player calls another "
                "round or stops, and then the highest total wins"
            ),
            N_("open session"),
            N_(
                "- Round after round, as long as the table likes: after each round the next "
                "round's first player calls another round or stops. Then the highest total "
                "wins; a tie is broken like a tie in a round (000.17/003.17)."
            ),
            ("000.17", "003.17"),
        ),
    )
}

_FORMAT_RE = re.compile(r"^([a-z_]+)(?::(-?\d+))?$")


@dataclass(frozen=True)
class MatchFormat:
    """A match format: a :class:`FormatKind` and, for kinds that take one, the number N.

    Built from text by :meth:`parse`; building one directly checks it the same way, so an
    impossible format (``rounds:0``, an unknown kind) never exists as a value.
    """

    kind: FormatKind
    n: int = 0

    def __post_init__(self) -> None:
        try:
            kind = FormatKind(self.kind)
        except ValueError:
            raise _unknown(str(self.kind)) from None
        object.__setattr__(self, "kind", kind)
        spec = FORMAT_KINDS[kind]
        if spec.bounds is None:
            if self.n:
                raise InvalidRulesError(
                    N_("the format {kind} takes no number, got {n}"), kind=kind.value, n=self.n
                )
            return
        lo, hi = spec.bounds
        if isinstance(self.n, bool) or not isinstance(self.n, int) or not lo <= self.n <= hi:
            raise InvalidRulesError(
                N_("{kind}:N needs {lo} <= N <= {hi}, got {n}"),
                kind=kind.value,
                lo=lo,
                hi=hi,
                n=self.n,
            )

    @classmethod
    def parse(cls, text: str) -> MatchFormat:
        """Parse the text form; raises :class:`~.errors.InvalidRulesError` naming the problem."""
        m = _FORMAT_RE.match(text.strip().lower())
        kind = _kind(m.group(1)) if m else None
        if m is None or kind is None:
            raise _unknown(text)
        takes_n = FORMAT_KINDS[kind].bounds is not None
        if takes_n != (m.group(2) is not None):
            raise _unknown(text)
        return cls(kind, int(m.group(2) or 0))

    @property
    def spec(self) -> KindSpec:
        """The kind's entry of :data:`FORMAT_KINDS`."""
        return FORMAT_KINDS[self.kind]

    @property
    def last_round(self) -> int | None:
        """The last of a fixed number of rounds (``rounds:N``), or None where play decides when
        the match ends; a tie after the last round is a tie-break, not another round (001.17)."""
        return self.n if self.kind is FormatKind.ROUNDS else None

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.n}" if self.spec.bounds else self.kind.value


def _kind(text: str) -> FormatKind | None:
    try:
        return FormatKind(text)
    except ValueError:
        return None


def _spellings() -> str:
    return ", ".join(f"{k.value}:N" if spec.bounds else k.value for k, spec in FORMAT_KINDS.items())


def _unknown(text: str) -> InvalidRulesError:
    return InvalidRulesError(
        N_("unknown match format '{text}': use {choices}"), text=text, choices=_spellings()
    )
