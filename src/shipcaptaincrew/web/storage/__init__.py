"""The database: its tables (``models``), the engine, sessions and migrations (``db``, with
Alembic's scripts under ``migrations/``), and the hot path of every move on SQLite (``sqlite``).
The bottom of the web package: it imports nothing else of ``web``, and any module of ``web``
may import it."""
