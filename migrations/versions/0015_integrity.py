"""Integrity: sign-in records (address and device mark of each sign-up and login) and the
flags an operator works through.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _user(name: str, table: str, *, nullable: bool = False,
          ondelete: str = "CASCADE") -> list[sa.schema.SchemaItem]:
    return [sa.Column(name, sa.Integer(), nullable=nullable),
            sa.ForeignKeyConstraint([name], ["users.id"], ondelete=ondelete,
                                    name=op.f(f"fk_{table}_{name}_users"))]


def upgrade() -> None:
    op.create_table(
        "sign_in_records",
        sa.Column("id", sa.Integer(), nullable=False),
        *_user("user_id", "sign_in_records"),
        sa.Column("kind", sa.Enum("signup", "login", name="signinkind", native_enum=False,
                                  length=32), nullable=False),
        sa.Column("address", sa.String(length=45), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=False),
        sa.Column("user_agent", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_records")),
    )
    op.create_index(op.f("ix_sign_in_records_address"), "sign_in_records", ["address"])
    op.create_index(op.f("ix_sign_in_records_device"), "sign_in_records", ["device"])
    op.create_index(op.f("ix_sign_in_records_created_at"), "sign_in_records", ["created_at"])
    op.create_index("ix_sign_in_records_user_id_created_at", "sign_in_records",
                    ["user_id", "created_at"])
    op.create_table(
        "integrity_flags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.Enum("chip_dumping", "soft_play", "bot_like", "linked_at_table",
                                  name="flagkind", native_enum=False, length=32),
                  nullable=False),
        sa.Column("subject", sa.String(length=100), nullable=False),
        *_user("user_id", "integrity_flags"),
        *_user("other_user_id", "integrity_flags", nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("status", sa.Enum("open", "dismissed", "actioned", name="flagstatus",
                                    native_enum=False, length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        *_user("handled_by", "integrity_flags", nullable=True, ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_integrity_flags")),
    )
    op.create_index(op.f("ix_integrity_flags_subject"), "integrity_flags", ["subject"])
    op.create_index(op.f("ix_integrity_flags_user_id"), "integrity_flags", ["user_id"])
    op.create_index(op.f("ix_integrity_flags_other_user_id"), "integrity_flags",
                    ["other_user_id"])
    op.create_index("ix_integrity_flags_status_id", "integrity_flags", ["status", "id"])


def downgrade() -> None:
    op.drop_index("ix_integrity_flags_status_id", table_name="integrity_flags")
    op.drop_index(op.f("ix_integrity_flags_other_user_id"), table_name="integrity_flags")
    op.drop_index(op.f("ix_integrity_flags_user_id"), table_name="integrity_flags")
    op.drop_index(op.f("ix_integrity_flags_subject"), table_name="integrity_flags")
    op.drop_table("integrity_flags")
    op.drop_index("ix_sign_in_records_user_id_created_at", table_name="sign_in_records")
    op.drop_index(op.f("ix_sign_in_records_created_at"), table_name="sign_in_records")
    op.drop_index(op.f("ix_sign_in_records_device"), table_name="sign_in_records")
    op.drop_index(op.f("ix_sign_in_records_address"), table_name="sign_in_records")
    op.drop_table("sign_in_records")
