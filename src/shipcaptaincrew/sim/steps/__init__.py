"""The step tables: whole matches at NumPy speed, every step of them played once by the engine.

**Why this works without a second copy of the rules.**  Simulating a million matches through
the engine (:class:`~shipcaptaincrew.sim.match.MatchRunner`) calls ``apply`` tens of millions
of times, yet almost all of those calls repeat one another: the same position, the same dice,
the same answer.  So nothing here decides a rule.  Each *distinct* step is put to the engine
once (:func:`~shipcaptaincrew.engine.post_score` for a turn's score,
:func:`~shipcaptaincrew.engine.apply` for dice, :func:`~shipcaptaincrew.positions.after_round`
for the format's decision), its answer is written into a table, and from then on every match
that meets the step reads the answer with a NumPy gather.  A new rule in the engine is played
here the day it is written; what the tables take for granted is declared, checked against the
engine loop match for match, and everything else is refused (:mod:`.refusal`).

**The three words.**

* A **node** (:mod:`.nodes`) is an engine state where something is due (:class:`Due`): a turn,
  dice (a roll-off), the format's decision after a round, or nothing (the match is over).  It
  is the state *stripped of what every match carries for itself*: the totals, the count of
  rounds played and the values of the round's scores (a node only marks which seats have
  posted, :class:`~.probes.PostedMark`).  That is why a few thousand nodes serve every match.
* A **step** (:mod:`.table`, stored in :mod:`.rows`) is one engine call from a node with an
  outcome (a turn's score, or dice): its child node and what it adds to the match's record
  (totals, sips, round wins, a finished round, which seat's score it posted).
* A **key** says which variant of a step a match needs, when the engine's answer depends on
  what the node leaves out.  The tables find out by *probing* (:mod:`.probes`): a step is
  first played with stand-ins -- totals that can be added to but not compared
  (:class:`~.probes.TotalsProbe`), a count of rounds that cannot be counted
  (:class:`~.probes.CountProbe`), scores that cannot be tested against 0.  If the engine plays
  through, the step is the same for every match; if it touches a stand-in, the stand-in
  raises and the step is resolved once per key: the pattern of zeros among the round's
  scores, the count of rounds, or the *order* of the totals (all the engine reads of them).
  Keyed steps are found by key in dense tables, or sorted ones where keys are many
  (:mod:`.dense`).

**A worked example** (classic rules, ``format=rounds:3``, two ``ev`` bots; numbers as the
tables hold them).  Node 0 is the roll-off for the first starter: dice are due, seat 0 rolls.
Seat 0 rolls a 4: the engine's answer, asked once, is node 1 (seat 1 rolls against a 4),
touching no record.  Seat 1 rolls a 6: node 2, a turn due, seat 1 to play.  Seat 1 scores 9:
the step posts seat 1's score (the 9 goes into *that match's* record) and leads to node 3,
seat 0's turn, whose round scores read ``(None, PostedMark(1))`` -- the node does not know it
was a 9.  Seat 0 now scores 7, which can no longer win the round
(:func:`~shipcaptaincrew.positions.beaten`): it is played as 2, the lowest score there is,
which stands for every beaten score, so a 7 and a 5 there are one step.  That step ends the round (its child is
a :attr:`Due.DECIDE` node), adds a round won to seat 1 and both carried scores to the totals.
The next match that reaches node 3 with a 7 performs no engine call at all.

**One class per concept.**  :class:`MatchTable` (:mod:`.table`) owns the others and is the
only one that plays a step on the engine: the bots' turn samplers (:class:`~.samplers.TurnSamplers`), the
node graph (:class:`~.nodes.NodeGraph`: a state in, its node id out), the step rows
(:class:`~.rows.StepRows`: what each step does, packed for the loops; they know nothing of the
engine) and the key of the totals (:class:`~.dense.TotalsKeys`).  The loop over many matches
(:mod:`.fast`) reads those arrays and asks the table only for steps it has not met.

**Reading order.**  :mod:`.probes` (the stand-ins), :mod:`.nodes` (what a node is; the packed
node words read through :func:`~.nodes.due_at`, :func:`~.nodes.seat_at`,
:func:`~.nodes.arg_at`), :mod:`.samplers` (a turn node's draw), :mod:`.rows` (how a step is
stored; :func:`~.rows.child_at`), :mod:`.table` (asking the engine: :class:`MatchTable`),
:mod:`.fast` (the loop over many matches), :mod:`.dense` (lookup by key),
:mod:`.match_turns` (the match-optimal bot's turns), :mod:`.refusal` (what the tables play,
and why the rest goes to the engine loop).
"""

from __future__ import annotations

from .nodes import Due
from .refusal import MODELLED, FastRefusal, fast_refusal
from .table import MatchTable, match_table

__all__ = ["MODELLED", "Due", "FastRefusal", "MatchTable", "fast_refusal", "match_table"]
