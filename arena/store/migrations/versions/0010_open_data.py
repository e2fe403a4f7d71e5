"""Open data: each season's licence for its published games, a bot owner's consent to
publish its notes, and a row per dump written (issue 35, item 4; docs/open-data.md).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column(
                "data_licence",
                sa.String(length=32),
                server_default="CC-BY-4.0",
                nullable=False,
            )
        )
    with op.batch_alter_table("bots") as batch:
        batch.add_column(
            sa.Column("notes_public", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "data_exports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("licence", sa.String(length=32), nullable=False),
        sa.Column("folder", sa.String(length=255), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name=op.f("fk_data_exports_season_id_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_data_exports")),
        sa.UniqueConstraint("season_id", "period", name=op.f("uq_data_exports_season_id_period")),
    )


def downgrade() -> None:
    op.drop_table("data_exports")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("notes_public")
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("data_licence")
