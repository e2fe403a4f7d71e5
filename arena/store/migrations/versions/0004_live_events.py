"""Live events: a running match's progress, batched, for the site to stream to watchers.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_live_events_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_events")),
        sqlite_autoincrement=True,  # ids never reused: watchers resume after the last id
    )
    op.create_index(op.f("ix_live_events_match_id"), "live_events", ["match_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_live_events_match_id"), table_name="live_events")
    op.drop_table("live_events")
