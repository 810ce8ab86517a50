"""Command-line spellings of the simulator's options, mapped onto rule options.

``--format`` is the rules option ``format`` as it is (``single``, ``rounds:N``, ``first_to:N``,
``tournament``).  ``--stakes`` names what a round is played for, as ``+``-separated words:

* ``points`` or ``pot`` -- the ``stakes`` option (points when neither is given);
* ``drinks`` (= ``all_but_winner``), ``last_drinks``, ``captain_hands_out`` -- the
  ``drinking`` option (none when no drinking word is given);
* ``failed_double`` -- a failed ship drinks double (002).

>>> stakes_settings("pot+last_drinks")
{'stakes': 'pot', 'drinking': 'last_drinks', 'failed_double': False}
>>> stakes_settings("beer")
Traceback (most recent call last):
...
shipcaptaincrew.errors.InvalidRulesError: --stakes: unknown word 'beer'; use points, pot, drinks, all_but_winner, last_drinks, captain_hands_out, failed_double joined by +
"""

from __future__ import annotations

from typing import Any

from ..rules import InvalidRulesError, MatchFormat, Rules

__all__ = ["apply_options", "parse_players", "stakes_settings"]

_STAKES = ("points", "pot")
_DRINKS = {
    "drinks": "all_but_winner",
    "all_but_winner": "all_but_winner",
    "last_drinks": "last_drinks",
    "captain_hands_out": "captain_hands_out",
}


def stakes_settings(text: str) -> dict[str, Any]:
    """The rule options a ``--stakes`` text stands for."""
    words = [w.strip().lower().replace("-", "_") for w in text.split("+")]
    stakes = [w for w in words if w in _STAKES]
    drinks = [_DRINKS[w] for w in words if w in _DRINKS]
    for w in words:
        if w not in _STAKES and w not in _DRINKS and w != "failed_double":
            known = ", ".join([*_STAKES, *_DRINKS, "failed_double"])
            raise InvalidRulesError(f"--stakes: unknown word {w!r}; use {known} joined by +")
    if len(stakes) > 1 or len(set(drinks)) > 1:
        raise InvalidRulesError(f"--stakes {text!r}: name at most one stake and one drinking mode")
    return {
        "stakes": stakes[0] if stakes else "points",
        "drinking": drinks[0] if drinks else "none",
        "failed_double": "failed_double" in words,
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
    """``BOT,BOT,...`` -> one bot spec per seat (2..8 seats).

    >>> parse_players("tip, timid,threshold:9")
    ['tip', 'timid', 'threshold:9']
    """
    bots = [b.strip() for b in text.split(",")]
    if any(not b for b in bots):
        raise ValueError(f"--players {text!r}: an empty bot name; write BOT,BOT,...")
    if not 2 <= len(bots) <= 8:
        raise ValueError(f"--players needs 2..8 bots (001), got {len(bots)}")
    return bots
