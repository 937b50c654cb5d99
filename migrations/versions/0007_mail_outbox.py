"""Outgoing mail in a database outbox, sent by whichever server process claims it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 20:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("recipient", sa.String(length=320), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        # Enums are stored as plain strings (native_enum=False in the models).
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _timestamp("not_before"),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        _timestamp("claimed_until", nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _timestamp("created_at"),
        _timestamp("sent_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_outbox")),
    )
    op.create_index("ix_mail_outbox_due", "mail_outbox", ["status", "not_before"])


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_due", table_name="mail_outbox")
    op.drop_table("mail_outbox")
