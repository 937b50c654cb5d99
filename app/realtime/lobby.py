"""The lobby: every live table of this process, creating and finding them, and their listing.

:class:`TableService` owns the tables: it restores them from storage when the
server starts, stops their tasks when it stops, creates new ones, finds a
seat for ``table:quick-seat``, and keeps the ``lobby`` room up to date.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from typing import Any

from app.errors import HoldemError
from app.poker.state import Stakes
from app.realtime import projection
from app.realtime.connections import LOBBY_ROOM, Viewer
from app.realtime.errors import InvalidPayload, SeatTaken, TableNotFound
from app.realtime.schemas import QuickSeat, TableCreate
from app.realtime.seating import TableConfig, TableState
from app.realtime.table import Table, TableServices

log = logging.getLogger(__name__)

QUICK_SEAT_SEATS = 6
QUICK_SEAT_BOTS = 2
QUICK_SEAT_ATTEMPTS = 3


class TableService:
    """All tables of this process, and the lobby's view of them."""

    def __init__(self, services: TableServices) -> None:
        self.services = services
        self.tables: dict[str, Table] = {}
        self._listed: dict[str, dict[str, Any]] = {}
        self._watching: defaultdict[str, set[str]] = defaultdict(set)
        services.on_summary = self._summary_changed

    # ---- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Restore every open table from storage and start it."""
        for record in await self.services.store.open_tables():
            try:
                table = Table(record.id, TableState.from_dict(record.state), self.services)
                await table.dealer.recover()
            except Exception:
                log.exception("table %s could not be restored", record.id)
                continue
            await self._check_escrow(table)
            self.tables[table.id] = table
            self._listed[table.id] = projection.summary(table)
            await table.start()
        if self.tables:
            log.info("restored %d tables", len(self.tables))

    async def _check_escrow(self, table: Table) -> None:
        held = await self.services.store.escrowed_at(table.id)
        if held != table.state.escrowed():
            log.error("table %s: the ledger holds %d, the seats account for %d",
                      table.id, held, table.state.escrowed())

    async def stop(self) -> None:
        """Stop every table's task; their state is already stored."""
        for table in list(self.tables.values()):
            await table.mailbox.stop()

    # ---- finding tables -------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        """The live table with this id, or :class:`TableNotFound`."""
        table = self.tables.get(table_id)
        if table is None or table.mailbox.closed:
            raise TableNotFound(f"no open table {table_id!r}", table_id=table_id)
        return table

    def listing(self) -> list[dict[str, Any]]:
        """Every open table as the lobby shows it, fullest first."""
        return sorted(self._listed.values(), key=lambda t: (-t["seated"], t["name"]))

    async def _summary_changed(self, table_id: str, summary: dict[str, Any] | None) -> None:
        sio = self.services.sio
        if summary is None:
            self._listed.pop(table_id, None)
            self.tables.pop(table_id, None)
            await sio.emit("lobby:table-removed", {"table_id": table_id}, room=LOBBY_ROOM)
        elif self._listed.get(table_id) != summary:
            self._listed[table_id] = summary
            await sio.emit("lobby:table", summary, room=LOBBY_ROOM)

    # ---- creating tables -------------------------------------------------------------

    async def create(self, owner: Viewer | None, data: TableCreate) -> Table:
        """Open a new table."""
        settings = self.services.settings
        action = data.action_seconds or settings.action_seconds
        if action < settings.min_action_seconds:
            raise InvalidPayload(f"action_seconds must be at least {settings.min_action_seconds}",
                                 problems=[{"location": ["action_seconds"],
                                            "message": "too short"}])
        config = TableConfig(
            name=data.name, seats=data.seats,
            stakes=Stakes(data.small_blind, data.big_blind, data.ante),
            min_buy_in=data.min_buy_in or 20 * data.big_blind,
            max_buy_in=data.max_buy_in or 100 * data.big_blind,
            action_seconds=action, private=data.private,
            invite_code=secrets.token_urlsafe(8) if data.private else None,
            bots=data.bots, bot_count=data.bot_count if data.bots else 0,
            bot_style=data.bot_style,
        )
        table_id = secrets.token_hex(6)
        state = TableState(config)
        await self.services.store.create(table_id, owner.user_id if owner else None,
                                         config.to_dict(), state.to_dict())
        table = Table(table_id, state, self.services)
        self.tables[table_id] = table
        await table.start()
        await self._summary_changed(table_id, projection.summary(table))
        return table

    async def quick_seat(self, sid: str, viewer: Viewer, data: QuickSeat) -> dict[str, Any]:
        """Sit at a public table with these blinds, opening one when none has room."""
        error: HoldemError | None = None
        for _ in range(QUICK_SEAT_ATTEMPTS):
            table, seat = self._find_seat(viewer, data)
            if table is None:
                table = await self.create(viewer, TableCreate(
                    name=f"NL {data.small_blind}/{data.big_blind}", seats=QUICK_SEAT_SEATS,
                    small_blind=data.small_blind, big_blind=data.big_blind,
                    bots=data.bots, bot_count=QUICK_SEAT_BOTS if data.bots else 0))
                seat = 0
            buy_in = data.buy_in or table.state.config.max_buy_in
            try:
                result: dict[str, Any] = await table.ask(table.sit, sid, viewer, seat, buy_in,
                                                         None)
            except SeatTaken as taken:
                error = taken
                continue
            self.watching(sid, table.id)
            return result
        assert error is not None
        raise error

    def _find_seat(self, viewer: Viewer, data: QuickSeat) -> tuple[Table | None, int]:
        best: tuple[int, Table, int] | None = None
        for table in self.tables.values():
            state, config = table.state, table.state.config
            stakes = config.stakes
            if config.private or table.mailbox.closed or state.has_seat(viewer.user_id):
                continue
            if (stakes.small_blind, stakes.big_blind) != (data.small_blind, data.big_blind):
                continue
            seats = state.free_seats() or state.bot_seats()
            if not seats:
                continue
            people = len(state.humans())
            if best is None or people > best[0]:
                best = (people, table, seats[0])
        return (best[1], best[2]) if best else (None, 0)

    # ---- sessions and accounts -------------------------------------------------------

    def watching(self, sid: str, table_id: str) -> None:
        """Remember that a session watches a table (told when it disconnects)."""
        self._watching[sid].add(table_id)

    def unwatching(self, sid: str, table_id: str) -> None:
        """Forget that a session watches a table."""
        self._watching[sid].discard(table_id)

    async def disconnected(self, sid: str, viewer: Viewer | None) -> None:
        """A session ended: tell every table it watched."""
        for table_id in self._watching.pop(sid, set()):
            table = self.tables.get(table_id)
            if table is not None and not table.mailbox.closed:
                table.mailbox.post(table.disconnected, sid, viewer.user_id if viewer else None)

    async def remove_user(self, user_id: int, *, at_once: bool) -> None:
        """Take a user away from every table (ban: after the hand; deletion: chips now)."""
        for table in list(self.tables.values()):
            if table.mailbox.closed:
                continue
            if table.state.has_seat(user_id) or any(
                p.user_id == user_id for p in table.state.waiting
            ):
                await table.ask(table.remove_user, user_id, at_once)

    async def close(self, table_id: str, reason: str) -> dict[str, Any]:
        """Close a table, paying everyone out."""
        table = self.get(table_id)
        result: dict[str, Any] = await table.ask(table.close, reason)
        return result
