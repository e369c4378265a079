"""Press, votes, e-mail reminders and designers' variant files.

Adds the ``messages``, ``message_recipients``, ``message_reads`` and
``variant_names`` tables; on ``games`` the uploaded variant's text and digest
and the reminder's time and claim; on ``seats`` the draw vote and the
concession; on ``phases`` the results report as text (what the mail sends).
Only additions: every existing game, seat and phase is kept as it is (new
columns are empty, or ``draw_vote`` false).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("variant_file", sa.Text(), nullable=True))
        games.add_column(sa.Column("variant_sha256", sa.String(length=64), nullable=True))
        games.add_column(sa.Column("remind_at", sa.DateTime(), nullable=True))
        games.add_column(sa.Column("reminded_turn", sa.Integer(), nullable=True))
        games.create_index("ix_games_remind_at", ["remind_at"])
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("draw_vote", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        seats.add_column(sa.Column("concede_to", sa.String(length=40), nullable=True))
    with op.batch_alter_table("phases") as phases:
        phases.add_column(sa.Column("report_text", sa.Text(), nullable=True))
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=20), nullable=False),
        sa.Column("sender_id", sa.Integer(), nullable=False),
        sa.Column("sender_power", sa.String(length=40), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("conversation", sa.String(length=600), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["sender_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_messages_game_id", "messages", ["game_id"])
    op.create_index("ix_messages_sender_sent", "messages", ["sender_id", "sent_at"])
    op.create_table(
        "message_recipients",
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=40), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["message_id"], ["messages.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("message_id", "power"),
    )
    op.create_index("ix_message_recipients_game_power", "message_recipients",
                    ["game_id", "power"])
    op.create_table(
        "message_reads",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("conversation", sa.String(length=600), nullable=False),
        sa.Column("last_read_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", "conversation"),
    )
    op.create_table(
        "variant_names",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    raise NotImplementedError("the judge's migrations are not reversible")
