"""Tables follow their players: a table moves to the process its players' connections reach.

The proxy in front of the processes hashes each Socket.IO connection on the ``table``
of its query (the browser's table page connects with ``?table=<id>``), so every player
of a table reaches the same process, whichever that is (:mod:`app.realtime.routing`
reads that key exactly as the proxy does, and tells hosting which table a connection
named). A table runs where its lease says, at first
the least-loaded process. When the owner grants a request about a table from a session
whose connection named it, this process asks the owner for it (:meth:`TableMoves.follow`,
once per table and player per ``TABLE_MOVE_COOLDOWN``); until it has moved, requests are
forwarded as before. Naming a table, watching it or being refused there asks for nothing
the owner grants: it hands a table over only for a player who sits or waits there.

The owner agrees (:meth:`TableMoves.asked`) for a cash table it runs (a tournament's
tables stay where its director puts them) that has not come to it in the last
``TABLE_MOVE_COOLDOWN`` seconds (the proxy's membership changing cannot make tables
flap), for a live asker that is not draining. As a drain does, it deals no new hand
there; once the table is between hands (at once if none is in play), on the table's
task, it hands the lease straight to the asker (:meth:`Leases.hand_over`: never an
orphan, so no third process claims it), stops the table (requests still waiting get
``table_moved`` and clients ask again) and announces ``table_moved``. Every process
drops the owner it cached; the asker claims the table and restores it from what was
committed, as a takeover does, and the ``adopted`` news re-joins every session watching
it. No hand is voided and no chip moves. A hand still in play after
``TABLE_MOVE_COOLDOWN`` (the asker asks again no sooner) keeps the table where it is,
dealing again.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable

from app.hosting.errors import moving
from app.hosting.live import LiveTables
from app.hosting.ownership import Ownership
from app.table.commands import HandOver
from app.table.state import Viewer
from app.table.table import Table

log = logging.getLogger(__name__)

# How often the owner looks whether a table it is handing over is between hands.
BETWEEN_HANDS_POLL = 0.05


class TableMoves:
    """This process's side of tables following their players: asking for tables its
    sessions play at, and handing over the tables others ask for."""

    def __init__(self, ownership: Ownership, *, cooldown: float,
                 connection_table: Callable[[str], str | None]) -> None:
        self.ownership = ownership
        self.live: LiveTables = ownership.live
        self.cooldown = cooldown
        # The table a session's connection named in its query (None: none).
        self._connection_table = connection_table
        # When this process last asked for each table for each player (asks older than
        # the cooldown go).
        self._asked: dict[tuple[str, int], float] = {}
        self._moving: set[str] = set()

    # ---- the process the players reach ----------------------------------------------

    async def follow(self, sid: str, viewer: Viewer | None, table_id: str, owner: str
                     ) -> None:
        """The owner ``owner`` granted a request of a session of this process about a
        table: if the session's connection was opened for that table, ask the owner to
        hand it over (at most once per table and player per cooldown). The owner agrees
        only while that player sits or waits there; a spectator, an anonymous session
        or a refused request asks nothing."""
        peers, now = self.ownership.peers, asyncio.get_running_loop().time()
        if peers is None or viewer is None or self.live.draining:
            return
        key = (table_id, viewer.user_id)
        if now - self._asked.get(key, -math.inf) < self.cooldown:
            return
        if self._connection_table(sid) != table_id:
            return
        self._asked = {k: at for k, at in self._asked.items() if now - at < self.cooldown}
        self._asked[key] = now
        log.info("asking %s for table %s, which this process's players reach", owner, table_id)
        try:
            await peers.tell(owner, {"kind": "move", "table_id": table_id,
                                       "user_id": viewer.user_id})
        except Exception:
            # The request was answered; the next one after the cooldown asks again.
            log.warning("asking %s for table %s failed", owner, table_id, exc_info=True)

    # ---- the owner ------------------------------------------------------------------

    async def asked(self, table_id: str, asker: str, user_id: int | None) -> None:
        """Another process asks for a table this one runs, for the player ``user_id``: hand
        it over at the next hand boundary, if it may move (see the module's docstring)."""
        table = self.live.tables.get(table_id)
        if table is None or table_id in self._moving:
            return
        self._moving.add(table_id)
        try:
            refusal = await self._refusal(table, asker, user_id)
            if refusal is not None:
                log.info("table %s stays here, though %s asked for it: %s", table_id, asker,
                         refusal)
                return
            log.info("table %s goes to %s, which its players reach, once no hand is in "
                     "play", table_id, asker)
            await self._move(table, asker)
        except Exception:
            log.exception("moving table %s to %s failed; it stays here", table_id, asker)
            self._deal_again(table)
        finally:
            self._moving.discard(table_id)

    async def _refusal(self, table: Table, asker: str, user_id: int | None) -> str | None:
        """Why the table may not move to ``asker`` now (None: it may)."""
        ownership = self.ownership
        if table.closed or table.lost:
            return "it is stopping here"
        if table.state.config.tournament is not None:
            return "a tournament's tables stay where its director puts them"
        if not _plays_or_waits(table, user_id):
            return "the player it was asked for neither sits nor waits there"
        arrived = self.live.arrived.get(table.id)
        if arrived is not None and asyncio.get_running_loop().time() - arrived < self.cooldown:
            return "it came here less than TABLE_MOVE_COOLDOWN ago"
        if self.live.draining or table.lease is None:
            return "this process is letting its tables go"
        to = next((p for p in ownership.processes if p.id == asker), None)
        if to is None:
            # A process that started since the last heartbeat.
            to = next((p for p in await ownership.leases.peers() if p.id == asker), None)
        if to is None or to.draining or asker == ownership.leases.process_id:
            return "that process is not taking tables"
        return None

    async def _move(self, table: Table, to: str) -> None:
        # As a drain does: no new hand; the one in play goes on.
        table.drain()
        if await self._between_hands(table, to):
            await self._handed(table, to)
        else:
            self._deal_again(table)

    async def _between_hands(self, table: Table, to: str) -> bool:
        """Wait (at most the cooldown) until no hand is in play, then hand the lease to
        ``to``; whether it went."""
        deadline = asyncio.get_running_loop().time() + self.cooldown
        while self._running_here(table) and asyncio.get_running_loop().time() < deadline:
            if table.state.current is None:
                handed = await table.ask(HandOver(to))
                if handed is not None:
                    return bool(handed)
            await asyncio.sleep(BETWEEN_HANDS_POLL)
        return False

    def _running_here(self, table: Table) -> bool:
        return not (table.closed or table.lost or self.live.draining)

    async def _handed(self, table: Table, to: str) -> None:
        # Requests from now on follow the lease; those already waiting are refused.
        self.live.forget(table.id)
        await table.stop(refusal=moving)
        self.ownership.services.metrics.lease_moves.labels("moved").inc()
        log.info("handed table %s to %s", table.id, to)
        if self.ownership.peers is not None:
            await self.ownership.peers.news({"kind": "table_moved", "table_id": table.id, "to": to})

    def _deal_again(self, table: Table) -> None:
        """The table stays: deal again (unless it or the whole process is stopping)."""
        if not self._running_here(table):
            return
        table.deal_again()


def _plays_or_waits(table: Table, user_id: int | None) -> bool:
    """Whether a person sits at the table, has claimed a seat or is on its waiting list."""
    state = table.state
    return user_id is not None and (state.has_seat(user_id) or any(
        p.user_id == user_id for p in state.waiting))

