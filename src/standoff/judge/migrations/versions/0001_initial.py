"""The initial schema: accounts, tokens, log-in failures, games, seats, pending
orders and processed phases.

Written out by hand from ``standoff.judge.models`` (``tests/test_judge_migrations.py``
checks that they agree). Dates are plain ``DateTime`` columns holding UTC: the
models' ``UTCDateTime`` adds the time zone when reading them.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(), nullable=nullable)


def _json(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.JSON(), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("username_key", sa.String(length=32), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username_key"),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        _when("created_at"),
        _when("expires_at", nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_tokens_user_id", "tokens", ["user_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username_key", sa.String(length=64), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        _when("at"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_login_failures_at", "login_failures", ["at"])
    op.create_index("ix_login_failures_ip", "login_failures", ["ip"])
    op.create_index("ix_login_failures_username_key", "login_failures", ["username_key"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        _json("options"),
        sa.Column("press", sa.String(length=10), nullable=False),
        sa.Column("anonymous", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(length=64), nullable=True),
        sa.Column("master_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=20), nullable=False),
        _json("state"),
        _json("to_order"),
        _json("deadlines"),
        _when("deadline", nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("paused_remaining", sa.Float(), nullable=True),
        sa.Column("process_requested", sa.Boolean(), nullable=False),
        _json("outcome", nullable=True),
        _when("created_at"),
        _when("started_at", nullable=True),
        _when("finished_at", nullable=True),
        sa.ForeignKeyConstraint(["master_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.create_index("ix_games_master_id", "games", ["master_id"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("ready_turn", sa.Integer(), nullable=True),
        sa.Column("nmr", sa.Integer(), nullable=False),
        _when("joined_at"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("game_id", "power"),
        sa.UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "pending_orders",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=40), nullable=False),
        _json("orders"),
        _when("submitted_at"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "turn", "power"),
    )
    op.create_table(
        "phases",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=20), nullable=False),
        _json("position"),
        _json("orders"),
        _json("results"),
        _json("events"),
        _json("report", nullable=True),
        _when("processed_at"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "turn"),
    )


def downgrade() -> None:
    # the judge only moves forward: going back from the first schema would drop every game
    raise NotImplementedError("the judge's migrations are not reversible")
