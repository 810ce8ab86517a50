"""Events keep one index: (room_id, seq).

The unique (room_id, seq) constraint's index already serves every lookup by room (room_id is
its first column), so the separate index on room_id only cost every move one more page to
write (measured with benchmarks/bench_web.py).

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_events_room_id", table_name="events")


def downgrade() -> None:
    op.create_index("ix_events_room_id", "events", ["room_id"])
