"""The rake each hand paid the house (0 at a table without rake).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29 02:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # No table raked before: every hand stored so far paid nothing.
    with op.batch_alter_table("hand_histories") as batch:
        batch.add_column(sa.Column("rake", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("hand_histories") as batch:
        batch.drop_column("rake")
