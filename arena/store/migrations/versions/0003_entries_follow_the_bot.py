"""Entries follow the bot: the default season, pinned versions, the upload's opt-out, and
ratings inherited from the previous version (docs/decisions/0003-entries-follow-the-bot.md).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("is_default", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # The platform's demo season was the default in all but name: say so.
    op.execute(
        "UPDATE seasons SET is_default = TRUE "
        "WHERE name LIKE 'Demo season%' AND status <> 'finished'"
    )
    with op.batch_alter_table("bots") as batch:
        batch.add_column(sa.Column("pinned_number", sa.Integer(), nullable=True))
    with op.batch_alter_table("bot_versions") as batch:
        batch.add_column(
            sa.Column("join_default_season", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("inherited_from_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("start_elo", sa.Double(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_ratings_inherited_from_id_bot_versions"),
            "bot_versions",
            ["inherited_from_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_constraint(op.f("fk_ratings_inherited_from_id_bot_versions"), type_="foreignkey")
        batch.drop_column("start_elo")
        batch.drop_column("inherited_from_id")
    with op.batch_alter_table("bot_versions") as batch:
        batch.drop_column("join_default_season")
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("pinned_number")
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("is_default")
