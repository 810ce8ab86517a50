"""Pieces shared by the examples: the project's ``optimal`` bot, the solver's view of a choice,
and command-line parsing that reports bad input in one line.

:func:`shipcaptaincrew.solver.advise` lists every legal choice of a turn with its exact win
probability under best play (everyone after playing the same way); the ``optimal`` bot of
:func:`shipcaptaincrew.bots.make_bot` plays its first choice.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

from shipcaptaincrew import MatchState
from shipcaptaincrew.actions import Action
from shipcaptaincrew.bots import Bot, make_bot
from shipcaptaincrew.solver import advise


def optimal_bot() -> Bot:
    """The project's ``optimal`` bot."""
    return make_bot("optimal")


def optimal_set(
    state: MatchState, tolerance: float = 1e-9
) -> tuple[set[Action], float, dict[Action, float]]:
    """The choices with the best win probability, that probability, and every choice's."""
    choices = advise(state)
    values = {c.action: c.win_probability for c in choices}
    best = max(values.values())
    return {a for a, v in values.items() if v >= best - tolerance}, best, values


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2, like ``scc``."""

    def error(self, message: str) -> NoReturn:
        """Report ``message`` in one line (no usage block) and exit with status 2."""
        fail(f"{self.prog}: error: {message}")


def fail(message: str) -> NoReturn:
    """One clear line on stderr, exit status 2 (the project's convention for bad input)."""
    sys.stderr.write(message + "\n")
    raise SystemExit(2)


def at_least(low: int) -> Callable[[str], int]:
    """An argparse ``type`` for an integer of at least ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = f"integer >= {low}"
    return parse
