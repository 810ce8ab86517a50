"""Alembic environment: runs on the connection handed over by :func:`..db.upgrade`."""

from __future__ import annotations

from alembic import context

from shipcaptaincrew.web.storage.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # command-line use: alembic -x url=...
    from sqlalchemy import create_engine

    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    engine = create_engine(str(url))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
