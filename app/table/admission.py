"""Who may see and talk at a table: anyone at a public one; at a private one, its
players, its watchers, admins, and whoever brings its invite code."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from app.table.errors import InviteRequired
from app.table.state import TableState, Viewer


def admitted(state: TableState, watchers: Mapping[str, int | None],
             viewer: Viewer | None) -> bool:
    """Whether ``viewer`` may see and talk at the table of ``state``, watched by
    ``watchers`` (session: user)."""
    if not state.config.private:
        return True
    if viewer is None:
        return False
    return (viewer.is_admin or state.has_seat(viewer.user_id)
            or viewer.user_id in watchers.values())


def check_admitted(state: TableState, watchers: Mapping[str, int | None],
                   viewer: Viewer | None) -> None:
    """:class:`InviteRequired` unless ``viewer`` is :func:`admitted` already."""
    if not admitted(state, watchers, viewer):
        raise InviteRequired("this table is private: join it with its invite code first")


def check_invite(state: TableState, watchers: Mapping[str, int | None],
                 viewer: Viewer | None, code: str | None) -> None:
    """:class:`InviteRequired` unless ``viewer`` is :func:`admitted` or brings the
    table's invite ``code``."""
    if admitted(state, watchers, viewer):
        return
    code_ok = code is not None and secrets.compare_digest(
        code, state.config.invite_code or "")
    if not code_ok:
        raise InviteRequired("this table is private: ask for its invite code")
