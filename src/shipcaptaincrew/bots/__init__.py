"""Bots behind one protocol: ``choose(state, rng) -> action`` and ``explain(state) -> Message``.

:func:`make_bot` builds one from a name:

============= ============================================ ==========
name          plays                                        difficulty
============= ============================================ ==========
random        any legal action, uniformly
timid         stands on any cargo                          easy
tip           rerolls the cargo at six or less (000/003)   medium
threshold:T   rerolls the cargo while it is below T
ev            the best expected score (exact)              hard
optimal       the best chance of winning the match (exact) perfect
optimal:round the best chance of winning the round (exact)
============= ============================================ ==========

>>> import random
>>> from shipcaptaincrew import Roll, apply, initial_turn, find_rules
>>> t = apply(initial_turn(find_rules("classic")), Roll((6, 5, 4, 1, 2)))
>>> str(TipBot().choose(t, random.Random(0)))
'reroll'
>>> str(TimidBot().choose(t, random.Random(0)))
'stand'
>>> make_bot("perfect").name
'optimal'
>>> render_reason(TipBot().explain(t))
'cargo 3 is below 7: worth another try.'
"""

from __future__ import annotations

from ..errors import GameError
from ..messages import N_
from .base import (
    SESSION_ROUNDS,
    Bot,
    NoDecisionError,
    RandomBot,
    ThresholdBot,
    TimidBot,
    TipBot,
    best_take,
    between_rounds,
    hand_out_target,
    session_call,
)
from .reasons import render_reason
from .solver_bots import EVBot, OptimalBot

__all__ = [
    "BOT_NAMES",
    "DIFFICULTIES",
    "POLICY_ALIASES",
    "Bot",
    "EVBot",
    "NoDecisionError",
    "OptimalBot",
    "RandomBot",
    "ThresholdBot",
    "TimidBot",
    "TipBot",
    "UnknownBotError",
    "SESSION_ROUNDS",
    "best_take",
    "between_rounds",
    "hand_out_target",
    "make_bot",
    "session_call",
    "render_reason",
]

#: The bot names :func:`make_bot` knows (``threshold:T`` takes a number).
BOT_NAMES = ("random", "timid", "tip", "threshold:T", "ev", "optimal", "optimal:round")
#: Difficulty -> bot name.
DIFFICULTIES = {"easy": "timid", "medium": "tip", "hard": "ev", "perfect": "optimal"}
#: The solver's names of the policies a bot plays, read as aliases (one set of names for bots
#: and policies; :data:`~shipcaptaincrew.solver.policies.BOT_ALIASES` is the other way):
#: ``never`` is ``timid``.
POLICY_ALIASES = {"never": "timid"}


class UnknownBotError(GameError):
    """A bot name that :func:`make_bot` does not know (a ``ValueError``, in words to translate)."""


def make_bot(spec: str) -> Bot:
    """The bot for a name, ``threshold:T`` or a difficulty (see the module docstring).

    >>> make_bot("threshold:8").name
    'threshold:8'
    >>> make_bot("grandmaster")
    Traceback (most recent call last):
    ...
    shipcaptaincrew.bots.UnknownBotError: unknown bot 'grandmaster': use random, timid, tip, threshold:T, ev, optimal, optimal:round, or easy, medium, hard, perfect
    """
    text = spec.strip().lower()
    text = DIFFICULTIES.get(text, text)
    text = POLICY_ALIASES.get(text, text)
    if text == "random":
        return RandomBot()
    if text == "timid":
        return TimidBot()
    if text == "tip":
        return TipBot()
    if text == "ev":
        return EVBot()
    if text == "optimal":
        return OptimalBot()
    if text == "optimal:round":
        from ..solver import Objective

        return OptimalBot(Objective.ROUND)
    if text.startswith("threshold:"):
        from ..solver import UnknownPolicyError, parse_policy

        try:
            p = parse_policy(text)
        except UnknownPolicyError as e:
            raise UnknownBotError(
                N_("bad bot '{spec}': {reason}"), spec=spec, reason=str(e)
            ) from None
        return ThresholdBot(p.threshold)
    raise UnknownBotError(
        N_("unknown bot '{spec}': use {names}, or {levels}"),
        spec=spec,
        names=", ".join(BOT_NAMES),
        levels=", ".join(DIFFICULTIES),
    )
