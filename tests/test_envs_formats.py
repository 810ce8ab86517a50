"""Whole matches in every format kind, under every preset, through all three adapters.

For each (preset, format kind) pair the official checkers pass: Gymnasium's ``check_env``,
PettingZoo's ``api_test`` and ``seed_test``, OpenSpiel's ``random_sim_test`` with serialization.
The numbers are small (``rounds:2``, ``first_to:8``, ``wins:2``, a session of two rounds) so
the whole grid stays cheap; the point is that no format breaks an adapter under any preset.
A few random matches then check what the observation says of the match: the totals, the round,
the seats still to come and the format's kind and N, against the engine's state.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from .need import need_module

gym = need_module("gymnasium")
need_module("pettingzoo")
pyspiel = need_module("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from shipcaptaincrew.envs import GYM_ID, openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import FORMAT_CODES  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402
from shipcaptaincrew.envs.pettingzoo_env import env, raw_env  # noqa: E402
from shipcaptaincrew.formats import FormatKind, MatchFormat  # noqa: E402
from shipcaptaincrew.rules import PRESETS, Stakes, find_rules  # noqa: E402

#: One small format of each kind.
FORMATS = {
    FormatKind.SINGLE: "single",
    FormatKind.ROUNDS: "rounds:2",
    FormatKind.FIRST_TO: "first_to:8",
    FormatKind.TOURNAMENT: "tournament",
    FormatKind.WINS: "wins:2",
    FormatKind.SESSION: "session",
}
#: Three seats: the fewest a tournament takes, so every kind plays at one table size.
PLAYERS = 3
#: A session's cap of rounds in these checks.
SESSION = 2
GRID = [(preset, fmt) for preset in sorted(PRESETS) for fmt in FORMATS.values()]
# The two warnings every classic environment with dict observations gets from api_test.
_EXPECTED = ("Observation is not a NumPy array", "Observation space for each agent probably")


def test_the_grid_has_every_kind_and_preset() -> None:
    assert {MatchFormat.parse(f).kind for f in FORMATS.values()} == set(FormatKind)
    assert set(FORMAT_CODES) == set(FormatKind)
    assert {p for p, _ in GRID} == set(PRESETS)


def reward_of(preset: str) -> str:
    """Chips where a pot is played (the documented option), else winning the match."""
    return "pot" if find_rules(preset).stakes is Stakes.POT else "win"


@pytest.mark.parametrize(("preset", "fmt"), GRID)
def test_gymnasium_check_env(preset: str, fmt: str) -> None:
    made = gym.make(
        GYM_ID,
        render_mode="ansi",
        rules=preset,
        bots=["tip"] * (PLAYERS - 1),
        format=fmt,
        session_rounds=SESSION,
        reward=reward_of(preset),
    )
    assert made.unwrapped.rules.format == MatchFormat.parse(fmt)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []  # passes without a single warning
    made.close()


@pytest.mark.parametrize(("preset", "fmt"), GRID)
def test_pettingzoo_api_and_seed_tests(preset: str, fmt: str) -> None:
    kwargs = {"players": PLAYERS, "rules": preset, "format": fmt, "session_rounds": SESSION}
    with warnings.catch_warnings():
        for message in _EXPECTED:
            warnings.filterwarnings("ignore", message=message)
        api_test(env(**kwargs), num_cycles=60)
    seed_test(lambda: env(**kwargs), num_cycles=30)


@pytest.mark.parametrize(("preset", "fmt"), GRID)
def test_openspiel_random_sim_test(preset: str, fmt: str) -> None:
    game = openspiel_game.load(PLAYERS, preset, session_rounds=SESSION, match_format=fmt)
    assert game.rules.format == MatchFormat.parse(fmt)
    assert pyspiel.load_game(str(game)).rules == game.rules
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("fmt", FORMATS.values())
def test_the_observation_carries_the_match(fmt: str) -> None:
    made = ShipCaptainCrewEnv(
        rules="classic", bots=["tip"] * (PLAYERS - 1), format=fmt, session_rounds=SESSION
    )
    expected = MatchFormat.parse(fmt)
    for seed in range(4):
        made.action_space.seed(seed)
        obs, _ = made.reset(seed=seed)
        done = False
        while not done:
            state = made.state
            assert obs["totals"].tolist() == list(state.totals)
            assert obs["round_no"].tolist() == [state.round_no]
            assert int(obs["players_after"]) == state.players_after
            assert FORMAT_CODES[int(obs["format_kind"])] is expected.kind
            assert obs["format_n"].tolist() == [expected.n]
            obs, reward, done, _, _ = made.step(made.action_space.sample())
        assert reward == (1.0 if made.state.winner == 0 else 0.0)


def test_the_format_replaces_the_rules_own_and_is_checked() -> None:
    # The preset plays first_to:50; the argument plays rounds:2 with the preset's other rules.
    made = ShipCaptainCrewEnv(rules="skip-kaptein-mannskap", format=MatchFormat.parse("rounds:2"))
    assert made.rules == find_rules("skip-kaptein-mannskap(format=rounds:2)")
    aec = raw_env(players=2, rules="classic", format="wins:3")
    assert aec.rules.format == MatchFormat.parse("wins:3")
    # Without format= the rule set's own format is played with match=True, one round without.
    assert ShipCaptainCrewEnv(rules="skip-kaptein-mannskap", match=True).rules.format.n == 50
    assert ShipCaptainCrewEnv(rules="skip-kaptein-mannskap").rules.format.kind is FormatKind.SINGLE
    with pytest.raises(ValueError, match="rounds:N needs 1 <= N <= 1000, got 0"):
        ShipCaptainCrewEnv(format="rounds:0")
    with pytest.raises(TypeError, match="format must be a MatchFormat or its text"):
        raw_env(format=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 3 players"):
        ShipCaptainCrewEnv(format="tournament")
    game = openspiel_game.load(2, "classic", match_format="first_to:21")
    assert game.get_parameters()["format"] == "first_to:21"
    assert np.isclose(game.utility_sum(), 1.0)
