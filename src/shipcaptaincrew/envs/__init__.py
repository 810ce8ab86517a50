"""Learning environments over the engine: Gymnasium, PettingZoo and OpenSpiel adapters.

Importing this package registers the Gymnasium environment ``ShipCaptainCrew-v0``.  The
PettingZoo environment is :mod:`.shipcaptaincrew_v0` (``env()`` and ``raw_env``, defined in
:mod:`.pettingzoo_env`) and the
OpenSpiel game in :mod:`.openspiel_game` (registered as ``python_ship_captain_crew`` when that
module is imported; its parameters, one per rule option, are drawn from the option table by
:mod:`.openspiel_params`).  Many tables stepping at once in NumPy: :mod:`.batched` (one turn
of the agent in a fixed contest) and :mod:`.batched_match` (whole matches, played between the
agent's decisions on the simulator's step tables).  All need the ``rl`` extra:
``pip install shipcaptaincrew[rl]``.

The adapters translate and nothing more: legal actions, chance outcomes, scores and winners
all come from :mod:`shipcaptaincrew.engine`.
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as error:
    # Without the extra, say what to install rather than leave a bare "No module named".
    raise ImportError(
        f"shipcaptaincrew.envs needs the rl extra: pip install 'shipcaptaincrew[rl]' ({error})"
    ) from error

from .encoding import NUM_ACTIONS, NUM_CHANCE_OUTCOMES

__all__ = ["GYM_ID", "NUM_ACTIONS", "NUM_CHANCE_OUTCOMES"]

#: The Gymnasium id of the single-agent environment.
GYM_ID = "ShipCaptainCrew-v0"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="shipcaptaincrew.envs.gym_env:ShipCaptainCrewEnv")
