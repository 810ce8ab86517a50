"""Play across a day: a slow table's time to act and its current turn's deadline (four
nullable columns of ``rooms``), and your turn on a phone (Web Push): the server's VAPID key
pair, the browsers' subscriptions (a seat's, or a crew member's), the tables a subscription
is muted for, and the outbox of notifications, one row per turn and subscription, written
before it is sent.

Self-contained: new tables (referring to rooms, seats and the crews' members of 0008) and new
nullable columns, so it may be chained after any revision from 0008 on (here after 0009).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("turn_hours", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("late", sa.String(8), nullable=True))
        batch.add_column(sa.Column("deadline_turn", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "push_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("public_key", sa.String(96), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("public_id", sa.String(32), nullable=False, unique=True),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("endpoint_hash", sa.String(64), nullable=False),
        sa.Column("p256dh", sa.String(96), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column(
            "seat_id", sa.Integer(), sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("crew_members.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("time_zone", sa.String(64), nullable=False),
        sa.Column("quiet_start", sa.Integer(), nullable=True),
        sa.Column("quiet_end", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("endpoint_hash", "seat_id"),
        sa.UniqueConstraint("endpoint_hash", "member_id"),
    )
    op.create_index("ix_push_subscriptions_endpoint_hash", "push_subscriptions", ["endpoint_hash"])
    op.create_index("ix_push_subscriptions_seat_id", "push_subscriptions", ["seat_id"])
    op.create_index("ix_push_subscriptions_member_id", "push_subscriptions", ["member_id"])
    op.create_table(
        "push_mutes",
        sa.Column(
            "subscription_id",
            sa.Integer(),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "subscription_id",
            sa.Integer(),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("room_id", "turn", "seat", "subscription_id"),
    )
    op.create_index("ix_push_outbox_subscription_id", "push_outbox", ["subscription_id"])
    op.create_index("ix_push_outbox_due", "push_outbox", ["state", "due_at"])


def downgrade() -> None:
    for table in ("push_outbox", "push_mutes", "push_subscriptions", "push_keys"):
        op.drop_table(table)
    with op.batch_alter_table("rooms") as batch:
        for column in ("turn_deadline", "deadline_turn", "late", "turn_hours"):
            batch.drop_column(column)
