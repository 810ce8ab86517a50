"""Play again: the votes, the seats asked for by spectators, and the next match's room.

Kept in the database (not in one worker's memory) so that every worker of a scaled-out server
counts the same votes and sends its own players to the same next room.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rematch", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("next_seats", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("next_code", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        for name in ("next_code", "next_seats", "rematch"):
            batch.drop_column(name)
