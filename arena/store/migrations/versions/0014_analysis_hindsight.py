"""The hindsight of an analysis is part of its depth (issue 33, item 2's "with all hands
known" view on the site).

`match_analyses.hindsight`: whether the analysis also holds each play judged on the real
deal (`arena.analysis.Settings.hindsight`). It joins the row's depth key (match, samples,
playouts, seed, hindsight), so an analysis made without the hindsight view is never served
as one with it; the rows made before this migration are without it (false).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_KEY = "uq_match_analyses_match_id_samples_playouts_seed"
NEW_KEY = "uq_match_analyses_match_id_samples_playouts_seed_hindsight"


def upgrade() -> None:
    with op.batch_alter_table("match_analyses") as batch:
        batch.add_column(
            sa.Column("hindsight", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch.drop_constraint(OLD_KEY, type_="unique")
        batch.create_unique_constraint(
            NEW_KEY, ["match_id", "samples", "playouts", "seed", "hindsight"]
        )


def downgrade() -> None:
    # One row per depth again: where a match has both, the one with hindsight (a full fair
    # analysis too) is kept, the one without it goes.
    op.execute(
        """
        DELETE FROM match_analyses
        WHERE hindsight = false AND EXISTS (
            SELECT 1 FROM match_analyses AS other
            WHERE other.match_id = match_analyses.match_id
              AND other.samples = match_analyses.samples
              AND other.playouts = match_analyses.playouts
              AND other.seed = match_analyses.seed
              AND other.hindsight = true
        )
        """
    )
    with op.batch_alter_table("match_analyses") as batch:
        batch.drop_constraint(NEW_KEY, type_="unique")
        batch.create_unique_constraint(OLD_KEY, ["match_id", "samples", "playouts", "seed"])
        batch.drop_column("hindsight")
