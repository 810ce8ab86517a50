"""When someone was last at each room (unattended rooms expire), and how its client seeds enter
the fair dice (rooms before this revision keep the "|"-joined form: NULL).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("attended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("client_seed_format", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("client_seed_format")
        batch.drop_column("attended_at")
