"""The solver's refusal, below every module of the solver that raises it.

:mod:`.rounds` names it too, where its callers have always found it; :mod:`.round_start`, which
:mod:`.rounds` imports, raises it as well, so it lives in neither.
"""

from __future__ import annotations

from ..errors import GameError

__all__ = ["SolverError"]


class SolverError(GameError):
    """The solver cannot answer: bad arguments, or a fixed point that does not converge.

    A refusal a person can meet carries its message id (``N_``) and parameters, so the
    command line and the web say it in the reader's language; a fault that only a bug can
    cause keeps its English text.
    """
