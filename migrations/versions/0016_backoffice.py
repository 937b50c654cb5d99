"""Recurring tournaments: each schedule (a template, a weekday or every day, a UTC time,
how long before the start registration opens) and each occurrence whose tournament was
created, unique per schedule and start so it is created once.

Revision ID: 0016
Revises: 0014
Create Date: 2026-12-06 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("template", sa.String(length=32), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("weekday", sa.Integer(), nullable=True),
        sa.Column("hour", sa.Integer(), nullable=False),
        sa.Column("minute", sa.Integer(), nullable=False),
        sa.Column("lead_minutes", sa.Integer(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL",
                                name=op.f("fk_tournament_schedules_created_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_schedules")),
    )
    op.create_table(
        "tournament_occurrences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("schedule_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["schedule_id"], ["tournament_schedules.id"], ondelete="CASCADE",
            name=op.f("fk_tournament_occurrences_schedule_id_tournament_schedules")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_occurrences")),
        sa.UniqueConstraint("schedule_id", "starts_at",
                            name="uq_tournament_occurrences_start"),
    )


def downgrade() -> None:
    op.drop_table("tournament_occurrences")
    op.drop_table("tournament_schedules")
