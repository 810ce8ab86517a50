"""Crews: the same friends, every week, with a season of their own.

A crew is a private group (a name, members with a name and a look, an admin or two) whose
rooms count for its season: ratings from every podium, records, who beats whom, each
member's form, and how well each member chose against the solver's best choice.  Everything
a crew has is for its members only: a device proves membership with its member key
(``X-Member-Key``, :mod:`.identity`), and a crew's id, its invite and its keys are random.

What lives here, side by side: the tables (:mod:`.models`), the requests (:mod:`.schemas`),
the member's identity as a dependency (:mod:`.identity`), the rows read and written
(:mod:`.store`, the rooms it plays in: :mod:`.tables`), a finished match recorded for its
crew (:mod:`.record`), the season's
numbers (:mod:`.season`, :mod:`.ratings`, :mod:`.records`), the crew's answer
(:mod:`.view`), its export (:mod:`.export`), the service that holds it together
(:mod:`.service`) and the routes (:mod:`.routes`).

A feature beside ``rooms/``, ``play/``, ``history/`` and ``setup/`` (docs/architecture.md):
it imports what is below the features (``table/``, ``display/``, ``words/``, ``storage/``)
and ``words.names``; its page strings are ``words/crew_strings.py``.  Who may import it: the
app (which connects it to the match service's hooks: a match that ends, a next match made),
the rooms' routes (a room opened for a crew, a member taking a seat: :mod:`.identity`), and
``scc crew``.
"""
