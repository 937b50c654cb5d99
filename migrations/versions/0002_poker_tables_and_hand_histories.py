"""Poker tables with their live state, finished hands and the players dealt into them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 05:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "poker_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("private", sa.Boolean(), nullable=False),
        # Enums are stored as plain strings (native_enum=False in the models).
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("closed_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["users.id"], name=op.f("fk_poker_tables_owner_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_poker_tables")),
    )
    op.create_index(op.f("ix_poker_tables_owner_id"), "poker_tables", ["owner_id"])
    op.create_index(op.f("ix_poker_tables_status"), "poker_tables", ["status"])
    op.create_table(
        "hand_histories",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("pot", sa.BigInteger(), nullable=False),
        sa.Column("phh", sa.Text(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        _timestamp("started_at"),
        _timestamp("ended_at"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["poker_tables.id"], name=op.f("fk_hand_histories_table_id_poker_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_histories")),
    )
    op.create_index(
        "ix_hand_histories_table_id_number", "hand_histories", ["table_id", "number"]
    )
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        _timestamp("ended_at"),
        sa.ForeignKeyConstraint(
            ["hand_id"],
            ["hand_histories.id"],
            name=op.f("fk_hand_players_hand_id_hand_histories"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_hand_players_user_id_users")
        ),
        sa.PrimaryKeyConstraint("hand_id", "user_id", name=op.f("pk_hand_players")),
    )
    op.create_index(
        "ix_hand_players_user_id_ended_at", "hand_players", ["user_id", "ended_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_hand_players_user_id_ended_at", table_name="hand_players")
    op.drop_table("hand_players")
    op.drop_index("ix_hand_histories_table_id_number", table_name="hand_histories")
    op.drop_table("hand_histories")
    op.drop_index(op.f("ix_poker_tables_status"), table_name="poker_tables")
    op.drop_index(op.f("ix_poker_tables_owner_id"), table_name="poker_tables")
    op.drop_table("poker_tables")
