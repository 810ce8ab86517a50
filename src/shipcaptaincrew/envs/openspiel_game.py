"""OpenSpiel game ``python_ship_captain_crew`` over the engine, registered on import.

Parameters (see :mod:`.openspiel_params`): ``players`` (two to eight, checked by
:func:`~shipcaptaincrew.engine.check_players`); ``rules``, a preset name or the canonical rules
text (for example ``"classic(half_cargo=true)"``, or ``classic[half_cargo:true]`` inside a game
string); and one parameter per rule option of the table, under the option's name and with the
table's default -- a flag is a bool, a number an int, a choice or the match format its text.
``cargo_rerolls=-1`` means no limit (OpenSpiel parameters cannot be None).  The rule set is
``rules`` with every option parameter that differs from its default applied on top: OpenSpiel
fills in the defaults of the parameters not given, so one given at its default changes nothing.
The match format of the rules is played in full, and the ``format`` parameter (an option
like any other) picks one: ``rounds:N``, ``first_to:N``, ``wins:N``, ``tournament`` or
``session``; the observation carries the totals, the round, the seats still to come in the
round and the format's kind and N; a session (``format=session``) stops after
``session_rounds`` rounds (default :data:`~shipcaptaincrew.envs.common.SESSION_ROUNDS`) unless a
player stops it earlier.  ``replay_cap=K`` makes the game finite: once a round everyone fails has
been replayed, a tied contest contested again, or a round without a winner followed by another,
more than ``K`` times, the game ends as a draw (every player's return ``1/players``; see
:mod:`.finite`); ``max_game_length`` is then a true bound.  The default, -1, is no cap.

Every turn opens with its player's move ``roll`` (id :data:`~.encoding.ROLL_ID`, the one legal
action there), as a player takes up the cup; then the dice are chance.  So every seat acts in
every round it plays, and no match is over before somebody has acted -- what OpenSpiel's RL
environment (``rl_environment.Environment``) and its learners assume: its loop asks the player
at the first time step for a move, and steps every agent at the end with the final time step,
which a learner that never acted would store as its previous state (a forced move is also
OpenSpiel's own way, as backgammon's pass).  ``roll_action=False`` drops the move: the dice of a
turn's first roll are chance at once (the game before this parameter).

Chance is explicit: at a chance node the outcomes and their exact probabilities are the
engine's :func:`~shipcaptaincrew.engine.chance_outcomes`, each sorted roll mapped to one id of
:data:`~shipcaptaincrew.envs.encoding.CHANCE_OUTCOMES` (the 923 sorted rolls of one to six dice).
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

try:
    import pyspiel
except ImportError as error:
    raise ImportError(
        f"the OpenSpiel game needs the rl extra: pip install 'shipcaptaincrew[rl]' ({error})"
    ) from error

from ..actions import Roll
from ..engine import (
    CHANCE,
    TERMINAL,
    apply,
    chance_outcomes,
    check_players,
    returns,
)
from ..facts import MAX_PLAYERS, MIN_PLAYERS
from ..formats import FORMAT_KINDS, FormatKind, MatchFormat
from ..rules import Rules
from ..state import MatchState
from .common import SESSION_ROUNDS, check_session_rounds, close_session, new_match, render_text
from .encoding import (
    CHANCE_OUTCOMES,
    NUM_ACTIONS,
    NUM_CHANCE_OUTCOMES,
    ROLL_ID,
    action_index,
    action_label,
    chance_index,
    index_action,
)
from .finite import AFTER_ROUND_MOVES, at_cap, draw_returns, max_moves, turn_moves
from .memo import EngineMemo, Node
from .modelled import check_encoded
from .openspiel_observer import ShipCaptainCrewObserver
from .openspiel_params import (
    UNLIMITED,
    from_game_string,
    game_parameters,
    parameter_specification,
    replay_cap_from,
    rules_from_parameters,
    to_game_string,
)

__all__ = [
    "GAME_NAME",
    "MAX_GAME_LENGTH",
    "ShipCaptainCrewGame",
    "ShipCaptainCrewState",
    "from_game_string",
    "load",
    "round_moves",
    "to_game_string",
    "uncapped_length",
]

GAME_NAME = "python_ship_captain_crew"


def round_moves(rules: Rules, roll_action: bool = True) -> int:
    """The moves of one round at the largest table, ties and replays aside: a turn per seat
    (:func:`~.finite.turn_moves`), then the hand-out and a session's call."""
    return MAX_PLAYERS * turn_moves(rules, roll_action) + AFTER_ROUND_MOVES


