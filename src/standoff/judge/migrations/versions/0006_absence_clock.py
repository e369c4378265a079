"""Absences that begin and end while a phase runs (issue 28, section 4).

* ``seats.away_started``: the absence has begun and its seat was handed to its
  bot (or made to hold) in the phase it began in; the scheduler hands over, once,
  the absences whose start has come and that have not, and gives back those whose
  end has come;
* indexes ``ix_seats_away_start`` (``away_started``, ``away_from``) and
  ``ix_seats_away_until``: the scheduler's two looks are ranges over the few seats
  with an absence, never a scan of every seat.

Only additions: every existing row is kept (an absence already under way is
handed over at the scheduler's first look, which changes nothing it already did:
a seat keeps its job, a holding seat is ready already).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("away_started", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_seats_away_start", "seats", ["away_started", "away_from"])
    op.create_index("ix_seats_away_until", "seats", ["away_until"])


def downgrade() -> None:
    raise NotImplementedError("the judge's migrations are not reversible")
