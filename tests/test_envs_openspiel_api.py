"""OpenSpiel's own API tests (``pyspiel.random_sim_test``: random play with serialization and
OpenSpiel's checks of every state) for every preset and one match format of each kind, with
and without the replay cap; at every chance node the outcomes' probabilities sum to 1."""

from __future__ import annotations

import math

import pytest

from .need import need_module

pyspiel = need_module("pyspiel")

from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.rules import PRESETS  # noqa: E402

#: One format of each kind (the session with its cap of rounds), under the classic rules.
FORMATS = {
    "single": (3, "classic(format=single)"),
    "rounds": (3, "classic(format=rounds:3)"),
    "first_to": (3, "classic(format=first_to:12)"),
    "wins": (3, "classic(format=wins:2)"),
    "session": (3, "classic(format=session)"),
    "tournament": (4, "classic(format=tournament)"),
}


def check_state(state: pyspiel.State) -> None:
    """Run by OpenSpiel on every state of its random games."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
        assert all(p > 0 for _, p in outcomes)
    elif state.is_terminal():
        assert math.isclose(sum(state.returns()), 1.0)
    else:
        assert state.legal_actions()


@pytest.mark.parametrize("cap", [None, 2])
@pytest.mark.parametrize(
    ("players", "rules"),
    [*((3, preset) for preset in sorted(PRESETS)), *FORMATS.values()],
    ids=[*sorted(PRESETS), *FORMATS],
)
def test_openspiel_random_sim_test(players: int, rules: str, cap: int | None) -> None:
    game = openspiel_game.load(players, rules, session_rounds=3, replay_cap=cap)
    pyspiel.random_sim_test(
        game, num_sims=3, serialize=True, verbose=False, state_checker_fn=check_state
    )
