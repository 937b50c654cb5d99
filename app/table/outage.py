"""A table while its database is out of reach: the outage's states and how it ends.

When a write fails because the database is unreachable, the table becomes
*unavailable*: its clocks stop (every timer is cancelled), requests are refused
with ``service_unavailable``, and a task probes the database, waiting longer each
time (0.2 s doubling up to 5 s). Once it answers, the table is *reachable again*
and re-arms its clocks from the stored state (the player to act gets a fresh clock).

A chip commit that failed as unreachable leaves the table *unsure*: the database may
have committed it all the same (its answer was lost). Nothing is written while unsure.
Once the database answers, the table reads what it holds: the state it last stored
(the commit did not land: go on), another state (it landed: go on from the stored
one, as a restart does), or no table at all (its close landed: stop).

The table's core (:mod:`app.table.core`) reports failures here and reads
:attr:`Outage.unsure` before each write; what going on means is given to the
constructor as callables, so this module knows nothing above it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.db.engine import StorageUnavailable
from app.errors import ServiceUnavailable
from app.table.actor import Mailbox
from app.table.state import TableState
from app.table.store import TableStore

log = logging.getLogger(__name__)

PROBE_FIRST_SECONDS = 0.2
PROBE_MAX_SECONDS = 5.0


def cannot_store() -> ServiceUnavailable:
    """What a request is told while the table cannot store anything."""
    return ServiceUnavailable("the table cannot store anything right now: "
                              "try again in a few seconds", retry_after=5)


class Resumable(Protocol):
    """What the core asks of the table above it to go on from its stored state."""

    def rearm(self) -> None:
        """Set every clock and timer again from the state (after a failed write, or
        once the database answers again)."""

    async def reload(self, stored: dict[str, Any]) -> None:
        """Go on from ``stored``, what the database holds of the table but the table did
        not know it stored (a chip commit whose answer was lost), as a restart does."""


class Outage:
    """The outage state machine of one table: available, unavailable (probing), unsure."""

    def __init__(self, table_id: str, *, store: TableStore, mailbox: Mailbox,
                 saved: Callable[[], dict[str, Any]], resumable: Resumable,
                 closed: Callable[[], Awaitable[None]]) -> None:
        """The outage of the table ``table_id``, stored in ``store``, run on ``mailbox``;
        ``saved()``: the state it last stored; once the database answers, the table
        (``resumable``) sets its clocks again, or goes on from a stored state it did not
        know it stored; ``closed()`` ends a table whose close was stored after all."""
        self.table_id = table_id
        self._store = store
        self._mailbox = mailbox
        self._saved = saved
        self._resumable = resumable
        self._closed = closed
        self.unavailable = False
        # A chip commit failed as unreachable: whether the database committed it is
        # unknown until it answers again, and nothing is written meanwhile.
        self.unsure = False
        self._probe: asyncio.Task[None] | None = None

    def chips_failed(self, error: Exception) -> None:
        """A chip commit failed with ``error``: unsure whether it landed if the database
        was unreachable."""
        self.unsure = self.unsure or isinstance(error, StorageUnavailable)

    def begin(self) -> None:
        """The database is unreachable: stop the clocks and probe until it answers."""
        self.unavailable = True
        self._mailbox.cancel_all()
        if self._probe is None:
            self._probe = asyncio.create_task(self._probe_until_reachable(),
                                              name=f"table:{self.table_id}:probe")

    async def _probe_until_reachable(self) -> None:
        delay = PROBE_FIRST_SECONDS
        while not self._mailbox.closed:
            await asyncio.sleep(delay)
            delay = min(delay * 2, PROBE_MAX_SECONDS)
            try:
                if await self._store.reachable():
                    break
            except Exception:
                log.exception("table %s: probing the database failed", self.table_id)
        self._probe = None
        self._mailbox.tell(self._reachable_again)

    async def _reachable_again(self) -> None:
        if not self.unavailable:
            return
        if self.unsure:
            try:
                record = await self._store.table(self.table_id)
            except Exception as error:
                log.warning("table %s: reading its stored state failed (%s); probing again",
                            self.table_id, type(error).__name__)
                self.begin()
                return
            self.unsure = False
            self.unavailable = False
            if record is None:
                await self._closed()
                return
            if TableState.from_dict(record.state).to_dict() != self._saved():
                log.warning("table %s: its last chip commit was stored although it seemed "
                            "to fail; going on from the stored state", self.table_id)
                await self._resumable.reload(record.state)
                return
        self.unavailable = False
        log.info("table %s: the database answers again; resuming", self.table_id)
        self._resumable.rearm()

    def end(self) -> None:
        """The outage is over without probing further (the close was stored after all)."""
        self.unavailable = False

    def stop(self) -> None:
        """Stop probing (the table stops here)."""
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None
