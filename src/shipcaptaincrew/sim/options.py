"""Command-line spellings of the simulator's options, mapped onto rule options.

``--format`` is the rules option ``format`` as it is (``single``, ``rounds:N``, ``first_to:N``,
...).  ``--stakes`` names what a round is played for, as ``+``-separated words, all read from
the option table (:mod:`shipcaptaincrew.options`):

* a choice of ``stakes`` (``points``, ``pot``; points when none is given);
* a choice of ``drinking`` other than ``none`` (and ``drinks``, short for ``all_but_winner``;
  no drinking when none is given);
* ``failed_double`` -- a failed ship drinks double (002.24).

>>> stakes_settings("pot+last_drinks")
{'stakes': 'pot', 'drinking': 'last_drinks', 'failed_double': False}
>>> stakes_settings("beer")
Traceback (most recent call last):
...
shipcaptaincrew.errors.InvalidRulesError: --stakes: unknown word 'beer'; use points, pot, drinks, all_but_winner, last_drinks, captain_hands_out, failed_double joined by +
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidSetupError
from ..facts import MAX_PLAYERS, MIN_PLAYERS
from ..messages import N_
from ..options import OPTIONS
from ..rules import Drinking, InvalidRulesError, MatchFormat, Rules, Stakes

__all__ = ["apply_options", "parse_players", "stakes_settings"]

_STAKES = tuple(c.value for c in OPTIONS["stakes"].choices)
#: Drinking words: every drinking choice but none, and the shorthand "drinks".
_DRINKS = {"drinks": Drinking.ALL_BUT_WINNER.value} | {
    c.value: c.value for c in OPTIONS["drinking"].choices if c.value != Drinking.NONE
}
_FLAG = "failed_double"


def stakes_settings(text: str) -> dict[str, Any]:
    """The rule options a ``--stakes`` text stands for."""
    words = [w.strip().lower().replace("-", "_") for w in text.split("+")]
    stakes = [w for w in words if w in _STAKES]
    drinks = [_DRINKS[w] for w in words if w in _DRINKS]
    for w in words:
        if w not in _STAKES and w not in _DRINKS and w != _FLAG:
            known = ", ".join([*_STAKES, *_DRINKS, _FLAG])
            raise InvalidRulesError(
                N_("--stakes: unknown word {word}; use {known} joined by +"),
                word=repr(w),
                known=known,
            )
    if len(stakes) > 1 or len(set(drinks)) > 1:
        raise InvalidRulesError(
            N_("--stakes {text}: name at most one stake and one drinking mode"), text=repr(text)
        )
    return {
        "stakes": stakes[0] if stakes else Stakes.POINTS.value,
        "drinking": drinks[0] if drinks else Drinking.NONE.value,
        _FLAG: _FLAG in words,
    }


def apply_options(rules: Rules, fmt: str | None, stakes: str | None) -> Rules:
    """``rules`` with ``--format`` and ``--stakes`` applied (validated by :class:`Rules`)."""
    changes: dict[str, Any] = {}
    if fmt is not None:
        changes["format"] = MatchFormat.parse(fmt)
    if stakes is not None:
        changes.update(stakes_settings(stakes))
    return rules.replace(**changes) if changes else rules


def parse_players(text: str) -> list[str]:
    """``BOT,BOT,...`` -> one bot spec per seat (a table's worth: 2..8).

    >>> parse_players("tip, timid,threshold:9")
    ['tip', 'timid', 'threshold:9']
    """
    bots = [b.strip() for b in text.split(",")]
    if any(not b for b in bots):
        raise InvalidSetupError(
            N_("--players {text}: an empty bot name; write BOT,BOT,..."), text=repr(text)
        )
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise InvalidSetupError(
            N_("--players needs {low}..{high} bots (001.1), got {n}"),
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
            n=len(bots),
        )
    return bots
