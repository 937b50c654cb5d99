"""Each account's player settings (deck colours, sounds, turn alerts, HUD, auto-muck,
auto top-up), stored as the ones changed from their defaults.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29 01:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("settings")
