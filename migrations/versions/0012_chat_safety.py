"""Chat safety: the editable word list, players' ignore lists, reports, admin mutes and
the chat log.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29 01:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# The list the filter had built in: the first entries of the editable one.
FIRST_WORDS = (
    "asshole", "bastard", "bitch", "bollocks", "cunt", "dickhead", "fag", "faggot",
    "fuck", "fucker", "fucking", "motherfucker", "nigger", "retard", "shit", "slut",
    "twat", "whore",
)


def _user(name: str, table: str, *, nullable: bool = False,
          ondelete: str = "CASCADE") -> list[sa.schema.SchemaItem]:
    return [sa.Column(name, sa.Integer(), nullable=nullable),
            sa.ForeignKeyConstraint([name], ["users.id"], ondelete=ondelete,
                                    name=op.f(f"fk_{table}_{name}_users"))]


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("mute_reason", sa.String(length=200), nullable=True))
    words = op.create_table(
        "chat_words",
        sa.Column("word", sa.String(length=40), nullable=False),
        *_user("added_by", "chat_words", nullable=True, ondelete="SET NULL"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("word", name=op.f("pk_chat_words")),
    )
    op.execute(words.insert().values([{"word": word, "created_at": sa.func.now()}
                                      for word in FIRST_WORDS]))
    op.create_table(
        "ignored_players",
        *_user("user_id", "ignored_players"),
        *_user("ignored_id", "ignored_players"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "ignored_id", name=op.f("pk_ignored_players")),
    )
    op.create_index(op.f("ix_ignored_players_ignored_id"), "ignored_players", ["ignored_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        *_user("reporter_id", "chat_reports"),
        *_user("reported_id", "chat_reports"),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("hand_id", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        *_user("handled_by", "chat_reports", nullable=True, ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
    )
    op.create_index(op.f("ix_chat_reports_reporter_id"), "chat_reports", ["reporter_id"])
    op.create_index(op.f("ix_chat_reports_reported_id"), "chat_reports", ["reported_id"])
    op.create_index("ix_chat_reports_open", "chat_reports", ["handled_at", "id"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        *_user("user_id", "chat_lines"),
        sa.Column("said", sa.String(length=200), nullable=False),
        sa.Column("shown", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_lines")),
    )
    op.create_index("ix_chat_lines_table", "chat_lines", ["table_id", "id"])
    op.create_index("ix_chat_lines_user", "chat_lines", ["user_id", "id"])
    op.create_index(op.f("ix_chat_lines_created_at"), "chat_lines", ["created_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_lines_created_at"), table_name="chat_lines")
    op.drop_index("ix_chat_lines_user", table_name="chat_lines")
    op.drop_index("ix_chat_lines_table", table_name="chat_lines")
    op.drop_table("chat_lines")
    op.drop_index("ix_chat_reports_open", table_name="chat_reports")
    op.drop_index(op.f("ix_chat_reports_reported_id"), table_name="chat_reports")
    op.drop_index(op.f("ix_chat_reports_reporter_id"), table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index(op.f("ix_ignored_players_ignored_id"), table_name="ignored_players")
    op.drop_table("ignored_players")
    op.drop_table("chat_words")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("mute_reason")
        batch.drop_column("muted_until")
