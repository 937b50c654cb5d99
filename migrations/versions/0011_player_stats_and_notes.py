"""Each player's tracker counters about the players they were dealt in with, the
private notes and colour tags players keep about each other, and each result's all-in
adjusted net.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 22:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTERS = (
    "hands", "preflop_chances", "vpip", "pfr", "three_bet_chances", "three_bet",
    "fold_to_three_bet_chances", "fold_to_three_bet", "cbet_chances", "cbet",
    "fold_to_cbet_chances", "fold_to_cbet", "postflop_aggressive", "postflop_calls",
    "saw_flop", "showdowns", "showdowns_won",
)


def _user(name: str, table: str) -> list[sa.schema.SchemaItem]:
    return [sa.Column(name, sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint([name], ["users.id"], ondelete="CASCADE",
                                    name=op.f(f"fk_{table}_{name}_users"))]


def upgrade() -> None:
    # Hands stored before have no all-in adjusted net: their results count as they were.
    with op.batch_alter_table("hand_players") as batch:
        batch.add_column(sa.Column("all_in_net", sa.BigInteger(), nullable=True))
    op.create_table(
        "player_stats",
        *_user("viewer_id", "player_stats"),
        *_user("subject_id", "player_stats"),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in COUNTERS),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("viewer_id", "subject_id", name=op.f("pk_player_stats")),
    )
    op.create_index(op.f("ix_player_stats_subject_id"), "player_stats", ["subject_id"])
    op.create_table(
        "player_notes",
        *_user("author_id", "player_notes"),
        *_user("subject_id", "player_notes"),
        sa.Column("text", sa.String(length=1000), nullable=False),
        sa.Column("color", sa.String(length=16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("author_id", "subject_id", name=op.f("pk_player_notes")),
    )


def downgrade() -> None:
    op.drop_table("player_notes")
    op.drop_index(op.f("ix_player_stats_subject_id"), table_name="player_stats")
    op.drop_table("player_stats")
    with op.batch_alter_table("hand_players") as batch:
        batch.drop_column("all_in_net")
