"""Who is connected to this process: each Socket.IO session and the user behind it.

A user connected from two tabs has two sessions and is one player: table
actors look players up by user id and reach every tab through the private
``user:<id>`` room.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import Role


@dataclass(frozen=True, slots=True)
class Viewer:
    """The user behind a connection (``None`` for an anonymous lobby watcher)."""

    user_id: int
    public_id: str
    name: str
    role: Role

    @property
    def is_admin(self) -> bool:
        """Whether this user is an admin."""
        return self.role is Role.ADMIN


def user_room(user_id: int) -> str:
    """The private room of one user (every tab they have open)."""
    return f"user:{user_id}"


LOBBY_ROOM = "lobby"


class Connections:
    """Sessions of this process, by session id and by user."""

    def __init__(self) -> None:
        self._viewers: dict[str, Viewer | None] = {}
        self._sids: dict[int, set[str]] = {}
        self._addresses: dict[str, str] = {}

    def add(self, sid: str, viewer: Viewer | None, address: str = "unknown") -> None:
        """Record a new session (``address``: the client's, for per-address limits)."""
        self._viewers[sid] = viewer
        self._addresses[sid] = address
        if viewer is not None:
            self._sids.setdefault(viewer.user_id, set()).add(sid)

    def remove(self, sid: str) -> Viewer | None:
        """Forget a session; returns who it was."""
        self._addresses.pop(sid, None)
        viewer = self._viewers.pop(sid, None)
        if viewer is not None:
            sids = self._sids.get(viewer.user_id, set())
            sids.discard(sid)
            if not sids:
                self._sids.pop(viewer.user_id, None)
        return viewer

    def address(self, sid: str) -> str:
        """The client address a session connected from."""
        return self._addresses.get(sid, "unknown")

    def viewer(self, sid: str) -> Viewer | None:
        """The user of a session (None when anonymous or unknown)."""
        return self._viewers.get(sid)

    def sids(self, user_id: int) -> list[str]:
        """Every session of a user in this process."""
        return sorted(self._sids.get(user_id, ()))

    def is_connected(self, user_id: int) -> bool:
        """Whether the user has at least one session here."""
        return user_id in self._sids

    def __len__(self) -> int:
        return len(self._viewers)
