"""Accounts, their tokens and avatars, the credits ledger, table escrow, admin audit log.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 04:33:31
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _enum(name: str) -> sa.Column[object]:
    # Enums are stored as plain strings (native_enum=False in the models).
    return sa.Column(name, sa.String(length=32), nullable=False)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=True),
        sa.Column("display_name", sa.String(length=20), nullable=True),
        sa.Column("display_name_key", sa.String(length=40), nullable=True),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        _enum("role"),
        _enum("status"),
        _timestamp("email_verified_at", nullable=True),
        sa.Column("token_version", sa.Integer(), nullable=False),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        _timestamp("last_daily_credits_at", nullable=True),
        sa.Column("ban_reason", sa.String(length=200), nullable=True),
        _timestamp("banned_at", nullable=True),
        _timestamp("deleted_at", nullable=True),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        sa.CheckConstraint("balance >= 0", name=op.f("ck_users_balance_not_negative")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("display_name_key", name=op.f("uq_users_display_name_key")),
        sa.UniqueConstraint("email", name=op.f("uq_users_email")),
        sa.UniqueConstraint("public_id", name=op.f("uq_users_public_id")),
    )
    op.create_table(
        "table_escrows",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("removed", sa.BigInteger(), nullable=False),
        _timestamp("updated_at"),
        sa.CheckConstraint("amount >= 0", name=op.f("ck_table_escrows_amount_not_negative")),
        sa.CheckConstraint("removed >= 0", name=op.f("ck_table_escrows_removed_not_negative")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_escrows")),
    )
    op.create_table(
        "account_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        _enum("purpose"),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("new_email", sa.String(length=320), nullable=True),
        _timestamp("created_at"),
        _timestamp("expires_at"),
        _timestamp("used_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_account_tokens_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_account_tokens_token_hash")),
    )
    op.create_index(op.f("ix_account_tokens_user_id"), "account_tokens", ["user_id"])
    op.create_table(
        "admin_audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target_user_id", sa.Integer(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        _timestamp("created_at"),
        sa.ForeignKeyConstraint(
            ["admin_id"], ["users.id"], name=op.f("fk_admin_audit_log_admin_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["target_user_id"],
            ["users.id"],
            name=op.f("fk_admin_audit_log_target_user_id_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_audit_log")),
    )
    op.create_index(op.f("ix_admin_audit_log_admin_id"), "admin_audit_log", ["admin_id"])
    op.create_index(
        op.f("ix_admin_audit_log_target_user_id"), "admin_audit_log", ["target_user_id"]
    )
    op.create_table(
        "avatars",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("image", sa.LargeBinary(), nullable=False),
        sa.Column("content_type", sa.String(length=32), nullable=False),
        _timestamp("updated_at"),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_avatars_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_avatars")),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        _enum("reason"),
        sa.Column("reference", sa.String(length=100), nullable=True),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        _timestamp("created_at"),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_ledger_entries_amount_not_zero")),
        sa.CheckConstraint(
            "balance_after >= 0", name=op.f("ck_ledger_entries_balance_after_not_negative")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ledger_entries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
    )
    op.create_index("ix_ledger_entries_user_id_id", "ledger_entries", ["user_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_ledger_entries_user_id_id", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_table("avatars")
    op.drop_index(op.f("ix_admin_audit_log_target_user_id"), table_name="admin_audit_log")
    op.drop_index(op.f("ix_admin_audit_log_admin_id"), table_name="admin_audit_log")
    op.drop_table("admin_audit_log")
    op.drop_index(op.f("ix_account_tokens_user_id"), table_name="account_tokens")
    op.drop_table("account_tokens")
    op.drop_table("table_escrows")
    op.drop_table("users")
