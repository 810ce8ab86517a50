"""The kinds of node of the turn graph, and when two float values count as a tie.

Below :mod:`.graph` (the graph itself), :mod:`.exact` (its exact evaluators) and :mod:`.batch`
(its NumPy evaluator), which all read them; :mod:`.graph` names them too, where every caller
has always found them.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CHANCE_NODE", "DECISION_NODE", "FINAL_NODE", "TIE_TOLERANCE", "NodeKind"]


class NodeKind(IntEnum):
    """What a node of the turn graph is (integers, so kinds fit in NumPy arrays too)."""

    FINAL = 0  #: the turn is over: a final score
    CHANCE = 1  #: dice are due
    DECISION = 2  #: the player chooses


FINAL_NODE = NodeKind.FINAL
CHANCE_NODE = NodeKind.CHANCE
DECISION_NODE = NodeKind.DECISION

#: Two float values closer than this (relative to their size) count as a tie.
TIE_TOLERANCE = 1e-12
