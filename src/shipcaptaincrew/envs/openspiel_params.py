"""The OpenSpiel game's parameters, drawn from the option table: one typed parameter per option.

Besides ``players`` and ``rules`` (a preset name or canonical rules text), the game takes every
option of :data:`~shipcaptaincrew.options.OPTIONS` under its own name, typed by the option's
kind (:data:`PARAMETER_TYPES`) and defaulting to the table's default, so a new option becomes a
game parameter without a line written here.  Two things of OpenSpiel shape the translation:

* a parameter cannot be None, so a number option that allows "no limit" (``cargo_rerolls``)
  spells it :data:`UNLIMITED` (-1);
* OpenSpiel fills in the default of every parameter not given before the game sees the
  parameters, so a parameter at its default cannot be told from one left out.  The rule set
  is therefore ``rules`` first, then every option parameter whose value differs from the
  table's default replaces that option.  To set an option back to the table's default under
  a preset that changes it, write it in ``rules`` (``ship-captain-crew(stakes=points)``).

Every value is checked by its option and the rule set by :class:`~shipcaptaincrew.rules.Rules`,
so a bad value gets the core's :class:`~shipcaptaincrew.errors.InvalidRulesError`.

Three parameters are the environment's own, not rule options: ``session_rounds``, the rounds
after which a session (``format=session``) stops (see :mod:`.common`); ``replay_cap``, how
many times anything may repeat before the game ends as a draw (see :mod:`.finite`;
:data:`UNLIMITED`, the default, is no cap: the rules' game exactly); and ``roll_action``,
whether a turn opens with its player's roll, a move with one legal action (default true: see
:mod:`.openspiel_game`).

This module needs no OpenSpiel; :mod:`.openspiel_game` registers the game with it.

>>> parameter_specification()["cargo_rerolls"], parameter_specification()["format"]
(-1, 'single')
>>> str(rules_from_parameters({"rules": "ship-captain-crew", "half_cargo": True, "stakes": "points"}))
'ship-captain-crew(half_cargo=true)'
>>> str(rules_from_parameters({"rules": "classic[half_cargo:true]", "cargo_rerolls": 1}))
'classic(half_cargo=true,cargo_rerolls=1)'
>>> rules_from_parameters({"wild_face": 7})
Traceback (most recent call last):
...
shipcaptaincrew.errors.InvalidRulesError: wild_face must be a face 1..6, got 7

"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..facts import MIN_PLAYERS
from ..options import OPTIONS, Option, OptionType, unknown_option
from ..rules import Rules, find_rules
from .common import SESSION_ROUNDS

__all__ = [
    "DEFAULT_RULES",
    "GAME_DEFAULTS",
    "PARAMETER_TYPES",
    "UNLIMITED",
    "ParameterValue",
    "from_game_string",
    "game_parameters",
    "option_value",
    "parameter_specification",
    "parameter_value",
    "replay_cap_from",
    "rules_from_parameters",
    "to_game_string",
]

#: What a parameter holds (OpenSpiel also knows floats; no option is one).
ParameterValue = bool | int | str

#: The parameter type of each option kind.
PARAMETER_TYPES: dict[OptionType, type[ParameterValue]] = {
    OptionType.FLAG: bool,
    OptionType.NUMBER: int,
    OptionType.CHOICE: str,
    OptionType.FORMAT: str,
}

#: "No limit" for a number option that allows it (OpenSpiel parameters cannot be None).
UNLIMITED = -1

#: The ``rules`` parameter's default: the rule set of the table's defaults.
DEFAULT_RULES = str(Rules())

#: The parameters that are no rule option, with their defaults.
GAME_DEFAULTS: dict[str, ParameterValue] = {
    "players": MIN_PLAYERS,
    "rules": DEFAULT_RULES,
    "session_rounds": SESSION_ROUNDS,
    "replay_cap": UNLIMITED,
    "roll_action": True,
}


def parameter_value(option: Option, value: Any) -> ParameterValue:
    """An option's value as its parameter: a flag's bool, a number (or -1), a choice's text."""
    if value is None:
        return UNLIMITED
    if option.kind in (OptionType.FLAG, OptionType.NUMBER):
        return PARAMETER_TYPES[option.kind](value)
    return option.text(value)


def option_value(option: Option, raw: Any) -> Any:
    """A parameter as the option's typed value, checked by the option."""
    if option.unlimited and raw == UNLIMITED and not isinstance(raw, bool):
        return None
    return option.check(raw)


def parameter_specification() -> dict[str, ParameterValue]:
    """Every parameter and its default: :data:`GAME_DEFAULTS`, then the options in order."""
    return {
        **GAME_DEFAULTS,
        **{name: parameter_value(o, o.default) for name, o in OPTIONS.items()},
    }


def game_parameters(
    players: int,
    rules: Rules,
    session_rounds: int = SESSION_ROUNDS,
    replay_cap: int | None = None,
    roll_action: bool = True,
) -> dict[str, ParameterValue]:
    """What a game for ``rules`` reports: its canonical text and the value of every option.

    Loading these parameters gives the same game again: ``rules`` alone makes the rule set,
    and every option parameter only repeats a value it already has.
    """
    return {
        "players": players,
        "rules": to_game_string(str(rules)),
        "session_rounds": session_rounds,
        "replay_cap": UNLIMITED if replay_cap is None else replay_cap,
        "roll_action": roll_action,
        **{name: parameter_value(o, getattr(rules, name)) for name, o in OPTIONS.items()},
    }


def replay_cap_from(raw: Any) -> int | None:
    """The ``replay_cap`` parameter as a cap (None: no cap), if it is a count or :data:`UNLIMITED`."""
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < UNLIMITED:
        raise ValueError(f"replay_cap must be a count 0.. or {UNLIMITED} (no cap), got {raw!r}")
    return None if raw == UNLIMITED else raw


def rules_from_parameters(params: Mapping[str, Any]) -> Rules:
    """The rule set: ``rules``, then each option parameter that differs from the table's default.

    Unknown names are refused (OpenSpiel refuses them too, but a game can be built directly).
    """
    for key in params:
        if key not in OPTIONS and key not in GAME_DEFAULTS:
            raise unknown_option(key)
    base = find_rules(from_game_string(str(params.get("rules", DEFAULT_RULES))))
    changes: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        if name in params:
            value = option_value(option, params[name])
            if value != option.default:
                changes[name] = value
    return base.replace(**changes)


def to_game_string(rules_text: str) -> str:
    """The canonical rules text spelt for an OpenSpiel game string.

    OpenSpiel's game strings reserve ``(``, ``)``, ``,`` and ``=`` (``game(a=1,b=2)``), so
    inside one the options are written ``classic[half_cargo:true;cargo_rerolls:1]``.

    >>> to_game_string("classic(half_cargo=true,format=rounds:3)")
    'classic[half_cargo:true;format:rounds:3]'
    >>> from_game_string(_)
    'classic(half_cargo=true,format=rounds:3)'
    """
    name, _, inner = rules_text.partition("(")
    if not inner:
        return name
    items = [item.replace("=", ":", 1) for item in inner.rstrip(")").split(",")]
    return f"{name}[{';'.join(items)}]"


def from_game_string(text: str) -> str:
    """The canonical rules text from either spelling (see :func:`to_game_string`)."""
    name, _, inner = text.partition("[")
    if not inner:
        return text
    items = [item.replace(":", "=", 1) for item in inner.rstrip("]").split(";")]
    return f"{name}({','.join(items)})"
