"""The match solver: the chance to win the whole match, at every position, for every choice.

**Why a model, and how it stays honest.**  The round solver (:mod:`..rounds`) answers "what
wins this round"; a match asks more: under ``rounds:3`` a player two points behind should
risk more than one ahead.  Walking the engine through every position of a match would cost
about 40 microseconds per posted score, half a minute for a single two-player ``first_to:50``
table, so :mod:`.model` restates the engine's few rules *between* rounds (who won the round,
what the totals become, what the format decides, who starts next) over arrays.  It is the
one place here that restates rules, so it says which it restates
(:data:`~..modelled.MATCH`, refusing every other rule set with an error naming the option)
and is checked against the engine's own matches, walked exactly
(``tests/test_solver_match_exact.py``).  The turn itself is never restated: it is the
engine's turn graph (:func:`~..graph.turn_graph`), as everywhere in the solver.

**The words.**

* A **position** (:mod:`.model`) is the start of a round as the format reads it -- the totals
  (or their differences), the rounds played, the round wins -- in *play order* (position 0 is
  the round's first player).  Every position has a code, an index into the value table.
* A **line** is one score per seat for a round.  It ends the round one way whatever the
  position (a winner, a tie and its tie-break, everyone failing), and leads to a decided match
  or to another position.
* A **level** groups positions so that a round leads only to levels solved before, or back
  into its own (a replayed round): :mod:`.solve` works level by level from the last rounds
  back, playing each round seat by seat over the tree of posted scores (:mod:`.play`), and
  settles the loops by policy iteration.
* A **view** (:mod:`.view`) is what a player at the table sees -- the totals, the scores
  posted so far, the seats to come -- turned into a position and a node of that tree: the
  bridge from a real :class:`~shipcaptaincrew.state.MatchState` to the solved tables.

**A worked example.**  Two players, ``rounds:3``, both playing ``optimal``.  The last round is
solved first: from a position "0 points apart, last round" every line of scores decides the
match, so the chance of winning it is the chance of out-scoring the other, and the first
player's best play is the round solver's.  From "first player 5 points behind, last round"
the lines that win are those where she out-scores the other by more than 5, so her best play
at each roll (found by :mod:`.play`) is the one with the best chance of that, which need not
be the one with the best expected score.  Round two's positions are then solved with the last round's values as the
reward of each line, and so on back to the first round: the value at "0 apart, three rounds
left" is each seat's chance of winning the match, and the choice at every turn is read off
by :mod:`.advice` (``scc advise`` and the ``optimal`` bot).

**Beyond the exact solver.**  Tables too large to solve exactly (more seats, longer matches)
are played by :mod:`.estimate`, which values the totals after the round by an estimate of the
rounds left instead of solving them.  The tournament's preliminaries and final
(:mod:`.tournament`) and a session's stop (:mod:`.session`) are positions of their own kind.

**Reading order.**  :mod:`.model` (positions and lines), :mod:`.codes` (a position as an
integer), :mod:`.view`, :mod:`.play` (one round seat by seat), :mod:`.solve`, :mod:`.advice`
(one turn's choices), then what is built on them: :mod:`.estimate`, :mod:`.tournament`,
:mod:`.session`, :mod:`.table` (the decision tables of ``scc strategy --format``),
:mod:`.findings` and :mod:`.report` (the match part of ``docs/strategy.md``).
"""
