"""shipcaptaincrew: the dice game Ship, Captain and Crew (6-5-4), its exact odds and best play.

The rules live in one pure engine (:mod:`.engine` over :mod:`.turn`, configured by
:class:`.rules.Rules`); everything else is a thin shell around it.

>>> import shipcaptaincrew as scc
>>> t = scc.apply(scc.initial_turn(scc.find_rules("classic")), scc.Roll((6, 5, 3, 2, 2)))
>>> t.held                       # 001: keep the six and the five, three dice roll on
(6, 5)
"""

from __future__ import annotations

from .actions import (
    Action,
    HandOut,
    InvalidActionError,
    RerollCargo,
    Roll,
    Stand,
    Take,
    parse_action,
)
from .dice import InvalidDiceError
from .engine import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    InvalidSetupError,
    apply,
    chance_outcomes,
    current_player,
    dice_to_roll,
    initial_state,
    initial_turn,
    is_chance,
    is_terminal,
    legal_actions,
    returns,
    sample_chance,
    seat_to_act,
)
from .rules import PRESETS, InvalidRulesError, Rules, find_rules
from .state import MatchState, Phase, TurnPhase, TurnState


def __getattr__(name: str) -> str:
    """``__version__``, read from the git commit on first use (:mod:`.version`): importing the
    package asks git nothing, and a command that never prints the version never waits for it."""
    if name == "__version__":
        from .version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHANCE",
    "PRESETS",
    "TERMINAL",
    "Action",
    "HandOut",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDiceError",
    "InvalidRulesError",
    "InvalidSetupError",
    "MatchState",
    "Phase",
    "RerollCargo",
    "Roll",
    "Rules",
    "Stand",
    "Take",
    "TurnPhase",
    "TurnState",
    "__version__",
    "apply",
    "chance_outcomes",
    "current_player",
    "dice_to_roll",
    "find_rules",
    "initial_state",
    "initial_turn",
    "is_chance",
    "is_terminal",
    "legal_actions",
    "parse_action",
    "returns",
    "sample_chance",
    "seat_to_act",
]
