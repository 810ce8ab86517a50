"""Where a room's dice come from: fair dice the server rolls, or real dice typed in.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("dice", sa.String(16), nullable=False, server_default="fair"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("dice")
