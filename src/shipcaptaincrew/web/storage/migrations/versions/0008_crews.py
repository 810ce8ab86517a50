"""Crews: private groups with a season of their own (their members, devices' keys, one-time
links, rooms, seats, what each recorded match left behind, their seasons), and a table's
choice to show its result in the server's lists.

Self-contained: only new tables and one new column, so it may be chained after any other
revision.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("published", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "crews",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("public_id", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("invite", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "crew_members",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "crew_id", sa.Integer(), sa.ForeignKey("crews.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("public_id", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("color", sa.Integer(), nullable=True),
        sa.Column("avatar", sa.String(16), nullable=True),
        sa.Column("admin", sa.Boolean(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_crew_members_crew_id", "crew_members", ["crew_id"])
    op.create_table(
        "crew_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("crew_members.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_crew_keys_member_id", "crew_keys", ["member_id"])
    op.create_table(
        "crew_links",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("crew_members.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("link_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_crew_links_member_id", "crew_links", ["member_id"])
    op.create_table(
        "crew_rooms",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "crew_id", sa.Integer(), sa.ForeignKey("crews.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("kept", sa.Boolean(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_crew_rooms_crew_id", "crew_rooms", ["crew_id"])
    op.create_index("ix_crew_rooms_played_at", "crew_rooms", ["played_at"])
    op.create_table(
        "crew_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("crew_members.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.UniqueConstraint("room_id", "token_hash"),
    )
    op.create_table(
        "crew_lines",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("crew_rooms.room_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column(
            "member_id",
            sa.Integer(),
            sa.ForeignKey("crew_members.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("twelves", sa.Integer(), nullable=False),
        sa.Column("crews", sa.Integer(), nullable=False),
        sa.Column("sips", sa.Integer(), nullable=False),
        sa.Column("sips_out", sa.Integer(), nullable=False),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.Column("behind", sa.Integer(), nullable=False),
        sa.Column("skill", sa.Float(), nullable=False),
        sa.Column("luck", sa.Float(), nullable=False),
        sa.Column("judged", sa.Integer(), nullable=False),
        sa.Column("unjudged", sa.Integer(), nullable=False),
        sa.Column("lowest", sa.Float(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.UniqueConstraint("room_id", "position"),
    )
    op.create_index("ix_crew_lines_member_id", "crew_lines", ["member_id"])
    op.create_table(
        "crew_decisions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("crew_rooms.room_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("best", sa.String(64), nullable=False),
        sa.Column("chance", sa.Float(), nullable=False),
        sa.Column("best_chance", sa.Float(), nullable=False),
    )
    op.create_index("ix_crew_decisions_room_id", "crew_decisions", ["room_id"])
    op.create_table(
        "crew_seasons",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "crew_id", sa.Integer(), sa.ForeignKey("crews.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("ends", sa.Date(), nullable=False),
    )
    op.create_index("ix_crew_seasons_crew_id", "crew_seasons", ["crew_id"])


def downgrade() -> None:
    for table in (
        "crew_seasons",
        "crew_decisions",
        "crew_lines",
        "crew_seats",
        "crew_rooms",
        "crew_links",
        "crew_keys",
        "crew_members",
        "crews",
    ):
        op.drop_table(table)
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("published")