#: The least bound OpenSpiel is told without ``replay_cap``.  Ties and all-fail replays can in
#: principle go on forever, so no true bound exists; this one covers long matches (first_to:50
#: with 8 players) with room to spare, and :func:`uncapped_length` raises it where a session
#: needs more.  With ``replay_cap`` the game is finite and is told :func:`~.finite.max_moves`.
MAX_GAME_LENGTH = 100_000


def uncapped_length(rules: Rules) -> int:
    """The bound told without ``replay_cap``: at least :data:`MAX_GAME_LENGTH`, and enough for
    the longest capped session (``session_rounds`` at its top,
    :func:`~.common.check_session_rounds`) of rounds of :func:`round_moves` and the roll-off."""
    bounds = FORMAT_KINDS[FormatKind.ROUNDS].bounds
    assert bounds is not None
    return max(MAX_GAME_LENGTH, round_moves(rules) * bounds[1] + MAX_PLAYERS)


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
        self.rules = check_encoded(rules_from_parameters(params))
        self.players = check_players(self.rules, params["players"])
        self.session_rounds = check_session_rounds(params["session_rounds"])
        self.replay_cap = replay_cap_from(params["replay_cap"])
        self.roll_action = params["roll_action"]
        if not isinstance(self.roll_action, bool):
            raise ValueError(f"roll_action must be true or false, got {self.roll_action!r}")
        #: The engine's answers of this game's states, shared by all of them (:mod:`.memo`).
        self.memo = EngineMemo(self.rules)
        longest = (
            uncapped_length(self.rules)
            if self.replay_cap is None
            else max_moves(
                self.rules, self.players, self.replay_cap, self.session_rounds, self.roll_action
            )
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=longest,
        )
        # The game reports the value of every option, so its string loads the same game.
        super().__init__(
            _GAME_TYPE,
            info,
            game_parameters(
                self.players, self.rules, self.session_rounds, self.replay_cap, self.roll_action
            ),
        )

    def new_initial_state(self) -> ShipCaptainCrewState:
        """A new match: the roll-off (or the chosen starter's first roll)."""
        return ShipCaptainCrewState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ShipCaptainCrewObserver:
        """The whole table (perfect information) in the view ``params["view"]`` names.

        ``perfect_recall`` asks for the information state: the position key
        (:func:`~.views.position_key`), as the game is perfect-information and Markov.
        """
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ShipCaptainCrewObserver(self, recall, params or {})


#: A distribution of the engine's chance outcomes -> its (id, probability) list and each id's
#: place, kept by the distribution object (held, so its identity stays its own).
_CHANCE_LISTS: dict[int, tuple[Any, tuple[list[tuple[int, float]], dict[int, int]]]] = {}


