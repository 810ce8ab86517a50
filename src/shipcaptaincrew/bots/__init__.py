"""Bots behind one protocol: ``choose(state, rng) -> action``.

>>> import random
>>> from shipcaptaincrew import Roll, apply, initial_turn, find_rules
>>> t = apply(initial_turn(find_rules("classic")), Roll((6, 5, 4, 1, 2)))
>>> str(TipBot().choose(t, random.Random(0)))
'reroll'
>>> str(TimidBot().choose(t, random.Random(0)))
'stand'
"""

from __future__ import annotations

from .base import Bot, NoDecisionError, RandomBot, ThresholdBot, TimidBot, TipBot

__all__ = ["Bot", "NoDecisionError", "RandomBot", "ThresholdBot", "TimidBot", "TipBot"]
