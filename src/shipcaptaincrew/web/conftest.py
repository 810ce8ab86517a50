"""Keep pytest's doctest collection out of the Alembic scripts (they run only under Alembic)."""

collect_ignore = ["migrations"]
