"""The table's say (issue: no one is kicked, squatted or fooled): how a finished match ended
(a walkover counts apart), the votes to let a bot play a silent person's turn, and the table
screens a seated player paired.

Kept in the database, not in one worker's memory, so every worker of a scaled-out server
counts the same votes and the same screens.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))
        batch.add_column(sa.Column("asks", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("screens", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("results") as batch:
        batch.add_column(
            sa.Column("walkover", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("walkover")
    with op.batch_alter_table("rooms") as batch:
        for name in ("screens", "asks", "ended"):
            batch.drop_column(name)
