"""Trust is its own flag: the platform's own bots run in-process, fillers or players.

`is_house` says a bot fills seats and is never ranked; the demo players are the platform's
own code too (house manifests) but play and rank as entrants. Trust used to be read from
the owner's name, then from `is_house`, which left the demo players sandboxed with a
manifest for a bot. Existing rows: the house bots and the house user's demo players.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.add_column(
            sa.Column("trusted", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.execute(
        # The platform's house account cannot sign in (its password hash is "!"): a person
        # who named himself "house" on a platform without one is not trusted by this.
        "UPDATE bots SET trusted = TRUE WHERE is_house"
        " OR owner_id IN (SELECT id FROM users WHERE username = 'house' AND password_hash = '!')"
    )


def downgrade() -> None:
    with op.batch_alter_table("bots") as batch:
        batch.drop_column("trusted")
