"""The learning examples run end to end (tiny settings; the real runs are in
docs/learning.md)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from .need import need_module

need_module("gymnasium")
need_module("pyspiel")

from shipcaptaincrew import find_rules  # noqa: E402
from shipcaptaincrew.envs.encoding import index_action  # noqa: E402
from shipcaptaincrew.envs.gym_env import ShipCaptainCrewEnv  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_train_tabular_quick_trains_for_a_match_and_reports_exact_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    example = load("train_tabular")
    assert example.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rules classic(format=rounds:3); two players")
    assert "training: Q-learning, 300 matches" in out
    # The exact values: optimal against itself is one half; the two against each other add up.
    assert "  optimal vs optimal        50.0000%" in out
    against = float(out.split("optimal vs optimal:round  ")[1].split("%")[0])
    back = float(out.split("optimal:round vs optimal   ")[1].split("%")[0])
    assert 50 < against < 52 and math.isclose(against + back, 100, abs_tol=1e-3)
    for opponent in ("optimal", "optimal:round"):
        assert f"learned (greedy Q) vs {opponent:<14} " in out
        assert f"optimal            vs {opponent:<14} " in out
    assert "+- " in out and "(exact 50.00%)" in out
    assert "exact values of the learned policy: skipped under --quick" in out
    assert "distinct states" in out


def test_train_tabular_walks_the_learned_policys_exact_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One round: the match is the round, so optimal and optimal:round are one opponent; the
    best response takes at least what optimal takes from the learned policy."""
    example = load("train_tabular")
    assert example.main(["--quick", "--exact", "--format", "rounds:1"]) == 0
    out = capsys.readouterr().out
    assert "exact values of the learned policy (the engine walked roll by roll" in out
    against = {
        o: float(out.split(f"  learned (greedy Q) vs {o:<14} ")[1].split("%")[0])
        for o in ("optimal", "optimal:round")
    }
    assert 0 < against["optimal"] < 50 and math.isclose(
        against["optimal"], against["optimal:round"], abs_tol=1e-4
    )
    best = float(out.split("best response vs learned (greedy Q) ")[1].split("%")[0])
    takes = float(out.split("optimal wins ")[1].split("%")[0])
    assert math.isclose(takes, 100 - against["optimal"], abs_tol=1e-3)
    assert best >= takes - 1e-4
    assert "(exact " + f"{against['optimal']:.2f}%)" in out


def test_q_learning_beats_a_random_table() -> None:
    """Trained on a few thousand rounds, the greedy policy agrees with the solver far more
    often than the untrained table does (whose greedy choice is always the lowest id)."""
    example = load("train_tabular")

    support = sys.modules["_support"]
    env = ShipCaptainCrewEnv(rules="classic", bots=[support.optimal_bot()], seat=0)

    def agreement(table: object) -> float:
        ok = total = 0
        for episode in range(200):
            obs, _ = env.reset(seed=50_000 + episode)
            done = False
            while not done:
                ids = example.choices(obs)
                action = table.greedy(example.state_key(obs), ids)
                if len(ids) > 1:
                    best, _, _ = support.optimal_set(env.state)
                    ok += index_action(env.state, action) in best
                    total += 1
                obs, _, done, _, _ = env.step(action)
        return ok / total

    untrained = example.QTable(env.action_space.n)
    trained = example.train(env, 3000, seed=3, log=lambda _: None)
    before, after = agreement(untrained), agreement(trained)
    print(f"agreement untrained {before:.3f}, trained {after:.3f}")
    assert after > before + 0.1


def test_openspiel_mcts_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = load("openspiel_mcts")
    assert example.main(["--games", "2", "--simulations", "5"]) == 0
    out = capsys.readouterr().out
    assert "MCTS (5 simulations)" in out and "vs optimal" in out
    # The exact values: the 45.49% for random play, one half for optimal itself.
    assert "  exact: optimal vs optimal 50.00%; uniform random vs optimal 45.49%\n" in out
    assert "exact: none (a search, not a fixed policy)" in out and "exact 45.49%, z = " in out


