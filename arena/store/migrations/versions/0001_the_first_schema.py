"""The first schema: every table of the arena store.

Revision ID: 0001
Revises: (none: the first migration)
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

TIMESTAMP = sa.DateTime(timezone=True)

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "archives",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("size >= 0", name=op.f("ck_archives_size_not_negative")),
        sa.PrimaryKeyConstraint("sha256", name=op.f("pk_archives")),
    )
    op.create_table(
        "rulesets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rulesets")),
        sa.UniqueConstraint("sha256", name=op.f("uq_rulesets_sha256")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("username", name=op.f("uq_users_username")),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("last_used_at", TIMESTAMP, nullable=True),
        sa.Column("revoked_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_api_tokens_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_tokens_token_hash")),
    )
    op.create_index(op.f("ix_api_tokens_user_id"), "api_tokens", ["user_id"], unique=False)

    op.create_table(
        "bots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("is_house", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], name=op.f("fk_bots_owner_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bots")),
        sa.UniqueConstraint("owner_id", "name", name=op.f("uq_bots_owner_id_name")),
    )
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("ruleset_id", sa.Integer(), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("starts_at", TIMESTAMP, nullable=False),
        sa.Column("ends_at", TIMESTAMP, nullable=False),
        sa.Column("cadence_seconds", sa.Integer(), nullable=False),
        sa.Column("matchmaking", sa.JSON(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "scheduled",
                "running",
                "finished",
                name="season_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("template_id", sa.Integer(), nullable=True),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("last_round_at", TIMESTAMP, nullable=True),
        sa.Column("rated_matches", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=True),
        sa.Column("finished_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("cadence_seconds > 0", name=op.f("ck_seasons_cadence_positive")),
        sa.CheckConstraint("ends_at > starts_at", name=op.f("ck_seasons_ends_after_start")),
        sa.CheckConstraint("players >= 2", name=op.f("ck_seasons_players_at_least_two")),
        sa.ForeignKeyConstraint(
            ["ruleset_id"], ["rulesets.id"], name=op.f("fk_seasons_ruleset_id_rulesets")
        ),
        sa.ForeignKeyConstraint(
            ["template_id"], ["seasons.id"], name=op.f("fk_seasons_template_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("name", name=op.f("uq_seasons_name")),
    )
    op.create_index(op.f("ix_seasons_ruleset_id"), "seasons", ["ruleset_id"], unique=False)
    op.create_index(
        op.f("ix_seasons_status_starts_at"), "seasons", ["status", "starts_at"], unique=False
    )
    op.create_index(op.f("ix_seasons_template_id"), "seasons", ["template_id"], unique=False)

    op.create_table(
        "bot_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bot_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("archive_sha256", sa.String(length=64), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "pending",
                "validating",
                "ready",
                "rejected",
                "disabled",
                name="version_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("status_reason", sa.Text(), nullable=True),
        sa.Column("status_detail", sa.Text(), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("status_changed_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_bot_versions_number_positive")),
        sa.ForeignKeyConstraint(
            ["archive_sha256"],
            ["archives.sha256"],
            name=op.f("fk_bot_versions_archive_sha256_archives"),
        ),
        sa.ForeignKeyConstraint(["bot_id"], ["bots.id"], name=op.f("fk_bot_versions_bot_id_bots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bot_versions")),
        sa.UniqueConstraint("bot_id", "number", name=op.f("uq_bot_versions_bot_id_number")),
    )
    op.create_index(
        op.f("ix_bot_versions_archive_sha256"), "bot_versions", ["archive_sha256"], unique=False
    )

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("ruleset_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table_number", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column(
            "format",
            sa.Enum(
                "single",
                "duplicate",
                name="match_format",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column(
            "status",
            sa.Enum(
                "queued",
                "running",
                "done",
                "void",
                "failed",
                name="match_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("status_reason", sa.Text(), nullable=True),
        sa.Column("hands_played", sa.Integer(), nullable=True),
        sa.Column("rating_seq", sa.Integer(), nullable=True),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=True),
        sa.Column("finished_at", TIMESTAMP, nullable=True),
        sa.Column("recorded_at", TIMESTAMP, nullable=True),
        sa.CheckConstraint("seed >= 0", name=op.f("ck_matches_seed_not_negative")),
        sa.ForeignKeyConstraint(
            ["ruleset_id"], ["rulesets.id"], name=op.f("fk_matches_ruleset_id_rulesets")
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_matches_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint(
            "season_id", "rating_seq", name=op.f("uq_matches_season_id_rating_seq")
        ),
        sa.UniqueConstraint(
            "season_id",
            "round",
            "table_number",
            name=op.f("uq_matches_season_id_round_table_number"),
        ),
    )
    op.create_index(op.f("ix_matches_ruleset_id"), "matches", ["ruleset_id"], unique=False)
    op.create_index(
        op.f("ix_matches_season_id_status"), "matches", ["season_id", "status"], unique=False
    )

    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("bot_version_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("rank", sa.SmallInteger(), nullable=True),
        sa.Column("faults", sa.Integer(), nullable=False),
        sa.Column("disqualified", sa.Boolean(), nullable=False),
        sa.Column("moons", sa.SmallInteger(), nullable=False),
        sa.Column("hand_points", sa.JSON(), nullable=True),
        sa.CheckConstraint("faults >= 0", name=op.f("ck_match_seats_faults_not_negative")),
        sa.CheckConstraint("rank IS NULL OR rank >= 1", name=op.f("ck_match_seats_rank_positive")),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_match_seats_seat_not_negative")),
        sa.ForeignKeyConstraint(
            ["bot_version_id"],
            ["bot_versions.id"],
            name=op.f("fk_match_seats_bot_version_id_bot_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_match_seats_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_match_seats")),
        sa.UniqueConstraint(
            "match_id", "bot_version_id", name=op.f("uq_match_seats_match_id_bot_version_id")
        ),
    )
    op.create_index(
        op.f("ix_match_seats_bot_version_id"), "match_seats", ["bot_version_id"], unique=False
    )

    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bot_version_id", sa.Integer(), nullable=False),
        sa.Column("elo_before", sa.Double(), nullable=False),
        sa.Column("elo_after", sa.Double(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.Column("games_after", sa.Integer(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["bot_version_id"],
            ["bot_versions.id"],
            name=op.f("fk_rating_history_bot_version_id_bot_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_rating_history_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_rating_history_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
        sa.UniqueConstraint(
            "match_id", "bot_version_id", name=op.f("uq_rating_history_match_id_bot_version_id")
        ),
    )
    op.create_index(
        op.f("ix_rating_history_season_id_bot_version_id"),
        "rating_history",
        ["season_id", "bot_version_id"],
        unique=False,
    )

    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bot_version_id", sa.Integer(), nullable=False),
        sa.Column("elo", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("last_match_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint("games >= 0", name=op.f("ck_ratings_games_not_negative")),
        sa.CheckConstraint("sigma >= 0", name=op.f("ck_ratings_sigma_not_negative")),
        sa.ForeignKeyConstraint(
            ["bot_version_id"],
            ["bot_versions.id"],
            name=op.f("fk_ratings_bot_version_id_bot_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["last_match_id"], ["matches.id"], name=op.f("fk_ratings_last_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_ratings_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ratings")),
        sa.UniqueConstraint(
            "season_id", "bot_version_id", name=op.f("uq_ratings_season_id_bot_version_id")
        ),
    )
    op.create_index(op.f("ix_ratings_bot_version_id"), "ratings", ["bot_version_id"], unique=False)
    op.create_index(
        op.f("ix_ratings_season_id_elo_bot_version_id"),
        "ratings",
        ["season_id", "elo", "bot_version_id"],
        unique=False,
    )

    op.create_table(
        "replays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("encoding", sa.String(length=16), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name=op.f("fk_replays_match_id_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_replays")),
        sa.UniqueConstraint("match_id", name=op.f("uq_replays_match_id")),
    )
    op.create_table(
        "season_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("bot_version_id", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("joined_at", TIMESTAMP, nullable=False),
        sa.Column("final_rank", sa.Integer(), nullable=True),
        sa.Column("final_elo", sa.Double(), nullable=True),
        sa.Column("final_games", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["bot_version_id"],
            ["bot_versions.id"],
            name=op.f("fk_season_entries_bot_version_id_bot_versions"),
        ),
        sa.ForeignKeyConstraint(
            ["season_id"], ["seasons.id"], name=op.f("fk_season_entries_season_id_seasons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season_entries")),
        sa.UniqueConstraint(
            "season_id", "bot_version_id", name=op.f("uq_season_entries_season_id_bot_version_id")
        ),
    )
    op.create_index(
        op.f("ix_season_entries_bot_version_id"), "season_entries", ["bot_version_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_season_entries_bot_version_id"), table_name="season_entries")

    op.drop_table("season_entries")
    op.drop_table("replays")
    op.drop_index(op.f("ix_ratings_season_id_elo_bot_version_id"), table_name="ratings")
    op.drop_index(op.f("ix_ratings_bot_version_id"), table_name="ratings")

    op.drop_table("ratings")
    op.drop_index(op.f("ix_rating_history_season_id_bot_version_id"), table_name="rating_history")

    op.drop_table("rating_history")
    op.drop_index(op.f("ix_match_seats_bot_version_id"), table_name="match_seats")

    op.drop_table("match_seats")
    op.drop_index(op.f("ix_matches_season_id_status"), table_name="matches")
    op.drop_index(op.f("ix_matches_ruleset_id"), table_name="matches")

    op.drop_table("matches")
    op.drop_index(op.f("ix_bot_versions_archive_sha256"), table_name="bot_versions")

    op.drop_table("bot_versions")
    op.drop_index(op.f("ix_seasons_template_id"), table_name="seasons")
    op.drop_index(op.f("ix_seasons_status_starts_at"), table_name="seasons")
    op.drop_index(op.f("ix_seasons_ruleset_id"), table_name="seasons")

    op.drop_table("seasons")
    op.drop_table("bots")
    op.drop_index(op.f("ix_api_tokens_user_id"), table_name="api_tokens")

    op.drop_table("api_tokens")
    op.drop_table("users")
    op.drop_table("rulesets")
    op.drop_table("archives")
