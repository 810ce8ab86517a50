"""The host's seat, and each seat's chosen colour and avatar.

``rooms.host`` is the host's seat (seat 0 when the room opens; handed on to the next person
online when the host stays away); ``seats.color`` and ``seats.avatar`` are what a player chose
at the join (NULL: the seat's own by its number).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("color", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("avatar", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("avatar")
        batch.drop_column("color")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host")
