"""A table's chat: lines said (filtered, refused while muted, kept from those who ignore
the speaker) and what a report about a player takes from the table."""

from __future__ import annotations

import unicodedata
from typing import Any

from app.chat.safety import SaidLine
from app.table import commands as c
from app.table.acks import Said
from app.table.admission import check_admitted
from app.table.core import TableCore, person_of
from app.table.errors import CannotReportSelf, InvalidPayload, NotAtTable
from app.table.events import ChatSaid, ChatWithheld

# The last chat lines a report carries.
REPORT_LINES = 20


def clean_text(text: str) -> str:
    """Chat text without control characters, trimmed."""
    return "".join(c for c in unicodedata.normalize("NFC", text)
                   if unicodedata.category(c)[0] != "C").strip()


class TableChat:
    """Chat lines at one table, over its core."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def say(self, command: c.Chat) -> Said:
        """Say the text to the table (of a private table: once admitted with its invite):
        :class:`app.chat.safety.Muted` while an admin's mute lasts, rate-limited, listed
        words masked; the users who ignore the speaker get a ``chat_withheld`` event in its
        place (live and replayed). The line, as said and as shown, goes to the chat log."""
        viewer, text = command.viewer, command.text
        core, safety = self.core, self.core.services.chat
        check_admitted(core.state, core.watchers, viewer)
        now = core.now()
        safety.verify_can_chat(viewer.user_id, now)
        core.services.limiter.hit_local("chat", str(viewer.user_id),
                                        core.settings.rate_limit_chat)
        cleaned = clean_text(text)
        if not cleaned:
            raise InvalidPayload("say something", problems=[])
        shown = safety.filter.mask(cleaned)
        said = ChatSaid(player=person_of(viewer).record(), text=shown, at=now)
        core.state.add_chat(said.model_dump(mode="json", exclude={"type"}))
        core.touch()
        # Those who ignore the speaker get the same seq without the line (no gap to
        # resync over, and neither speaker nor text).
        ignorers = safety.ignorers_of(viewer.public_id)
        seq = core.event(said, instead=(ignorers, ChatWithheld()) if ignorers else None)
        safety.said(SaidLine(core.id, viewer.user_id, cleaned, shown, now))
        return Said(table_id=core.id, seq=seq)

    def lines_for(self, user_id: int | None) -> list[dict[str, Any]]:
        """The kept lines, less those of players ``user_id`` ignores."""
        lines = self.core.state.chat
        ignored = self.core.services.chat.ignores(user_id) if user_id is not None else None
        if not ignored:
            return list(lines)
        return [line for line in lines if line["player"]["public_id"] not in ignored]

    async def report(self, command: c.Report) -> dict[str, Any]:
        """What a report by the viewer about ``public_id`` carries: the table's last chat
        lines and the hand in play (else the last one). :class:`InviteRequired` at a
        private table the viewer was not admitted to; :class:`CannotReportSelf`;
        :class:`NotAtTable` unless the player sits here or said one of the kept lines."""
        viewer, public_id = command.viewer, command.public_id
        check_admitted(self.core.state, self.core.watchers, viewer)
        if public_id == viewer.public_id:
            raise CannotReportSelf("you cannot report yourself")
        state = self.core.state
        seated = {p.person.public_id for p in state.players.values() if not p.is_bot}
        chatted = {line["player"]["public_id"] for line in state.chat}
        if public_id not in seated | chatted:
            raise NotAtTable("that player is not at this table", public_id=public_id)
        chat = [{"public_id": line["player"]["public_id"], "name": line["player"]["name"],
                 "text": line["text"], "at": line["at"]} for line in state.chat[-REPORT_LINES:]]
        return {"table_id": self.core.id, "chat": chat,
                "hand_id": state.current.id if state.current else None}
