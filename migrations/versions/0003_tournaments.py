"""Tournaments with their live state and prize pool escrow, their paid entries, and the
tournament a poker table belongs to.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 10:27:32
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        # Enums are stored as plain strings (native_enum=False in the models).
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("pool_held", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        _timestamp("starts_at", nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("finished_at", nullable=True),
        sa.CheckConstraint("pool_held >= 0", name=op.f("ck_tournaments_pool_held_not_negative")),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_tournaments_created_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(op.f("ix_tournaments_status"), "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("entry", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("prize", sa.BigInteger(), nullable=False),
        _timestamp("created_at"),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"],
            name=op.f("fk_tournament_entries_tournament_id_tournaments"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_entries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entries")),
        sa.UniqueConstraint("tournament_id", "entry", name="uq_tournament_entries_entry"),
    )
    op.create_index(
        op.f("ix_tournament_entries_tournament_id"), "tournament_entries", ["tournament_id"]
    )
    op.create_index(op.f("ix_tournament_entries_user_id"), "tournament_entries", ["user_id"])
    with op.batch_alter_table("poker_tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(length=32), nullable=True))
        batch.create_index(batch.f("ix_poker_tables_tournament_id"), ["tournament_id"])


def downgrade() -> None:
    with op.batch_alter_table("poker_tables") as batch:
        batch.drop_index(batch.f("ix_poker_tables_tournament_id"))
        batch.drop_column("tournament_id")
    op.drop_index(op.f("ix_tournament_entries_user_id"), table_name="tournament_entries")
    op.drop_index(op.f("ix_tournament_entries_tournament_id"), table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index(op.f("ix_tournaments_status"), table_name="tournaments")
    op.drop_table("tournaments")
