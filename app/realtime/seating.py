"""Sitting down at a table: one request of a player's at a time, then watching it.

A player's seats and opened tables are counted by the database as each is stored
(:func:`app.table.store.within_seated_limit`); here a player's requests that count
(sitting down, opening a table) run one at a time on this process, so two of them
never race each other past the count.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from app.realtime.watchers import Watchers
from app.table.acks import Sat, SeatAsked
from app.table.commands import Sit
from app.table.state import Viewer
from app.table.table import Table


class Seating:
    """Sits players down, one counted request of each at a time."""

    def __init__(self, watchers: Watchers) -> None:
        self.watchers = watchers
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def one_at_a_time(self, user_id: int) -> asyncio.Lock:
        """The lock a player's counted requests (sitting down, opening a table) take."""
        return self._locks[user_id]

    async def sit(self, sid: str, viewer: Viewer, table: Table, seat: int, buy_in: int,
                  invite_code: str | None) -> Sat | SeatAsked:
        """Sit at a table, within the number of tables a player may sit at; the session
        watches it from then on."""
        async with self._locks[viewer.user_id]:
            result: Sat | SeatAsked = await table.ask(Sit(sid, viewer, seat, buy_in,
                                                         invite_code))
        await self.watchers.watching(sid, table.id)
        return result
