"""The demo players get their own owner, `demo`, apart from the house bots.

"House" meant two things: the `house` account's seat-fillers (`is_house`, never ranked)
and its demo players, ranked like contestants; the ladder showed "house" players ranked
under a panel saying house bots never take a rank. The demo players (trusted, not
`is_house`, of the house account) move to a `demo` account no one can sign in to (its
password hash is "!", as the house account's). A person who already holds the name keeps
it and gets nothing: the demo players then stay where they were, and the seeding
(`workers.seed.demo_account`) refuses to start until the account is renamed.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_HOUSE = "(SELECT id FROM users WHERE username = 'house' AND password_hash = '!')"
_DEMO = "(SELECT id FROM users WHERE username = 'demo' AND password_hash = '!')"


def upgrade() -> None:
    bind = op.get_bind()
    players = bind.scalar(
        sa.text(
            f"SELECT COUNT(*) FROM bots WHERE trusted AND NOT is_house AND owner_id IN {_HOUSE}"
        )
    )
    taken = bind.scalar(sa.text("SELECT COUNT(*) FROM users WHERE username = 'demo'"))
    if players and not taken:
        # An explicit id, then PostgreSQL's sequence moved past it: a database whose rows
        # were written with their ids (a restore, a copy) has a sequence that lags behind.
        bind.execute(
            sa.text(
                "INSERT INTO users (id, username, password_hash, is_admin, session_version,"
                " created_at) SELECT COALESCE(MAX(id), 0) + 1, 'demo', '!', FALSE, 0,"
                " CURRENT_TIMESTAMP FROM users"
            )
        )
        if bind.dialect.name == "postgresql":
            bind.execute(
                sa.text(
                    "SELECT setval(pg_get_serial_sequence('users', 'id'),"
                    " (SELECT MAX(id) FROM users))"
                )
            )
    op.execute(
        f"UPDATE bots SET owner_id = {_DEMO}"
        f" WHERE trusted AND NOT is_house AND owner_id IN {_HOUSE} AND {_DEMO} IS NOT NULL"
    )


def downgrade() -> None:
    op.execute(
        f"UPDATE bots SET owner_id = {_HOUSE}"
        f" WHERE trusted AND NOT is_house AND owner_id IN {_DEMO} AND {_HOUSE} IS NOT NULL"
    )
