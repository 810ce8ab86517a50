"""OpenSpiel game ``python_ship_captain_crew`` over the engine, registered on import.

Parameters (see :mod:`.openspiel_params`): ``players`` (two to eight, checked by
:func:`~shipcaptaincrew.engine.check_players`); ``rules``, a preset name or the canonical rules
text (for example ``"classic(half_cargo=true)"``, or ``classic[half_cargo:true]`` inside a game
string); and one parameter per rule option of the table, under the option's name and with the
table's default -- a flag is a bool, a number an int, a choice or the match format its text.
``cargo_rerolls=-1`` means no limit (OpenSpiel parameters cannot be None).  The rule set is
``rules`` with every option parameter that differs from its default applied on top: OpenSpiel
fills in the defaults of the parameters not given, so one given at its default changes nothing.
The match format of the rules is played in full; a session (``format=session``) stops after
``session_rounds`` rounds (default :data:`~shipcaptaincrew.envs.common.SESSION_ROUNDS`) unless a
player stops it earlier.

Chance is explicit: at a chance node the outcomes and their exact probabilities are the
engine's :func:`~shipcaptaincrew.engine.chance_outcomes`, each sorted roll mapped to one id of
:data:`~shipcaptaincrew.envs.encoding.CHANCE_OUTCOMES` (the 461 sorted rolls of 1 to 5 dice).
Decisions are the engine's :func:`~shipcaptaincrew.engine.legal_actions` under the ids of
:mod:`~shipcaptaincrew.envs.encoding`.  Returns are 1 for the match winner and 0 for the others
(a constant-sum game).  The game has perfect information; observation strings and tensors
show the whole table.

>>> import pyspiel
>>> import shipcaptaincrew.envs.openspiel_game
>>> game = pyspiel.load_game("python_ship_captain_crew", {"players": 3, "rules": "classic"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())     # the starter roll-off: one die
(True, 6)
>>> game = pyspiel.load_game("python_ship_captain_crew", {"players": 3, "half_cargo": True})
>>> str(game.rules), game.get_parameters()["cargo_rerolls"]
('classic(half_cargo=true)', -1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:
    raise ImportError(
        f"the OpenSpiel game needs the rl extra: pip install 'shipcaptaincrew[rl]' ({error})"
    ) from error

from ..actions import Action, Roll
from ..engine import (
    CHANCE,
    TERMINAL,
    apply,
    chance_outcomes,
    check_players,
    current_player,
    legal_actions,
    returns,
)
from ..facts import FACES, MAX_PLAYERS, MIN_PLAYERS, ROLLS
from ..rules import Rules
from ..state import MatchState
from .common import SESSION_ROUNDS, check_session_rounds, close_session, new_match, render_text
from .encoding import (
    CHANCE_OUTCOMES,
    NUM_ACTIONS,
    NUM_CHANCE_OUTCOMES,
    action_index,
    action_label,
    chance_index,
    flat_bounds,
    flat_observation,
    index_action,
)
from .openspiel_params import (
    from_game_string,
    game_parameters,
    parameter_specification,
    rules_from_parameters,
    to_game_string,
)

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "ROUND_MOVES",
    "ShipCaptainCrewGame",
    "ShipCaptainCrewState",
    "from_game_string",
    "load",
    "to_game_string",
]

GAME_NAME = "python_ship_captain_crew"

#: The moves of one round at the largest table, ties and replays aside: per seat up to three
#: rolls, each followed by a wild assignment and a stand-or-reroll call; then the captain's
#: die, a sip per pip of it and the stop, and a session's call for another round.
ROUND_MOVES = MAX_PLAYERS * ROLLS * 3 + 1 + max(FACES) + 1 + 1
#: A bound OpenSpiel asks for.  Ties and all-fail replays can in principle go on forever, so
#: no true bound exists; this one covers the longest capped session (``session_rounds`` at
#: its top, :func:`~shipcaptaincrew.envs.common.check_session_rounds`) of rounds of
#: :data:`ROUND_MOVES`, and long matches (first_to:50 with 8 players) with room to spare.
MAX_GAME_LENGTH = 100_000

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Ship, Captain and Crew (shipcaptaincrew engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=parameter_specification(),
)


class ShipCaptainCrewGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one player count and rule set."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        # load_game passes every parameter; a game built directly may leave some out.
        params = {**parameter_specification(), **(params or {})}
        self.rules = rules_from_parameters(params)
        self.players = check_players(self.rules, params["players"])
        self.session_rounds = check_session_rounds(params["session_rounds"])
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        # The game reports the value of every option, so its string loads the same game.
        super().__init__(
            _GAME_TYPE, info, game_parameters(self.players, self.rules, self.session_rounds)
        )

    def new_initial_state(self) -> ShipCaptainCrewState:
        """A new match: the roll-off (or the chosen starter's first roll)."""
        return ShipCaptainCrewState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ShipCaptainCrewObserver:
        """The whole table, as text and as a tensor (perfect information)."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return ShipCaptainCrewObserver(self.players)


class ShipCaptainCrewState(pyspiel.State):  # type: ignore[misc]
    """A wrapper around the engine's frozen :class:`~shipcaptaincrew.state.MatchState`."""

    def __init__(self, game: ShipCaptainCrewGame) -> None:
        super().__init__(game)
        self.match: MatchState = new_match(game.rules, game.players, None)
        self._session_rounds = game.session_rounds

    def current_player(self) -> int:
        """The seat to choose, or OpenSpiel's CHANCE / TERMINAL."""
        player = current_player(self.match)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(action_index(self.match, a) for a in legal_actions(self.match))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine's exact outcomes, as (id, probability) sorted by id."""
        return sorted(
            (chance_index(roll.faces), float(p)) for roll, p in chance_outcomes(self.match)
        )

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            # OpenSpiel itself only rejects -1; without this check a negative id would index
            # CHANCE_OUTCOMES from the end and roll a die pattern nobody chose.
            if not 0 <= action < NUM_CHANCE_OUTCOMES:
                raise ValueError(
                    f"chance outcome id {action} is out of range 0..{NUM_CHANCE_OUTCOMES - 1}"
                )
            self._play(Roll(CHANCE_OUTCOMES[action]))
            return
        chosen = index_action(self.match, action)
        if chosen is None or chosen not in legal_actions(self.match):
            raise ValueError(f"action id {action} is not legal in this state")
        self._play(chosen)

    def _play(self, action: Action) -> None:
        # A session at its cap stops there: the table's call is no decision of a player.
        self.match = close_session(apply(self.match, action), self._session_rounds)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "roll:" + "".join(map(str, CHANCE_OUTCOMES[action]))
        return action_label(self.match, action)

    def is_terminal(self) -> bool:
        """The match is over."""
        return self.match.is_over

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (all 0 before the end)."""
        return list(returns(self.match))

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect information: the history of actions identifies the state."""
        return " ".join(map(str, self.history()))

    def __str__(self) -> str:
        return render_text(self.match)


class ShipCaptainCrewObserver:
    """The table from one seat, as :func:`~.encoding.flat_observation` (a PyObserver)."""

    def __init__(self, players: int) -> None:
        low, _ = flat_bounds(players)
        self.tensor = np.zeros(len(low), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ShipCaptainCrewState, player: int) -> None:
        """Fill :attr:`tensor` for ``player``."""
        self.tensor[:] = flat_observation(state.match, player)

    def string_from(self, state: ShipCaptainCrewState, player: int) -> str:
        """The table as text, for ``player``."""
        return f"seat {player}\n" + render_text(state.match)


def load(
    players: int = MIN_PLAYERS, rules: Rules | str = "classic", session_rounds: int = SESSION_ROUNDS
) -> pyspiel.Game:
    """``pyspiel.load_game`` with the rules given as a value or text."""
    text = str(rules) if isinstance(rules, Rules) else str(Rules.from_str(rules))
    params = {"players": players, "rules": text, "session_rounds": session_rounds}
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(_GAME_TYPE, ShipCaptainCrewGame)
