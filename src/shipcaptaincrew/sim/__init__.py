"""Simulation at scale: vectorised turns from engine-derived tables, matches, sweeps.

* :mod:`.tables` -- a turn's Markov chain under a bot, folded into the solver's turn graph
  (the engine's turn, enumerated once), sampled in bulk;
* :mod:`.steps` -- whole matches on step tables the engine fills once per
  distinct (state, outcome), many matches stepping at once;
* :mod:`.keyed` -- random numbers keyed by (seed, match, seat, draw): common random numbers;
* :mod:`.match` -- whole matches played by the engine, fed with sampled turn scores (what the
  step tables cannot play);
* :mod:`.run`, :mod:`.result` -- chunks on workers or a Dask cluster; the result, its summaries
  and provenance;
* :mod:`.sweep` -- a grid of rule sets x bots x player counts as one tidy table;
* :mod:`.reference` -- the plain engine loop the vectorised simulator is checked against.
"""

from __future__ import annotations

from .policy import make_policy
from .run import CHUNK, Backend, SimulationResult, simulate, simulate_turns, wilson
from .tables import ExactTurnOdds, TurnSample, TurnTable, build_table

__all__ = [
    "CHUNK",
    "Backend",
    "ExactTurnOdds",
    "SimulationResult",
    "TurnSample",
    "TurnTable",
    "build_table",
    "make_policy",
    "simulate",
    "simulate_turns",
    "wilson",
]