class ShipCaptainCrewState(pyspiel.State):  # type: ignore[misc]
    """A wrapper around the engine's frozen :class:`~shipcaptaincrew.state.MatchState`."""

    def __init__(self, game: ShipCaptainCrewGame) -> None:
        super().__init__(game)
        #: The game's memo and this state's answers in it (:mod:`.memo`; a clone shares both).
        self._memo: EngineMemo = game.memo
        self.match: MatchState = new_match(game.rules, game.players, None)
        self._here: Node = game.memo.node(self.match)
        self._session_rounds = game.session_rounds
        self._replay_cap = game.replay_cap
        self._roll_action = game.roll_action
        #: The game ended at the replay cap: a draw (see :mod:`.finite`).
        self.capped = False
        #: The player at the table has taken up the cup: the turn's first dice are chance.
        self.rolling = False
        self._player = self._whose()

    def _node(self) -> Node:
        """The engine's answers about this state."""
        return self._here

    def _whose(self) -> int:
        node = self._here
        player = node.player
        if player == TERMINAL or self.capped:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            if self._roll_due(node):
                assert node.turn_seat is not None
                return node.turn_seat
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _roll_due(self, node: Node) -> bool:
        """A turn not yet begun whose player has not rolled (with ``roll_action``)."""
        return self._roll_action and not self.rolling and node.turn_seat is not None

    def current_player(self) -> int:
        """The seat to choose, or OpenSpiel's CHANCE / TERMINAL (worked out once per move)."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if self.capped:
            return []
        node = self._node()
        if self._roll_due(node):
            return [ROLL_ID]
        ids: list[int] | None = node.extra.get("legal ids")
        if ids is None:
            ids = node.extra["legal ids"] = sorted(
                action_index(self.match, a) for a in self._memo.legal(node)
            )
        return list(ids)  # a copy: the kept list is shared

    def _chance(self, node: Node) -> tuple[list[tuple[int, float]], dict[int, int]]:
        """The chance node's outcomes as (id, probability) sorted by id, and each id's place
        among the engine's outcomes (:meth:`.memo.EngineMemo.outcome`)."""
        found = node.extra.get("chance")
        if found is None:
            outcomes = chance_outcomes(node.state)
            shared = _CHANCE_LISTS.get(id(outcomes))
            if shared is None or shared[0] is not outcomes:
                # The exact probabilities as floats (not differences of a cumulative sum), kept
                # by the engine's distribution (many nodes roll the same dice).
                _, rolls, probs = self._memo.converted(outcomes)
                exact = [(chance_index(r.faces), p) for r, p in zip(rolls, probs)]
                places = {i: place for place, (i, _) in enumerate(exact)}
                if len(_CHANCE_LISTS) >= 4096:  # a distribution made anew at every call
                    _CHANCE_LISTS.clear()
                shared = _CHANCE_LISTS[id(outcomes)] = (outcomes, (sorted(exact), places))
            found = node.extra["chance"] = shared[1]
        return found

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine's exact outcomes, as (id, probability) sorted by id."""
        if self.capped:
            return []
        return list(self._chance(self._here)[0])  # a copy: the kept list is shared

    def _apply_action(self, action: int) -> None:
        node = self._here
        if self._player == pyspiel.PlayerId.CHANCE:
            # OpenSpiel itself only rejects -1; without this check a negative id would index
            # CHANCE_OUTCOMES from the end and roll a die pattern nobody chose.
            if not 0 <= action < NUM_CHANCE_OUTCOMES:
                raise ValueError(
                    f"chance outcome id {action} is out of range 0..{NUM_CHANCE_OUTCOMES - 1}"
                )
            place = self._chance(node)[1].get(action)
            if place is None:  # no outcome here: the engine says what is wrong with it
                apply(self.match, Roll(CHANCE_OUTCOMES[action]))
                raise ValueError(f"chance outcome id {action} cannot happen here")
            self._enter(self._memo.outcome(node, place))
            return
        if self._roll_due(node):
            if action != ROLL_ID:
                raise ValueError(f"action id {action} is not legal in this state: roll ({ROLL_ID})")
            self.rolling = True
            self._player = self._whose()
            return
        chosen = index_action(self.match, action)
        if chosen is None or chosen not in self._memo.legal(node):
            raise ValueError(f"action id {action} is not legal in this state")
        self._enter(self._memo.then(node, chosen))

    def _enter(self, after: MatchState) -> None:
        # A session at its cap stops there: the table's call is no decision of a player.
        self.match = close_session(after, self._session_rounds)
        self._here = self._memo.node(self.match)
        self.capped = at_cap(self.match, self._replay_cap)
        self.rolling = False
        self._player = self._whose()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "roll:" + "".join(map(str, CHANCE_OUTCOMES[action]))
        return action_label(self.match, action)

    def is_terminal(self) -> bool:
        """The match is over, or the game ended at the replay cap."""
        return bool(self._player == pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (all 0 before the end); a draw at the replay cap."""
        if self.capped:
            return draw_returns(self.match.players)
        return list(returns(self.match))

    def __str__(self) -> str:
        return render_text(self.match)


def load(
    players: int = MIN_PLAYERS,
    rules: Rules | str = "classic",
    session_rounds: int = SESSION_ROUNDS,
    replay_cap: int | None = None,
    match_format: MatchFormat | str | None = None,
    roll_action: bool = True,
) -> pyspiel.Game:
    """``pyspiel.load_game`` with the rules given as a value or text (and None for no cap).

    ``match_format`` (``"rounds:3"``, ``"tournament"``, ...) replaces the rules' format, as
    the game's ``format`` parameter does; ``roll_action=False`` drops the turn's opening move.
    """
    value = rules if isinstance(rules, Rules) else Rules.from_str(rules)
    if match_format is not None:
        fmt = MatchFormat.parse(match_format) if isinstance(match_format, str) else match_format
        value = value.replace(format=fmt)
    text = str(value)
    params = {
        "players": players,
        "rules": text,
        "session_rounds": session_rounds,
        "replay_cap": UNLIMITED if replay_cap is None else replay_cap,
        "roll_action": roll_action,
    }
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(_GAME_TYPE, ShipCaptainCrewGame)
