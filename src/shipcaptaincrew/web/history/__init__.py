"""Finished matches and the statistics counted from them: the ``/api/matches`` routes
(``routes``: history, replays, the event log, the fairness check) and the ``/api/stats`` ones
(``stats_routes``: per-player statistics, the leaderboard), the read-only questions they ask
the database (``queries``), and each player's line counted from the engine's own states when a
match ends (``stats``).  A feature folder: it imports the shared folders below it and the
other features; the match service (``web/service.py``) and the app import it."""