def test_the_exact_table_chance_is_the_engines_own_round() -> None:
    """One round of two: the exact chances add up to one, optimal against itself is exactly
    one half, and a sample of whole engine rounds agrees with the exact random-vs-optimal."""
    load("openspiel_mcts")
    support = sys.modules["_support"]
    rules = find_rules("classic")
    a = support.exact_table_chance(rules, ["random", "optimal"], 0)
    b = support.exact_table_chance(rules, ["random", "optimal"], 1)
    assert math.isclose(a + b, 1.0, abs_tol=1e-12) and 0.45 < a < 0.46
    assert math.isclose(support.exact_table_chance(rules, ["optimal", "optimal"], 0), 0.5)
    env = ShipCaptainCrewEnv(rules="classic", bots=[support.optimal_bot()], seat=0)
    env.action_space.seed(0)
    wins = rounds = 0.0
    for seed in range(1500):
        _, info = env.reset(seed=seed)
        rounds += 1 + info["undecided_episodes"]
        wins += info["undecided_reward"]
        done = False
        while not done:
            _, reward, done, _, _ = env.step(env.action_space.sample())
        wins += reward
    rate = wins / rounds
    assert abs(rate - a) <= 4 * math.sqrt(a * (1 - a) / rounds), (rate, a, rounds)


def test_train_tabular_under_hand_outs_and_wild_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Sips to hand out have no solver advice (they change no win chance): they are skipped in
    the agreement, not a crash; wild captain and half cargo choices are compared."""
    example = load("train_tabular")
    for rules in (
        "classic(drinking=captain_hands_out)",
        "classic(half_cargo=true,wild_captain=true)",
    ):
        argv = ["--rules", rules, "--format", "rounds:1", "--episodes", "30", "--eval", "10"]
        assert example.main(argv) == 0
        out = capsys.readouterr().out
        assert f"rules {rules[:-1]},format=rounds:1)" in out and "decisions" in out


@pytest.mark.parametrize(
    ("name", "argv", "message"),
    [
        ("train_tabular", ["--eval", "0"], "argument --eval: must be at least 1, got 0"),
        ("train_tabular", ["--episodes", "x"], "expected an integer, got 'x'"),
        ("train_tabular", ["--format", "tournament"], "at least 3 players"),
        ("train_tabular", ["--format", "rounds:0"], "rounds:N needs 1 <= N <= 1000, got 0"),
        ("train_tabular", ["--rules", "classic(colour=red)"], "unknown option 'colour'"),
        ("openspiel_mcts", ["--games", "0"], "argument --games: must be at least 1"),
        ("openspiel_mcts", ["--rules", "nonsense"], "unknown preset 'nonsense'"),
        ("openspiel_mcts", ["--rules", "classic(format=tournament)"], "at least 3 players"),
        ("envs_throughput", ["--rounds", "-1"], "argument --rounds: must be at least 1"),
    ],
)
def test_examples_refuse_bad_input_in_one_line(
    name: str, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load(name)
    with pytest.raises(SystemExit) as exit_info:
        example.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_envs_throughput_prints_every_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("envs_throughput").main(["--rounds", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["Gymnasium", "PettingZoo", "OpenSpiel"]
    assert all(float(line.split()[-2]) > 0 for line in lines)


def test_the_examples_pool_their_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    """Each seed's figures, then the pooled mean and spread over the seeds."""
    tabular = load("train_tabular")
    assert tabular.main(["--quick", "--seeds", "1,2"]) == 0
    out = capsys.readouterr().out
    assert "seed 1: training" in out and "seed 2: training" in out
    pooled = out.split("pooled over seeds 1,2 (mean +- sd):\n")[1]
    assert "sampled: learned (greedy Q) vs optimal" in pooled and "% +- " in pooled
    turn = load("train_batched_turn")
    assert turn.main(["--seeds", "1,2", "--steps", "30", "--tables", "512"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("  seed ")]
    assert len(rows) == 2 and all("exact win chance" in r for r in rows)
    optimum = {float(r.split("optimal ")[1].split("%")[0]) for r in rows}
    assert len(optimum) == 1 and abs(optimum.pop() - 49.2514) < 1e-3  # the optimal plan's
    assert "  pooled  exact win chance" in out
    mcts = load("openspiel_mcts")
    assert mcts.main(["--games", "2", "--simulations", "3", "--seeds", "4,5"]) == 0
    out = capsys.readouterr().out
    assert out.count("uniform random               seed ") == 2
    assert "uniform random               pooled   " in out and "over     4" in out
