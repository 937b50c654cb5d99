"""Display names are compared by their look-alike skeleton, not only their case.

Recomputes ``users.display_name_key`` with :func:`app.text.skeleton` (it was the case-folded
name). Where two existing names share a skeleton, the older account gets it and the newer
keeps its case-folded key (or none, if even that is taken), so nobody's name changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 11:30:00
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from app.text import skeleton

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

users = sa.table("users", sa.column("id", sa.Integer), sa.column("display_name", sa.String),
                 sa.column("display_name_key", sa.String))


def _rekey(key_of: Callable[[str], str]) -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.display_name, users.c.display_name_key)
        .where(users.c.display_name.is_not(None)).order_by(users.c.id)
    ).all()
    # Clear first, so no new key collides with an old one not yet rewritten.
    connection.execute(sa.update(users).values(display_name_key=None))
    taken: set[str] = set()
    for user_id, name, old_key in rows:
        key = next((k for k in (key_of(name), old_key) if k and k not in taken), None)
        if key is not None:
            taken.add(key)
        connection.execute(
            sa.update(users).where(users.c.id == user_id).values(display_name_key=key))


def upgrade() -> None:
    _rekey(skeleton)


def downgrade() -> None:
    _rekey(str.casefold)
