"""The Gymnasium environment's masks as the masking libraries look for them, and its flat
observation without the mask.

sb3-contrib's ``MaskablePPO`` finds the mask by one name, ``action_masks``
(``sb3_contrib.common.maskable.utils.EXPECTED_METHOD_NAME``), through Gymnasium's wrappers
(``get_wrapper_attr``) and through sb3's vector environments (``env_method``).  The name is
checked here everywhere; where sb3-contrib is installed (it needs PyTorch, which no lock of
the project has) its own helpers are called too.
"""

from __future__ import annotations

import numpy as np
import pytest

from .need import beyond_the_lock, need_module

gym = need_module("gymnasium")

import shipcaptaincrew.envs  # noqa: E402, F401  (registers ShipCaptainCrew-v0)
from shipcaptaincrew.envs import GYM_ID  # noqa: E402
from shipcaptaincrew.envs.encoding import decision_mask  # noqa: E402

#: The name sb3-contrib calls (its EXPECTED_METHOD_NAME), written here to check it by name.
EXPECTED_METHOD_NAME = "action_masks"


def test_action_masks_by_name_through_the_wrappers() -> None:
    env = gym.make(GYM_ID, rules="classic(half_cargo=true)", bots=["tip"])
    obs, _ = env.reset(seed=3)
    for _ in range(50):
        masks = env.get_wrapper_attr(EXPECTED_METHOD_NAME)()
        assert masks.dtype == np.bool_
        # The legal actions of the engine's state, as booleans, and the observation's mask.
        assert masks.tolist() == decision_mask(env.unwrapped.state).astype(bool).tolist()
        assert masks.tolist() == obs["action_mask"].astype(bool).tolist()
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(masks)[-1]))
        if terminated or truncated:
            assert not env.get_wrapper_attr(EXPECTED_METHOD_NAME)().any()
            obs, _ = env.reset()


def test_sb3_contribs_own_helpers_find_the_masks() -> None:
    why = (
        "sb3-contrib needs PyTorch (a CUDA build of several GB from PyPI); pip install sb3-contrib"
    )
    utils = beyond_the_lock("sb3_contrib.common.maskable.utils", why)
    vec_env = need_module("stable_baselines3.common.vec_env")
    assert utils.EXPECTED_METHOD_NAME == EXPECTED_METHOD_NAME
    env = gym.make(GYM_ID, rules="classic", bots=["ev"])
    env.reset(seed=1)
    assert utils.is_masking_supported(env)
    assert (
        utils.get_action_masks(env).tolist()
        == decision_mask(env.unwrapped.state).astype(bool).tolist()
    )
    vec = vec_env.DummyVecEnv([lambda: gym.make(GYM_ID, rules="classic", bots=["ev"])] * 2)
    vec.reset()
    assert utils.is_masking_supported(vec)
    stacked = utils.get_action_masks(vec)
    assert stacked.shape == (2, 34) and stacked.any(axis=1).all()


def test_maskable_ppo_learns_on_the_flat_env_without_an_illegal_move() -> None:
    """sb3-contrib's MaskablePPO out of the box on ``flatten=True``: it finds the mask by its
    name and only ever plays a legal id (``illegal="raise"`` would stop it at the first)."""
    why = (
        "sb3-contrib needs PyTorch (a CUDA build of several GB from PyPI); pip install sb3-contrib"
    )
    ppo = beyond_the_lock("sb3_contrib", why).MaskablePPO
    env = gym.make(GYM_ID, rules="classic", bots=["tip"], flatten=True, illegal="raise")
    model = ppo("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=3, verbose=0)
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=5)
    done, steps = False, 0
    while not done:
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks())
        obs, _, terminated, truncated, _ = env.step(int(action))
        done, steps = terminated or truncated, steps + 1
    assert steps >= 1 and model.num_timesteps >= 256


@pytest.mark.parametrize("view", ["raw", "relative", "onehot"])
def test_flatten_gives_the_features_without_the_mask(view: str) -> None:
    flat = gym.make(GYM_ID, rules="classic", bots=["tip"], view=view, flatten=True)
    whole = gym.make(GYM_ID, rules="classic", bots=["tip"], view=view)
    a, info = flat.reset(seed=9)
    b, _ = whole.reset(seed=9)
    features = np.concatenate([np.ravel(v) for k, v in b.items() if k != "action_mask"])
    assert flat.observation_space.contains(a) and a.shape == features.shape
    assert np.array_equal(a, features.astype(a.dtype))  # the same fields, no mask among them
    assert np.array_equal(info["action_mask"], b["action_mask"])
    assert np.array_equal(flat.unwrapped.action_masks(), b["action_mask"].astype(bool))
