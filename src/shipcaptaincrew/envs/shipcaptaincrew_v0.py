"""The PettingZoo environment under its versioned name, as PettingZoo's classic environments do.

``from pettingzoo.classic import tictactoe_v3`` is how those are imported; this module makes
the same spelling work here, and a change to the environment's behaviour gets a new module
(``shipcaptaincrew_v1``) instead of silently changing this one.

>>> from shipcaptaincrew.envs import shipcaptaincrew_v0
>>> aec = shipcaptaincrew_v0.env(players=4, rules="classic(wild_captain=true)")
>>> aec.reset(seed=3)
>>> aec.metadata["name"], len(aec.agents)
('shipcaptaincrew_v0', 4)
"""

from __future__ import annotations

from .pettingzoo_env import env, raw_env

__all__ = ["env", "raw_env"]
