"""Who opened each room (a hash of the client's address), for the limit on new rooms an hour.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("created_by", sa.String(64), nullable=True))
        batch.create_index("ix_rooms_created_by", ["created_by"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_created_by")
        batch.drop_column("created_by")
