"""The analyses of matches (issue 33, item 2): which decisions cost points.

- `match_analyses`: one analysis of one match at one depth (samples, playouts, seed),
  asked by a user (the site's quota counts these rows), its progress while a worker runs
  it on the "analysis" queue, and its result (`arena.analysis.MatchAnalysis.to_dict`);
  the row is the cache: the same match at the same depth is analysed once;
- `seasons.public_analyses`: whether anyone signed in may ask for the analysis of the
  season's matches (otherwise only the owners of the bots in a match, and admins).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seasons") as batch:
        batch.add_column(
            sa.Column("public_analyses", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "match_analyses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("playouts", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "queued",
                "running",
                "done",
                "failed",
                name="analysis_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("requested_by", sa.Integer(), nullable=True),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=True),
        sa.Column("finished_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_analyses_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["requested_by"], ["users.id"], name=op.f("fk_match_analyses_requested_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_analyses")),
        sa.UniqueConstraint(
            "match_id",
            "samples",
            "playouts",
            "seed",
            name=op.f("uq_match_analyses_match_id_samples_playouts_seed"),
        ),
    )
    op.create_index(
        op.f("ix_match_analyses_status_created_at"),
        "match_analyses",
        ["status", "created_at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_match_analyses_requested_by_created_at"),
        "match_analyses",
        ["requested_by", "created_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_match_analyses_requested_by_created_at"), table_name="match_analyses")
    op.drop_index(op.f("ix_match_analyses_status_created_at"), table_name="match_analyses")
    op.drop_table("match_analyses")
    with op.batch_alter_table("seasons") as batch:
        batch.drop_column("public_analyses")
