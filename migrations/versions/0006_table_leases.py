"""Table ownership across processes: each table's lease (owner and fencing token) and the
live server processes that may hold leases.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 19:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("poker_tables") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("lease_token", sa.BigInteger(), nullable=False,
                                   server_default="0"))
        batch.create_index(batch.f("ix_poker_tables_lease_owner"), ["lease_owner"])
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("draining", sa.Boolean(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_server_processes")),
    )


def downgrade() -> None:
    op.drop_table("server_processes")
    with op.batch_alter_table("poker_tables") as batch:
        batch.drop_index(batch.f("ix_poker_tables_lease_owner"))
        batch.drop_column("lease_token")
        batch.drop_column("lease_owner")
