"""What each person won from (or lost to) the house's bots in each hand, for the daily cap
on winnings from the house.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Hands stored before count as nothing won from the house (the cap starts counting now).
    with op.batch_alter_table("hand_players") as batch:
        batch.add_column(sa.Column("house_net", sa.BigInteger(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("hand_players") as batch:
        batch.drop_column("house_net")
