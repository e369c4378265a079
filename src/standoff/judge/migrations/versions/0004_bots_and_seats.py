"""Bots in seats, seats that never die, deadlines at a fixed clock time, planning boards.

* ``seats``: ``user_id`` may be empty (a seat a bot plays for good, or one its
  master opened for a replacement); ``bot`` (who plays it now, when a bot does),
  ``open`` (a replacement may take it), ``missed`` (phases in a row with nothing
  sent), ``away_from``, ``away_until``, ``away_bot`` (a declared absence);
* ``games``: ``fill_bot`` and ``join_by`` (seats still empty when the join period
  ends go to a bot), ``takeover_after`` and ``takeover_bot`` (a bot plays a seat
  after that many missed phases), ``deadline_time`` and ``time_zone`` (deadlines
  at a fixed clock time);
* ``phases.bots``, ``phases.missed``: which powers a bot played in each processed
  phase, and which had to order and sent nothing;
* ``games.phase_title``: the phase as people read it, for the lobby;
* ``pending_orders.by_bot``: the bot that gave a power's pending orders;
* new table ``bot_jobs``: each bot's orders for each phase, a job for any worker;
* new table ``boards``: planning boards (a private copy of a position, adjudicated
  step by step, shared by a link).

Only additions: every existing row is kept (existing seats are people's).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.alter_column("user_id", existing_type=sa.Integer(), nullable=True)
        seats.add_column(sa.Column("bot", sa.String(length=40), nullable=True))
        seats.add_column(sa.Column("open", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        seats.add_column(sa.Column("missed", sa.Integer(), nullable=False, server_default="0"))
        seats.add_column(sa.Column("away_from", sa.DateTime(), nullable=True))
        seats.add_column(sa.Column("away_until", sa.DateTime(), nullable=True))
        seats.add_column(sa.Column("away_bot", sa.String(length=40), nullable=True))
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("fill_bot", sa.String(length=40), nullable=True))
        games.add_column(sa.Column("join_by", sa.DateTime(), nullable=True))
        games.add_column(sa.Column("takeover_after", sa.Integer(), nullable=True))
        games.add_column(sa.Column("takeover_bot", sa.String(length=40), nullable=True))
        games.add_column(sa.Column("deadline_time", sa.String(length=5), nullable=True))
        games.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
        games.add_column(sa.Column("phase_title", sa.String(length=80), nullable=True))
    op.create_index("ix_games_join_by", "games", ["join_by"])
    with op.batch_alter_table("pending_orders") as pending:
        pending.add_column(sa.Column("by_bot", sa.String(length=40), nullable=True))
    with op.batch_alter_table("phases") as phases:
        phases.add_column(sa.Column("bots", sa.JSON(), nullable=True))
        phases.add_column(sa.Column("missed", sa.JSON(), nullable=True))
    op.create_table(
        "bot_jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=20), nullable=False),
        sa.Column("power", sa.String(length=40), nullable=False),
        sa.Column("bot", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("claim", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "turn", "power", name="uq_bot_jobs_seat"),
    )
    op.create_table(
        "boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("variant_file", sa.Text(), nullable=True),
        sa.Column("variant_sha256", sa.String(length=64), nullable=True),
        sa.Column("steps", sa.JSON(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_index("ix_boards_owner_id", "boards", ["owner_id"])
    op.create_index("ix_bot_jobs_game_id", "bot_jobs", ["game_id"])
    op.create_index("ix_bot_jobs_status_lease", "bot_jobs", ["status", "lease_until"])


def downgrade() -> None:
    raise NotImplementedError("the judge's migrations are not reversible")
