"""What a shell that models rules itself understands, and its refusal of everything else.

Most shells ask the engine every question (``legal_actions``, ``chance_outcomes``, ``apply``,
``post_score``), so they play whatever the engine plays, a new option included.  A few fast
paths state rules themselves, in closed form or over arrays, because walking the engine would
be too slow: the round and match solvers, the match estimate, the simulator's step tables and
the learning environments' encodings.  Each declares here what it models --

* whole groups of options whose every effect it asks of the engine or reads from
  :class:`~shipcaptaincrew.rules.Rules` (the turn: its options act only through the turn's
  legal actions, chance outcomes and moves, and the turn's shape on ``Rules``), and
* the values of single options it was written for and is checked against the engine with
  (the values themselves: enum members, match format kinds, flags; never their spellings) --

and refuses any rule set outside that with :class:`~shipcaptaincrew.errors.UnmodelledRulesError`,
which names the option, rather than answer for rules it does not follow.  An option it does not
declare is refused at every value but the option's default: the table's defaults are the game
without the option (a default means "not used", as :attr:`.spec.Option.requires` reads it too),
so a new option left at its default changes nothing a fast path could miss, and a new option
set to anything else is refused until the fast path is taught it.

>>> from shipcaptaincrew.rules import Rules, TieBreak
>>> solver = Modelled(N_("the round solver"), (Group.TURN,), {"tie_break": (TieBreak.REPLAY,)})
>>> solver.refusal(Rules(half_cargo=True)) is None
True
>>> print(solver.refusal(Rules(tie_break="cargo_rolloff")))
the round solver does not model tie_break=cargo_rolloff (it models tie_break=replay)
>>> print(solver.refusal(Rules(starter="chosen")))
the round solver does not model the option starter (set to chosen)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UnmodelledRulesError
from ..formats import FormatKind
from ..messages import N_
from . import OPTIONS
from .spec import Group, Option, OptionType

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["EVERY_VALUE", "Modelled"]

#: A declared option whose every value the shell models (a number within its bounds).
EVERY_VALUE = None


def _key(option: Option, value: Any) -> Any:
    """What a declaration lists for a value: a match format by its kind (the kinds' bounds
    are the format table's), any other value as it is."""
    return value.kind if option.kind is OptionType.FORMAT else value


def _text(option: Option, key: Any) -> str:
    return str(key.value) if option.kind is OptionType.FORMAT else option.text(key)


@dataclass(frozen=True)
class Modelled:
    """The options a fast path models (see the module docstring).

    ``who`` names the fast path (a message id: refusals reach players in their language);
    ``groups`` are modelled whole; ``values`` maps an option to the values it models (enum
    members for a choice, :class:`~shipcaptaincrew.formats.FormatKind` members for the match
    format, ``True``/``False`` for a flag), or to :data:`EVERY_VALUE`.
    """

    who: str
    groups: tuple[Group, ...] = ()
    values: Mapping[str, tuple[Any, ...] | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A declaration naming an option the table does not have, or a value the option
        # cannot take, is a typo that would refuse (or allow) the wrong thing: caught when
        # the fast path is imported.
        for name, keys in self.values.items():
            option = OPTIONS.get(name)
            if option is None:
                raise ValueError(f"{self.who}: no option {name!r} to model")
            for key in keys or ():
                if option.kind is OptionType.FORMAT:
                    if not isinstance(key, FormatKind):
                        raise ValueError(f"{self.who}: {key!r} is no format kind")
                else:
                    option.check(key)

    def models(self, name: str, value: Any) -> bool:
        """Whether option ``name`` at ``value`` is within the declaration."""
        option = OPTIONS[name]
        if option.group in self.groups:
            return True
        if name not in self.values:
            return bool(value == option.default)
        keys = self.values[name]
        return keys is EVERY_VALUE or _key(option, value) in keys

    def refusal(self, rules: Rules) -> UnmodelledRulesError | None:
        """None when every option of ``rules`` is modelled, else the refusal naming the first
        option (in the table's order) that is not."""
        for name, option in OPTIONS.items():
            value = getattr(rules, name)
            if self.models(name, value):
                continue
            text = _text(option, _key(option, value))
            keys = self.values.get(name)
            if keys is None:
                return UnmodelledRulesError(
                    N_("{who} does not model the option {name} (set to {value})"),
                    who=(self.who,),
                    name=name,
                    value=text,
                )
            return UnmodelledRulesError(
                N_("{who} does not model {name}={value} (it models {name}={known})"),
                who=(self.who,),
                name=name,
                value=text,
                known="|".join(_text(option, k) for k in keys),
            )
        return None

    def check(self, rules: Rules, error: type[UnmodelledRulesError] = UnmodelledRulesError) -> None:
        """Raise ``error`` (a subclass a shell already catches) unless ``rules`` is modelled."""
        refused = self.refusal(rules)
        if refused is not None:
            raise error(refused.message.msgid, **refused.message.params)
