"""Display names are compared by their Unicode confusable skeleton (UTS #39).

``users.display_name_key`` held a hand-made look-alike fold; it now holds
:func:`app.text.skeleton`, which can be longer than the name (``m`` is ``rn``), so the column
widens to :data:`app.text.SKELETON_MAX`. Every existing name is rekeyed: where two names now
share a skeleton, the older account gets it and the newer keeps its previous key (or none,
if even that is taken), so nobody's name changes and no existing key blocks the upgrade.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 15:00:00
"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from app.text import SKELETON_MAX, skeleton

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_LENGTH = 40

users = sa.table("users", sa.column("id", sa.Integer), sa.column("display_name", sa.String),
                 sa.column("display_name_key", sa.String))


def _resize(old: int, new: int) -> None:
    with op.batch_alter_table("users") as batch:
        batch.alter_column("display_name_key", existing_type=sa.String(length=old),
                           type_=sa.String(length=new), existing_nullable=True)


def _rekey(key_of: Callable[[str], str], length: int) -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.display_name, users.c.display_name_key)
        .where(users.c.display_name.is_not(None)).order_by(users.c.id)
    ).all()
    # Clear first, so no new key collides with an old one not yet rewritten.
    connection.execute(sa.update(users).values(display_name_key=None))
    taken: set[str] = set()
    for user_id, name, old_key in rows:
        key = next((k for k in (key_of(name), old_key)
                    if k and len(k) <= length and k not in taken), None)
        if key is not None:
            taken.add(key)
        connection.execute(
            sa.update(users).where(users.c.id == user_id).values(display_name_key=key))


def upgrade() -> None:
    _resize(OLD_LENGTH, SKELETON_MAX)
    _rekey(skeleton, SKELETON_MAX)


def downgrade() -> None:
    # The previous fold is gone with its code: the case-folded name is the key that fits.
    _rekey(str.casefold, OLD_LENGTH)
    _resize(SKELETON_MAX, OLD_LENGTH)
