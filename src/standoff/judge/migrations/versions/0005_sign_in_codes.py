"""One-time sign-in codes by e-mail (issue 26, item 4: nobody locks an owner out).

* new table ``sign_in_codes``: one code per account (its hash), until it is used,
  replaced or expired;
* new table ``sign_in_code_requests``: the codes mailed, by name and address, for
  the throttle that stops the route from being used to flood a mailbox;
* ``tokens.code_at``: when a page session was made by a code (such a session may
  set a new password without the old one for a while).

Only additions: every existing row is kept.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tokens") as tokens:
        tokens.add_column(sa.Column("code_at", sa.DateTime(), nullable=True))
    op.create_table(
        "sign_in_codes",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_index("ix_sign_in_codes_expires_at", "sign_in_codes", ["expires_at"])
    op.create_table(
        "sign_in_code_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username_key", sa.String(length=64), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_sign_in_code_requests_username_key", "sign_in_code_requests",
                    ["username_key"])
    op.create_index("ix_sign_in_code_requests_ip", "sign_in_code_requests", ["ip"])
    op.create_index("ix_sign_in_code_requests_at", "sign_in_code_requests", ["at"])


def downgrade() -> None:
    raise NotImplementedError("the judge's migrations are not reversible")
