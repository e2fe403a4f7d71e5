"""Live watchers: a row per match someone streams live, so the worker writes its live
events only while someone watches (arena/store/live.py).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_watchers",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seen_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_live_watchers_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_live_watchers")),
    )


def downgrade() -> None:
    op.drop_table("live_watchers")
