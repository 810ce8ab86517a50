"""Rooms, from opening to the next match: the ``/api/rooms`` routes (``routes``), opening a
room, taking seats, seating bots and starting (``lobby``), playing again at the same table
(``nextmatch``: one seat a person for newcomers, the rematch's code for those who were
there), handing on the host's seat
(``host``), and how many rooms may open and how long an idle one lives (``upkeep``).  A feature
folder: it imports the shared folders below it (``table``, ``display``, ``words``,
``connections``, ``storage``) and the other features; the match service (``web/service.py``)
and the app import it."""
