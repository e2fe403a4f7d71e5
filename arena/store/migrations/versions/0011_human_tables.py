"""Human tables: a person's seat at a match (issue 34, item 1), and the moments of that
seat's game as the worker tells them (its view at each deal, decision, trick and hand's
end), each decision's answer filled by the site from the person's POST
(arena/store/people.py).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "human_tables",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("per_decision", sa.Float(), nullable=False),
        sa.Column("show_after_hand", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_human_tables_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_human_tables_user_id_users")
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_human_tables")),
        sa.CheckConstraint("per_decision > 0", name=op.f("ck_human_tables_per_decision_positive")),
    )
    op.create_index(op.f("ix_human_tables_user_id"), "human_tables", ["user_id"])
    op.create_table(
        "table_moments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("deadline", TIMESTAMP, nullable=True),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("answered_at", TIMESTAMP, nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["human_tables.match_id"],
            name=op.f("fk_table_moments_match_id_human_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_moments")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_table_moments_match_id_number")),
    )


def downgrade() -> None:
    op.drop_table("table_moments")
    op.drop_index(op.f("ix_human_tables_user_id"), table_name="human_tables")
    op.drop_table("human_tables")
