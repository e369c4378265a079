"""Safe to run in public: games set aside, per-game message numbers, throttles, readiness.

* ``games``: ``power_count`` (the lobby lists games without building their
  variants; filled here from each game's variant), and ``failed_turn``,
  ``failed_at``, ``failure`` (a phase that failed to process: the scheduler
  passes over the game until its master retries it);
* ``messages.number``: each message's number within its game (filled here in
  the order of the old global ids), and ``message_reads.last_read_id`` now
  holds such a number (converted here);
* new tables ``signups`` (the sign-up throttle), ``known_addresses`` (addresses
  an account has logged in from) and ``heartbeats`` (the readiness check's write).

Only additions and fills: every existing row is kept.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _power_count(variant: str, text: str | None) -> int:
    """How many powers a stored game's variant has (its own file, or a bundled one)."""
    from standoff import load_variant, variant_from_text

    try:
        v = variant_from_text(text, "stored variant file") if text else load_variant(
            variant.strip().lower())
    except Exception:  # a game that cannot be read keeps 0 and is set aside when played
        return 0
    return len(v.powers)


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("power_count", sa.Integer(), nullable=False,
                                   server_default="0"))
        games.add_column(sa.Column("failed_turn", sa.Integer(), nullable=True))
        games.add_column(sa.Column("failed_at", sa.DateTime(), nullable=True))
        games.add_column(sa.Column("failure", sa.Text(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, variant, variant_file FROM games")).all()
    counts: dict[tuple[str, str | None], int] = {}
    for gid, variant, text in rows:
        key = (variant, text)
        if key not in counts:
            counts[key] = _power_count(variant, text)
        conn.execute(sa.text("UPDATE games SET power_count = :n WHERE id = :id"),
                     {"n": counts[key], "id": gid})
    with op.batch_alter_table("messages") as messages:
        messages.add_column(sa.Column("number", sa.Integer(), nullable=False,
                                      server_default="0"))
    conn.execute(sa.text(
        "UPDATE message_reads SET last_read_id = (SELECT COUNT(*) FROM messages m "
        "WHERE m.game_id = message_reads.game_id AND m.id <= message_reads.last_read_id)"))
    conn.execute(sa.text(
        "UPDATE messages SET number = (SELECT COUNT(*) FROM messages m "
        "WHERE m.game_id = messages.game_id AND m.id <= messages.id)"))
    with op.batch_alter_table("messages") as messages:
        messages.create_unique_constraint("uq_messages_game_number", ["game_id", "number"])
    op.create_table(
        "signups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_signups_ip", "signups", ["ip"])
    op.create_index("ix_signups_at", "signups", ["at"])
    op.create_table(
        "known_addresses",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        sa.Column("last_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "ip"),
    )
    op.create_table(
        "heartbeats",
        sa.Column("process", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("process"),
    )


def downgrade() -> None:
    raise NotImplementedError("the judge's migrations are not reversible")
