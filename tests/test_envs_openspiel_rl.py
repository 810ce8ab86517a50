"""OpenSpiel's own reinforcement-learning loop runs on the game as it is: the stock
``rl_environment`` loop with ``tabular_qlearner`` (and a deep learner where PyTorch is there).

The loop below is OpenSpiel's, line for line (``open_spiel/python/examples``): reset, let the
current player's agent step until the last time step, then step every agent with it.  It
assumes two things of a game, which the turn's opening ``roll`` (``roll_action``) gives: the
first time step has a player to act (without it, a quarter of the games were over before
anyone decided, and ``agents[current_player]`` raised IndexError), and every agent acts in
every game (without it, an agent that never acted stored the final time step as its last
state and failed an assertion at its next game).
"""

from __future__ import annotations

from typing import Any

import pytest

from .need import beyond_the_lock, need_module

need_module("pyspiel")
rl_environment = need_module("open_spiel.python.rl_environment")
tabular_qlearner = need_module("open_spiel.python.algorithms.tabular_qlearner")

from shipcaptaincrew.envs import openspiel_game  # noqa: E402
from shipcaptaincrew.envs.encoding import ROLL_ID  # noqa: E402


def stock_loop(env: Any, agents: list[Any], episodes: int) -> dict[str, int]:
    """OpenSpiel's training loop, with counts of what the game gave it."""
    seen = {"episodes": 0, "first_is_a_decision": 0, "every_agent_acted": 0, "rolls": 0}
    for _ in range(episodes):
        time_step = env.reset()
        acted = set()
        seen["first_is_a_decision"] += time_step.observations["current_player"] >= 0
        while not time_step.last():
            player_id = time_step.observations["current_player"]
            agent_output = agents[player_id].step(time_step)
            acted.add(player_id)
            seen["rolls"] += agent_output.action == ROLL_ID
            time_step = env.step([agent_output.action])
        # Episode is over, step all agents with the final info state.
        for agent in agents:
            agent.step(time_step)
        assert sum(time_step.rewards) == pytest.approx(1.0)
        seen["episodes"] += 1
        seen["every_agent_acted"] += acted == set(range(len(agents)))
    return seen


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, "classic"), (3, "classic(format=rounds:2)"), (4, "ship-captain-crew")],
)
def test_tabular_q_learning_self_play(players: int, rules: str) -> None:
    game = openspiel_game.load(players, rules)
    env = rl_environment.Environment(game, seed=7)
    actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=i, num_actions=actions) for i in range(players)]
    seen = stock_loop(env, agents, 300)
    assert seen["episodes"] == seen["first_is_a_decision"] == seen["every_agent_acted"] == 300
    assert seen["rolls"] >= 300 * players  # each seat's turn opens with its roll
    # They learned: every agent holds values for the positions it met, and its greedy play
    # (evaluation steps) runs through the same loop.
    assert all(len(agent._q_values) > 10 for agent in agents)
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        out = agents[player].step(time_step, is_evaluation=True)
        assert out.action in time_step.observations["legal_actions"][player]
        time_step = env.step([out.action])


def test_without_the_opening_roll_the_stock_loop_fails() -> None:
    """The game as it was (``roll_action=False``): the loop meets a game over at reset."""
    game = openspiel_game.load(2, "classic", roll_action=False)
    env = rl_environment.Environment(game, seed=7)
    agents = [tabular_qlearner.QLearner(player_id=i, num_actions=game.num_distinct_actions())
              for i in range(2)]  # fmt: skip
    with pytest.raises((IndexError, AssertionError, TypeError)):
        stock_loop(env, agents, 300)


def test_a_deep_learner_self_play() -> None:
    """OpenSpiel's PyTorch DQN, where PyTorch is installed (it is no dependency of the project:
    a CUDA build from PyPI is several GB; ``pip install torch==2.13.0 dm-tree`` on a CPU)."""
    why = "PyTorch from PyPI is a CUDA build of several GB; install torch (CPU) and dm-tree"
    beyond_the_lock("torch", why)
    beyond_the_lock("tree", why)
    dqn = need_module("open_spiel.python.pytorch.dqn")
    game = openspiel_game.load(2, "classic")
    env = rl_environment.Environment(game, seed=3)
    size = env.observation_spec()["info_state"][0]
    agents = [
        dqn.DQN(
            player_id=i,
            state_representation_size=size,
            num_actions=env.action_spec()["num_actions"],
            hidden_layers_sizes=[32],
            replay_buffer_capacity=2000,
            batch_size=16,
            learn_every=4,
            min_buffer_size_to_learn=64,
        )
        for i in range(2)
    ]
    seen = stock_loop(env, agents, 150)
    assert seen["episodes"] == seen["every_agent_acted"] == 150
    assert all(agent.loss is not None for agent in agents)  # both networks trained
