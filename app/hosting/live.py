"""The tables this process runs.

:class:`LiveTables` holds each live table by id, with the account that opened it and
the loop time it came here by a claim, and whether this process runs tables at all
(alone without the table lock it serves accounts only) or is letting them go (a
drain). Everything else in :mod:`app.hosting` reads the tables from here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from app.hosting.errors import TableNotFound, TablesElsewhere, moving
from app.table.table import Table


class LiveTables:
    """Every table this process runs, by id."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        # The account that opened each table (None: nobody's own).
        self.openers: dict[str, int | None] = {}
        # The loop time each table came to this process by a claim (a takeover or a move).
        self.arrived: dict[str, float] = {}
        # Tables whose stored hand was voided on restore: the seq they were stored at.
        self.voided_at: dict[str, int] = {}
        self.running = False
        self.draining = False

    def __len__(self) -> int:
        return len(self.tables)

    def start_running(self) -> None:
        """This process runs tables from now on."""
        self.running = True

    def stop_running(self) -> None:
        """This process runs no table any more."""
        self.running = False

    def begin_drain(self) -> None:
        """Deal no new hand at any table here (the hands in play go on)."""
        self.draining = True
        for table in self.tables.values():
            table.drain()

    def add(self, table: Table, opener_id: int | None, *, claimed: bool) -> None:
        """Run ``table`` here (``claimed``: taken over or moved here, not opened)."""
        self.tables[table.id] = table
        self.openers[table.id] = opener_id
        if claimed:
            self.arrived[table.id] = asyncio.get_running_loop().time()

    def forget(self, table_id: str) -> None:
        """Stop counting a table as one of this process's (it closed, or moved away)."""
        self.tables.pop(table_id, None)
        self.openers.pop(table_id, None)
        self.arrived.pop(table_id, None)
        self.voided_at.pop(table_id, None)

    def get(self, table_id: str) -> Table:
        """The live table with this id, or :class:`TableNotFound`."""
        self.require_running()
        table = self.tables.get(table_id)
        if table is not None and table.closed and self.draining:
            raise moving(table_id)
        if table is None or table.closed:
            raise TableNotFound(f"no open table {table_id!r}", table_id=table_id)
        return table

    def require_running(self) -> None:
        """Raise :class:`TablesElsewhere` unless this process runs the tables (and so the
        tournaments) of its database."""
        if not self.running:
            raise TablesElsewhere("tables run on another server process of this database",
                                  retry_after=5)

    def hands_in_play(self) -> int:
        """How many tables of this process are in the middle of a hand."""
        return len(self.hands_at(self.tables))

    def hands_at(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The hand in play at each of these tables that this process runs (table id →
        hand id); tables between hands, or not run here, are left out."""
        hands = {}
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if (table is not None and table.state.current is not None and not table.closed
                    and not table.lost):
                hands[table_id] = table.state.current.id
        return hands
