"""``/admin/announcements``: a message from the admins to every connected player.

The announcement is audit-logged and committed first, then sent as ``announcement`` to
every socket of every server process (the Socket.IO manager carries a broadcast through
Redis when there are several); each page with a socket shows it as a banner.
"""

from __future__ import annotations

import secrets
import time
from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import Field

from app.accounts.dependencies import AdminUser, DbSession
from app.accounts.schemas import Strict
from app.admin.service import record
from app.realtime.schemas import ANNOUNCEMENT_LENGTH, Announcement, AnnouncementLevel
from app.realtime.server import Realtime
from app.text import bounded

router = APIRouter(tags=["admin"])


class AnnouncementCreate(Strict):
    """What to tell every connected player, and how loudly."""

    text: Annotated[str, Field(min_length=3, max_length=ANNOUNCEMENT_LENGTH),
                    bounded(ANNOUNCEMENT_LENGTH, min_length=3)]
    level: AnnouncementLevel = "info"


@router.post("/announcements", status_code=201)
async def announce(
    data: AnnouncementCreate, admin: AdminUser, session: DbSession, request: Request
) -> Announcement:
    """Send an announcement to every connected player, on every server process
    (audit-logged)."""
    realtime: Realtime = request.app.state.realtime
    sent = Announcement(id=secrets.token_hex(8), text=data.text, level=data.level,
                        at=time.time())
    record(session, admin, "announce", None, announcement_id=sent.id, text=data.text,
           level=data.level)
    await session.commit()
    await realtime.sio.emit("announcement", sent.model_dump(mode="json"))
    return sent
