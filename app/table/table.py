"""One table: its parts put together, the requests it dispatches, and its face to the
code that hosts it.

A request is a command record (:mod:`app.table.commands`): callers post it with
``await table.ask(Sit(...))`` (waiting for its answer) or ``table.tell(Disconnected(...))``
(not waiting), and the table hands it, on its own task, to the part that answers it:
watching (:mod:`app.table.watching`), seats (:mod:`app.table.seats`), the waiting list,
chat, pre-actions, dealing (:mod:`app.table.dealing`, with its clock and settlement),
the host's controls, closing (:mod:`app.table.closing`). State, storage and the one path
chips take are :mod:`app.table.core`.

Code outside ``app/table`` uses a table only through :class:`Table`'s face
(``tests/test_layers.py`` holds it to that):

- opening and restoring: ``Table(id, state, services, lease=, draining=, tournament=)``
  for a new table, :meth:`Table.restore` for one as it was committed; then
  :meth:`Table.start`;
- posting: :meth:`Table.ask` and :meth:`Table.tell`, with a command;
- dealing and stopping here: :meth:`Table.drain`, :meth:`Table.deal_again`,
  :meth:`Table.give_up`, :meth:`Table.stop`, :meth:`Table.caught_up`;
- reading: :attr:`Table.state`, :attr:`Table.lease`, :attr:`Table.closed`,
  :attr:`Table.lost`, :attr:`Table.unavailable`, :attr:`Table.watchers`,
  :attr:`Table.in_use`, :meth:`Table.admitted`, :meth:`Table.summary`,
  :meth:`Table.seats`.

What a table emits (its messages, its lobby summary, losing its lease) goes to the
callbacks of the :class:`TableServices` it is opened with.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.errors import HoldemError
from app.table import commands as c
from app.table import projection
from app.table.admission import admitted
from app.table.assigned import TournamentHands
from app.table.bots import BotSeats
from app.table.chat import TableChat
from app.table.closing import Closing, in_use
from app.table.core import TableCore, TableServices
from app.table.dealing import Dealing
from app.table.host import HostControls
from app.table.preactions import PreActions
from app.table.state import TableConfig, TableState, Viewer
from app.table.topup import TopUps
from app.table.waiting import WaitingList
from app.table.watching import Watching

# What code outside app/table takes from here (TableServices: what opening a table takes).
__all__ = ["Attach", "Table", "TableServices"]

log = logging.getLogger(__name__)

Attach = Callable[[str, TableConfig], TournamentHands | None]
"""Given a table's id and config, the tournament it deals for (None: no tournament's), by
a feature that runs tables (a tournament, see :mod:`app.table.assigned`)."""


class Table:
    """A live table: the requests it answers, over its core, seats, dealing and the rest."""

    def __init__(self, table_id: str, state: TableState, services: TableServices, *,
                 lease: int | None = None, draining: bool = False,
                 tournament: TournamentHands | None = None) -> None:
        """A table over ``state``, not started yet (see :meth:`start`); ``lease``: the
        fencing token every write of it carries (see :mod:`app.realtime.leases`);
        ``draining``: deal no new hand (see :meth:`drain`); ``tournament``: at a
        tournament's table, the tournament that assigns its seats and stakes and hears
        of every hand."""
        self.id = table_id
        self.core = core = TableCore(table_id, state, services, lease=lease,
                                     draining=draining, resumable=self)
        self.waiting = WaitingList(core)
        self.bots = BotSeats(core)
        preactions = PreActions(core)
        talk = TableChat(core)
        self.dealing = dealing = Dealing(core, waiting=self.waiting, bots=self.bots,
                                         top_ups=TopUps(core), preactions=preactions,
                                         tournament=tournament)
        seats, clock = dealing.seats, dealing.clock
        self.closing = closing = Closing(core, seats=seats, settlement=dealing.settlement,
                                         clock=clock, waiting=self.waiting)
        self.hosting = HostControls(core, seats=seats, schedule_start=dealing.schedule_start,
                                    remove=closing.remove_user)
        self._tournament = tournament
        watching = Watching(core, clock=clock, seats=seats, preactions=preactions, talk=talk)
        self._snapshot_to = watching.snapshot_to
        self._handlers: dict[type[Any], Callable[[Any], Awaitable[Any]]] = {
            c.Join: watching.join, c.Unwatch: watching.unwatch,
            c.Disconnected: watching.disconnected, c.Sit: watching.sit,
            c.Leave: seats.leave, c.SitOut: seats.sit_out_asked, c.SitIn: seats.sit_in,
            c.TopUp: seats.top_up, c.Preferences: seats.preferences, c.Seed: seats.seed,
            c.Wait: self.waiting.wait, c.Unwait: self.waiting.unwait,
            c.Chat: talk.say, c.Report: talk.report,
            c.Act: dealing.act, c.Preact: preactions.choose,
            c.RunItTwice: dealing.run_it_twice,
            c.HostControl: self.hosting.apply, c.TakeAssignedSeats: dealing.take_assigned_seats,
            c.RemoveUser: closing.remove_user, c.Close: closing.close,
            c.CloseUnused: closing.close_unused, c.HandOver: closing.hand_over,
        }

    @classmethod
    async def restore(cls, table_id: str, state: TableState, services: TableServices, *,
                      lease: int, draining: bool, attach: Attach | None = None) -> Table:
        """A table as it was committed, after a restart or a move to this process, ready to
        :meth:`start` (``attach`` gives its tournament, if any): the stored hand in play
        goes on where it stood or is void (``hand_voided``), and between hands whoever
        was leaving is paid out (see :meth:`Settlement.recover`). Raises
        :class:`TableMoved` if the lease was lost meanwhile."""
        tournament = attach(table_id, state.config) if attach is not None else None
        table = cls(table_id, state, services, lease=lease, draining=draining,
                    tournament=tournament)
        await table.dealing.settlement.recover()
        return table

    # ---- reading ------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    @property
    def closed(self) -> bool:
        """Whether the table has closed (or is stopping)."""
        return self.core.mailbox.closed

    @property
    def lease(self) -> int | None:
        """The fencing token of this process's lease on the table (None: no lease)."""
        return self.core.lease

    @property
    def lost(self) -> bool:
        """Whether the table was given up here: another process runs it now."""
        return self.core.lost

    @property
    def unavailable(self) -> bool:
        """Whether the table's storage is unreachable (requests are refused meanwhile)."""
        return self.core.unavailable

    @property
    def watchers(self) -> dict[str, int | None]:
        """Sessions watching, with their user (None: anonymous)."""
        return self.core.watchers

    @property
    def in_use(self) -> bool:
        """Whether a person sits here or has claimed a bot's seat."""
        return in_use(self.state)

    def admitted(self, viewer: Viewer | None) -> bool:
        """Whether ``viewer`` may see and talk at this table (private: with the invite)."""
        return admitted(self.state, self.core.watchers, viewer)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it (``TableSummary``)."""
        return projection.summary(self.core)

    def seats(self) -> list[dict[str, Any]]:
        """Every taken seat as ``SeatPublic``."""
        return projection.seats_public(self.core)

    # ---- posting ------------------------------------------------------------

    async def ask(self, command: c.Command) -> Any:
        """Run ``command`` on the table's task and return its answer (refused while the
        table's storage is unreachable, or once the table was given up here)."""
        return await self.core.mailbox.ask(self._handlers[type(command)], command,
                                           guard=self.core.check_available)

    def tell(self, command: c.Command) -> None:
        """Queue ``command`` on the table's task without waiting for it."""
        self.core.mailbox.tell(self._handlers[type(command)], command)

    async def caught_up(self) -> None:
        """Return once what this table was given to do before has run, and the messages
        it made have been sent (refused, as any request, once the table is closed)."""
        await self.core.mailbox.ask(_caught_up)

    # ---- running here ---------------------------------------------------------

    async def start(self) -> None:
        """Start the table's task and, when it can, the first hand."""
        self.core.mailbox.start()
        self.core.mailbox.tell(self._resume)

    async def _resume(self) -> None:
        self.waiting.offer_free_seat()
        await self.dealing.seats.after_seats_changed()
        # A restored hand in play: its player to act gets a fresh clock.
        self.dealing.rearm()
        self.hosting.rearm()

    def rearm(self) -> None:
        """Set every timer again from the state (see :class:`~app.table.outage.Resumable`):
        the seat offered, the player to act, sitting-out limits, away seats."""
        self.waiting.rearm()
        self.dealing.rearm()
        self.hosting.rearm()

    async def reload(self, stored: dict[str, Any]) -> None:
        """Go on from ``stored``, the table as the database holds it, which this table did
        not know it stored (a commit whose answer was lost), as a restart does: recover
        it, resume, and give every watcher a fresh snapshot."""
        self.core.take_stored(stored)
        try:
            if self._tournament is not None:
                # Failing (the database gone again), the tournament assigns no seats until
                # it has read its standings, which its next change does.
                try:
                    await self._tournament.stored_after_all()
                except Exception:
                    log.exception("table %s: its tournament could not take the stored "
                                  "result yet", self.id)
            await self.dealing.settlement.recover(
                reason="the table was restored from storage")
            await self._resume()
        finally:
            # Even if recovering failed: the state is then the stored one again. Like every
            # message, the snapshots are sent once the state they show is stored.
            for sid, user_id in self.core.watchers.items():
                self._snapshot_to(sid, user_id)

    def drain(self) -> None:
        """Deal no new hand here (the hand in play goes on): the process lets the table go."""
        self.core.draining = True
        self.core.mailbox.cancel("start")

    def deal_again(self) -> None:
        """The table stays after all: deal new hands again (undoes :meth:`drain`)."""
        self.core.draining = False
        self.core.mailbox.tell(self.dealing.start_when_ready)

    def give_up(self) -> asyncio.Future[None] | None:
        """Another process owns the table now: stop here at once, sending nothing more
        (see :meth:`TableCore.give_up`); the work of leaving it, if not given up already."""
        return self.core.give_up()

    async def stop(self, *, refusal: Callable[[], HoldemError] | None = None) -> None:
        """Stop the table's task and timers here, after the messages already queued (its
        state is stored); requests still waiting, and any after, get ``refusal()`` when
        given (say, ``table_moved``), else what they got before."""
        await self.core.stop(refusal=refusal)


async def _caught_up() -> None:
    """Nothing, run on the table's task after what was queued before it."""
