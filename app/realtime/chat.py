"""Chat safety on this process: the word list loaded at start, each chatting player's
record read once (not per line), changes told to every process, and the chat log
written in batches and pruned.

The tables read :class:`app.chat.safety.ChatSafety` only, in memory. A change (a word
added or removed, a mute, an ignore) is committed by the REST route that makes it, then
:meth:`ChatKeeper.announce` applies it here and sends it as cluster news, so the other
processes apply it too without reading the database. The chat lines the tables said are
stored by :class:`app.chat.log.ChatLog`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from app.chat import store
from app.chat.log import ChatLog
from app.chat.safety import ChatSafety
from app.config import Settings
from app.db.engine import Database
from app.table.errors import NotAtTable

if TYPE_CHECKING:
    from app.realtime.cluster import Cluster

log = logging.getLogger(__name__)

NEWS_KINDS = frozenset({"chat_words", "chat_mute", "chat_ignores"})


class ChatKeeper:
    """Loads what :class:`ChatSafety` holds, spreads its changes, stores its lines."""

    def __init__(self, safety: ChatSafety, database: Database, settings: Settings, *,
                 cluster: Cluster | None = None, now: Callable[[], float] = time.time
                 ) -> None:
        self.safety = safety
        self._database = database
        self._now = now
        self.cluster = cluster
        self.log = ChatLog(safety, database, days=settings.chat_log_days)

    async def start(self) -> None:
        """Load the word list and start writing the chat log."""
        async with self._database.sessions() as session:
            self.safety.set_words(await store.words(session))
        self.log.start()

    async def stop(self) -> None:
        """Stop, storing the chat lines still waiting."""
        await self.log.stop()

    async def ready(self, user_id: int) -> None:
        """Read the user's mute and ignore list unless this process holds a fresh copy."""
        now = self._now()
        if self.safety.knows(user_id, now):
            return
        async with self._database.sessions() as session:
            muted_until = await store.mute_of(session, user_id)
            ignored = await store.ignored_public_ids(session, user_id)
        self.safety.know(user_id, muted_until=muted_until, ignored=ignored, now=now)

    async def ready_all(self, user_ids: Iterable[int]) -> None:
        """:meth:`ready` for several users (sessions rejoining a table that moved here);
        one that cannot be read now is read when it next joins or chats."""
        for user_id in set(user_ids):
            try:
                await self.ready(user_id)
            except Exception as error:
                log.warning("chat safety of user %s not read: %r", user_id, error)

    async def report(self, reporter_id: int, public_id: str, reason: str,
                     evidence: dict[str, Any]) -> int:
        """Store a report about ``public_id`` with the table's ``evidence``; its id."""
        async with self._database.sessions() as session:
            reported_id = await store.user_id_of(session, public_id)
            if reported_id is None:
                raise NotAtTable("that player is not at this table", public_id=public_id)
            report = await store.add_report(session, reporter_id=reporter_id,
                                            reported_id=reported_id, reason=reason,
                                            evidence=evidence)
            await session.commit()
            return report.id

    async def announce(self, news: dict[str, Any]) -> None:
        """A change is committed: apply it here and tell the other processes."""
        self.safety.apply(news)
        if self.cluster is not None:
            try:
                await self.cluster.news(news)
            except Exception as error:  # the change holds; others catch up within the TTL
                log.warning("chat news could not be sent: %r", error)

    def hear(self, news: dict[str, Any]) -> bool:
        """Apply news from another process; whether it was chat news."""
        if news.get("kind") not in NEWS_KINDS:
            return False
        self.safety.apply(news)
        return True
