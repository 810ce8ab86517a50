"""Connections and the limits on them: who is on the line and what waits to be sent to them
(``transport``), watchers' messages written a few dozen at a time (``pacer``), the Redis relay
between server processes (``relay``), and how many live connections each client may hold
(``limits``).  At the bottom of the web package with ``storage`` and ``pages``: it imports
nothing else of ``web``, and any module of ``web`` may import it."""
