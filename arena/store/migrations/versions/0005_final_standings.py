"""A finished season's final order from the batch fit: each entry's points per hand
against the field, its 95 % interval and tie group, and the season's report.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("season_entries") as batch:
        batch.add_column(sa.Column("final_points", sa.Double(), nullable=True))
        batch.add_column(sa.Column("final_low", sa.Double(), nullable=True))
        batch.add_column(sa.Column("final_high", sa.Double(), nullable=True))
        batch.add_column(sa.Column("final_tie_first", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("final_tie_last", sa.Integer(), nullable=True))
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(sa.Column("final_report", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("final_report")
    with op.batch_alter_table("season_entries") as batch:
        for name in ("final_tie_last", "final_tie_first", "final_high", "final_low"):
            batch.drop_column(name)
        batch.drop_column("final_points")
