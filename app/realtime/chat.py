"""Chat safety on this process: the word list loaded at start, each chatting player's
record read once (not per line), changes told to every process, and the chat log
written in batches and pruned.

The tables read :class:`app.chat.safety.ChatSafety` only, in memory. A change (a word
added or removed, a mute, an ignore) is committed by the REST route that makes it, then
:meth:`ChatKeeper.announce` applies it here and sends it as cluster news, so the other
processes apply it too without reading the database. The chat lines the tables said are
written every ``FLUSH_SECONDS`` in one insert; a minute after start and then once an
hour, lines older than ``CHAT_LOG_DAYS`` are deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.chat import store
from app.chat.safety import ChatSafety
from app.config import Settings
from app.db.engine import Database
from app.table.errors import NotAtTable

if TYPE_CHECKING:
    from app.realtime.cluster import Cluster

log = logging.getLogger(__name__)

FLUSH_SECONDS = 1.0
PRUNE_SECONDS = 3600.0
FIRST_PRUNE_SECONDS = 60.0
NEWS_KINDS = frozenset({"chat_words", "chat_mute", "chat_ignores"})


class ChatKeeper:
    """Loads what :class:`ChatSafety` holds, spreads its changes, stores its lines."""

    def __init__(self, safety: ChatSafety, database: Database, settings: Settings, *,
                 now: Callable[[], float] = time.time) -> None:
        self.safety = safety
        self._database = database
        self._settings = settings
        self._now = now
        self.cluster: Cluster | None = None
        self._task: asyncio.Task[None] | None = None
        self._pruned_at = 0.0

    async def start(self) -> None:
        """Load the word list and start writing the chat log."""
        async with self._database.sessions() as session:
            self.safety.set_words(await store.words(session))
        self._task = asyncio.create_task(self._run(), name="chat:log")

    async def stop(self) -> None:
        """Stop, writing the lines still waiting."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.flush()

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

    async def flush(self) -> None:
        """Write the lines said since the last flush (kept for the next one on failure)."""
        lines = self.safety.take_said()
        if not lines:
            return
        try:
            async with self._database.sessions() as session:
                await store.write_lines(session, lines)
                await session.commit()
        except Exception as error:
            log.warning("chat log: %d lines not stored yet: %r", len(lines), error)
            self.safety.put_back(lines)

    async def prune(self) -> int:
        """Delete the chat lines older than ``CHAT_LOG_DAYS``; how many."""
        async with self._database.sessions() as session:
            count = await store.prune_lines(session, days=self._settings.chat_log_days,
                                            now=datetime.now(UTC))
            await session.commit()
        return count

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        # The first pruning a minute after start (not in the rush of a start), then hourly.
        self._pruned_at = loop.time() - PRUNE_SECONDS + FIRST_PRUNE_SECONDS
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.flush()
            if loop.time() - self._pruned_at >= PRUNE_SECONDS:
                self._pruned_at = loop.time()
                try:
                    await self.prune()
                except Exception as error:
                    log.warning("chat log: pruning failed: %r", error)
