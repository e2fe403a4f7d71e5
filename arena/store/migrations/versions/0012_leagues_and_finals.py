"""Leagues with bosses and finals of frozen versions (issue 35, items 1 and 2).

- `season_leagues`: a season that runs as leagues, its bosses (house bot kinds, lowest
  league first) and its promotion rule's knobs (arena/seasons/leagues.py);
- `league_places`: each bot's leagues in such a season, when it reached each one and
  when (and on what evidence) it was promoted out of it;
- `finals`, `final_entrants`, `final_tables`: a final, its finalists (each bot's version
  frozen at the deadline) and its schedule of tables, each made a match when released
  under the final's worker share (arena/seasons/finals.py).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _enum(name: str, values: Sequence[str]) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def upgrade() -> None:
    op.create_table(
        "season_leagues",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bosses", sa.JSON(), nullable=False),
        sa.Column("min_games", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("min_games >= 2", name=op.f("ck_season_leagues_min_games_two")),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_season_leagues_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("season_id", name=op.f("pk_season_leagues")),
    )
    op.create_table(
        "league_places",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("league", sa.SmallInteger(), nullable=False),
        sa.Column("reached_at", TIMESTAMP, nullable=False),
        sa.Column("promoted_at", TIMESTAMP, nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=True),
        sa.CheckConstraint("league >= 0", name=op.f("ck_league_places_league_not_negative")),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_league_places_season_id_seasons")
        ),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_league_places_bot_id_bots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_places")),
        sa.UniqueConstraint(
            "season_id", "bot_id", "league", name=op.f("uq_league_places_season_id_bot_id_league")
        ),
    )
    op.create_table(
        "finals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("ruleset_id", sa.Integer(), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("format", _enum("final_format", ("round_robin", "knockout")), nullable=False),
        sa.Column(
            "status", _enum("final_status", ("scheduled", "running", "finished")), nullable=False
        ),
        sa.Column("freeze_at", TIMESTAMP, nullable=False),
        sa.Column("worker_share", sa.Integer(), nullable=False),
        sa.Column("cycles", sa.Integer(), nullable=False),
        sa.Column("design", sa.JSON(), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=True),
        sa.Column("finished_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("worker_share >= 1", name=op.f("ck_finals_worker_share_positive")),
        sa.CheckConstraint("cycles >= 1", name=op.f("ck_finals_cycles_positive")),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_finals_season_id_seasons")
        ),
        sa.ForeignKeyConstraint(
            ["ruleset_id"], ["rulesets.id"], name=op.f("fk_finals_ruleset_id_rulesets")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_finals")),
        sa.UniqueConstraint("name", name=op.f("uq_finals_name")),
    )
    op.create_table(
        "final_entrants",
        sa.Column("final_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("bot_version_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["final_id"], ["finals.id"], name=op.f("fk_final_entrants_final_id_finals")
        ),
        sa.ForeignKeyConstraint(
            ["bot_id"], ["bots.id"], name=op.f("fk_final_entrants_bot_id_bots")
        ),
        sa.ForeignKeyConstraint(
            ["bot_version_id"],
            ["bot_versions.id"],
            name=op.f("fk_final_entrants_bot_version_id_bot_versions"),
        ),
        sa.PrimaryKeyConstraint("final_id", "number", name=op.f("pk_final_entrants")),
        sa.UniqueConstraint("final_id", "bot_id", name=op.f("uq_final_entrants_final_id_bot_id")),
    )
    op.create_table(
        "final_tables",
        sa.Column("final_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["final_id"], ["finals.id"], name=op.f("fk_final_tables_final_id_finals")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_final_tables_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("final_id", "number", name=op.f("pk_final_tables")),
        sa.UniqueConstraint("match_id", name=op.f("uq_final_tables_match_id")),
    )


def downgrade() -> None:
    op.drop_table("final_tables")
    op.drop_table("final_entrants")
    op.drop_table("finals")
    op.drop_table("league_places")
    op.drop_table("season_leagues")
