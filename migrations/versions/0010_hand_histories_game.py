"""The game each hand was dealt in, for results by game.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every hand stored before was No-Limit Hold'em, the only game dealt until now.
    with op.batch_alter_table("hand_histories") as batch:
        batch.add_column(sa.Column("game", sa.String(8), nullable=False, server_default="nlhe"))


def downgrade() -> None:
    with op.batch_alter_table("hand_histories") as batch:
        batch.drop_column("game")
