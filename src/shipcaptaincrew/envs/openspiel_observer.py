"""The OpenSpiel game's observer: the table from one seat as a tensor in a view, and as text."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from ..rules import Rules
from ..state import MatchState
from .common import render_text
from .memo import Node
from .views import View, check_view, position_key, view_fields, view_pieces, view_vector


class _Game(Protocol):
    """What the observer reads of the game."""

    players: int
    rules: Rules


class _State(Protocol):
    """What the observer reads of a state of the game."""

    match: MatchState
    rolling: bool

    def _node(self) -> Node: ...


__all__ = ["ShipCaptainCrewObserver"]


class ShipCaptainCrewObserver:
    """The table from one seat, a PyObserver: a tensor in one :class:`~.views.View` (the
    ``view`` observation parameter, default ``raw``) with a named piece per field, and a string.

    The observation string is the table as text without the last roll; the information-state
    observer (``perfect_recall``) gives the position key instead and no tensor.  Both depend
    on the position only, not on the way there.
    """

    def __init__(self, game: _Game, recall: bool, params: dict[str, Any]) -> None:
        # A parameter string is parsed like a game's: "onehot" names the view, "(view=onehot)"
        # sets it (pyspiel.game_parameters_from_string gives {"name": ...} for the first).
        unknown = set(params) - {"view", "name"}
        if unknown:
            raise ValueError(f"unknown observation parameter {sorted(unknown)[0]!r}: use view")
        self.view = check_view(params.get("view", params.get("name") or View.RAW))
        self.recall = recall
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if not recall:
            fields = view_fields(self.view, game.players, game.rules)
            self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in fields), np.float32)
            self.dict = view_pieces(self.tensor, fields)

    def set_from(self, state: _State, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` (kept with the state's answers: a position's
        tensor is made once)."""
        if self.tensor is not None:
            node = state._node()
            key = ("tensor", player, self.view)
            vector = node.extra.get(key)
            if vector is None:
                vector = node.extra[key] = np.array(
                    view_vector(state.match, player, self.view), dtype=np.float32
                )
            self.tensor[:] = vector

    def string_from(self, state: _State, player: int) -> str:
        """The position key (information state), or the table as text for ``player``."""
        # The cup taken up (the opening roll made, its dice due) is part of the position.
        rolling = " rolling" if state.rolling else ""
        if self.recall:
            node = state._node()
            key = node.extra.get("position key")
            if key is None:
                key = node.extra["position key"] = position_key(state.match)
            return key + rolling
        text = f"seat {player}\n" + render_text(state.match, player, last_roll=False)
        return text + ("rolling: the dice of the turn's first roll are due\n" if rolling else "")
