"""The layer under one table: its state, mailbox, storage, clock and outgoing messages,
and the one place that moves chips.

Every module of a table (the waiting list, the bots' seats, the seats, dealing, the
clock, settlement, the table's requests) works on a :class:`TableCore`, never on each
other's internals, so they stack in one direction: core, then waiting list and bots,
then seats, clock, settlement and dealing, then :class:`~app.table.table.Table`. The
one call back up, going on after an outage or a restore, goes to the
:class:`~app.table.outage.Resumable` the core is built with.

Three rules keep chips and what clients see honest:

- **Chips move only through** :meth:`TableCore.move_chips`: it applies a change
  to the state, commits the chip movement it returns together with the new state
  in one transaction, and restores the last stored state if the commit fails. A
  seat never disappears before its chips are safely back on a balance.
- **Durable, then announced.** Messages are queued while a request runs and
  sent only once the state that produced them is stored. When storing fails,
  the table goes back to its last stored state, forgets the messages that were
  never sent, and the request is refused. If the database is unreachable, the
  table stops its clocks, refuses requests with ``service_unavailable`` and
  probes the database; once it answers again the table re-arms its clocks from
  the stored state (the player to act gets a fresh clock) and plays on.
- **A lost answer loses no chip.** A chip commit can fail after the database
  committed it (the connection dropped during COMMIT). So after a chip commit
  fails as unreachable, the table writes nothing until the database answers
  again, then reads what it holds: if that is not the state the table last
  stored, the commit landed, and the table goes on from the stored state as a
  restart does (its watchers get a fresh snapshot).

The outage itself (unavailable, probing, unsure, reachable again) is
:mod:`app.table.outage`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from app.accounts.ratelimit import RateLimiter
from app.chat.safety import ChatSafety
from app.config import Settings
from app.db.engine import JSONText, StorageUnavailable
from app.errors import HoldemError
from app.metrics import Metrics
from app.poker.cards import Deck
from app.table import projection
from app.table.actor import Mailbox
from app.table.broadcast import Audience, Broadcaster
from app.table.errors import InternalError, NotSeated, TableMoved
from app.table.events import PlayerLeft, PlayerSat, TableClosed, TableEventRecord, payload
from app.table.outage import Outage, Resumable, cannot_store
from app.table.state import Person, Player, TableState, Viewer
from app.table.store import Movement, TableStore, Transfer

log = logging.getLogger(__name__)


@dataclass
class TableServices:
    """What every table shares: its audience, storage, settings, and injectable sources."""

    audience: Audience
    store: TableStore
    settings: Settings
    limiter: RateLimiter
    metrics: Metrics = field(default_factory=Metrics)
    # The word list, mutes and ignore lists every chat line is checked against.
    chat: ChatSafety = field(default_factory=ChatSafety)
    # A stacked deck for tests; None (always, in production) deals the fair shuffle.
    deck_factory: Callable[[], Deck | None] = lambda: None
    bot_rng: Random = field(default_factory=lambda: Random(secrets.randbits(64)))
    now: Callable[[], float] = time.time
    on_summary: Callable[[str, dict[str, Any] | None], Awaitable[None]] = field(
        default=lambda _id, _summary: _nothing())
    # Called when a write was refused because another process owns the table now.
    on_lost: Callable[[str], Awaitable[None]] = field(default=lambda _id: _nothing())
    # Gives this process's lease on a table (id, fencing token) to another process (id):
    # whether the database took it (see app.table.commands.HandOver).
    hand_over: Callable[[str, int, str], Awaitable[bool]] = field(
        default=lambda _id, _token, _to: _refused())


async def _nothing() -> None:
    return None


async def _refused() -> bool:
    return False


def person_of(viewer: Viewer) -> Person:
    """How a connected user appears at a table."""
    return Person(viewer.user_id, viewer.public_id, viewer.name)


class TableCore:
    """One table's state and shared parts; the only code that moves its chips."""

    def __init__(self, table_id: str, state: TableState, services: TableServices, *,
                 lease: int | None, draining: bool, resumable: Resumable) -> None:
        """The layer under the table ``table_id``; ``lease``: the fencing token every
        write carries; ``draining``: deal no new hand; ``resumable``: the table above,
        told to go on after an outage or a failed write."""
        self.id = table_id
        self.state = state
        self.services = services
        self.mailbox = Mailbox(table_id, after_each=self._after_each)
        self.watchers: dict[str, int | None] = {}
        self.out = Broadcaster(services.audience, table_id, watchers=self.watchers,
                               next_seq=self._next_seq)
        self.away: set[int] = set()
        # The fencing token of this process's lease on the table (see app.realtime.leases).
        self.lease = lease
        # Draining: deal no new hand (the table is about to be handed to another process).
        self.draining = draining
        self.lost = False
        self._resumable = resumable
        self._dirty = False
        # The last state stored, as the JSON text written (as a dict it takes 1.6 times
        # the memory): what a failed write goes back to.
        self._saved = self._encoded()
        self.outage = Outage(table_id, store=services.store, mailbox=self.mailbox,
                             saved=self._saved_state, resumable=resumable,
                             closed=self._closed_meanwhile)
        # What the lobby was last told about the table (see _listing_changed).
        self._listed: tuple[Any, ...] | None = None
        self._leaving: asyncio.Future[None] | None = None

    # ---- plumbing -------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The server's settings."""
        return self.services.settings

    def now(self) -> float:
        """Wall-clock time (deadlines are sent to clients as Unix times)."""
        return self.services.now()

    def touch(self) -> None:
        """Mark the state changed: it is stored after the current message."""
        self._dirty = True

    def _next_seq(self) -> int:
        self.state.seq += 1
        self._dirty = True
        return self.state.seq

    def event(self, record: TableEventRecord, *, hand_id: str | None = None,
              instead: tuple[Iterable[int], TableEventRecord] | None = None) -> int:
        """Queue ``record`` as a public ``table:event``; returns its seq. With ``instead``
        (users, another record), those users get the other record under the same seq."""
        body = {"hand_id": hand_id, "event": payload(record)}
        if instead is None:
            return self.out.send("table:event", body)
        users, other = instead
        return self.out.send("table:event", body, owner=users,
                             private={"hand_id": hand_id, "event": payload(other)})

    def connected(self, user_id: int) -> bool:
        """Whether the user has a session here, or watches this table from any process."""
        return (self.services.audience.is_connected(user_id)
                or user_id in self.watchers.values())

    def player_for(self, viewer: Viewer) -> Player:
        """The viewer's seat, or :class:`NotSeated`."""
        player = self.state.player_of(viewer.user_id)
        if player is None:
            raise NotSeated("you have no seat at this table")
        return player

    @property
    def unavailable(self) -> bool:
        """Whether the table's storage is unreachable (see :mod:`app.table.outage`)."""
        return self.outage.unavailable

    def check_available(self) -> None:
        """Refuse a request (on the table's task) once the table was given up here, or
        while its storage is unreachable."""
        if self.lost:
            raise self.mailbox.refusal()
        if self.outage.unavailable:
            raise cannot_store()

    # ---- seats ------------------------------------------------------------------

    def announce_sat(self, player: Player) -> None:
        """Tell the table someone sat down."""
        self.event(PlayerSat(seat=player.seat, player=player.person.record(player.bot),
                             stack=player.stack, status=player.status.value))

    def vacate(self, player: Player) -> Transfer | None:
        """Free the seat in the state and say what goes back to a balance (a bot's stack
        to the house; nothing at a tournament table, whose chips are no credits). Only for
        use inside a :meth:`move_chips` change."""
        del self.state.players[player.seat]
        self.state.desk.away.pop(player.seat, None)
        self.event(PlayerLeft(seat=player.seat, player=player.person.record(player.bot),
                              stack=player.stack))
        if self.state.config.tournament is not None:
            return None
        amount = player.stack - player.paid_out
        if player.user_id is not None:
            self.out.to_user(player.user_id, "user:notice", {
                "kind": "cashed_out", "table_id": self.id, "amount": amount})
        return Transfer(player.user_id, amount) if amount > 0 else None

    # ---- the one way chips move ---------------------------------------------------

    async def move_chips(self, change: Callable[[], Movement]) -> dict[int | None, int]:
        """Apply ``change`` to the state and commit the chips it moves with the new state,
        in one transaction; on failure the state is as it was last stored.

        Returns the balance left after each buy-in, by account (None: the house).
        """
        try:
            self._check_writable()
            movement = change()
            state = self._encoded()
            balances = await self.services.store.commit(self.id, movement, state,
                                                        token=self.lease)
        except Exception as error:
            # The database may have committed it all the same (its answer was lost).
            self.outage.chips_failed(error)
            refusal = self._restore(error)
            if refusal is not None:
                raise refusal from error
            raise
        self._stored(state)
        return balances

    def _check_writable(self) -> None:
        """Refuse to write while a chip commit's outcome is unknown: a write from this
        state could overwrite the one the database holds, and with it the chips moved."""
        if self.outage.unsure:
            raise cannot_store()

    def _encoded(self) -> JSONText:
        """The state as the JSON text a write stores."""
        return JSONText.of(self.state.to_dict())

    def _saved_state(self) -> dict[str, Any]:
        """The state last stored, as a dict."""
        saved: dict[str, Any] = self._saved.decoded()
        return saved

    def _stored(self, state: JSONText) -> None:
        self._saved = state
        self._dirty = False
        self.out.seal()

    def _restore(self, error: Exception) -> HoldemError | None:
        """Back to the last stored state; the refusal to give instead of ``error``, if any."""
        self.state = TableState.from_dict(self._saved.decoded())
        self.out.rollback(self.state.seq)
        self._dirty = False
        if isinstance(error, TableMoved):
            self.give_up()
            return error
        refusal: HoldemError | None = None
        if isinstance(error, StorageUnavailable):
            log.warning("table %s: the database is unreachable (%s)", self.id,
                        type(error.__cause__ or error).__name__)
            self.outage.begin()
            refusal = cannot_store()
        elif not isinstance(error, HoldemError):
            log.error("table %s: storing failed", self.id, exc_info=error)
            refusal = InternalError("the table could not do that")
        if not self.outage.unavailable:
            self._resumable.rearm()
        return refusal

    async def _after_each(self) -> HoldemError | None:
        if self.lost:
            return self.mailbox.refusal()
        refusal: HoldemError | None = None
        # Stored even while the table stops here (a drain, a move): the messages queued
        # before the stop are sent only once stored, so whoever restores the table next
        # numbers on from the last seq a client saw, never from one below it.
        if self._dirty:
            state = self._encoded()
            try:
                self._check_writable()
                await self.services.store.save(self.id, state, token=self.lease)
            except Exception as error:
                refusal = self._restore(error) or InternalError("the table could not do that")
            else:
                self._stored(state)
        else:
            self.out.seal()
        if self.lost:
            return refusal
        await self.out.flush()
        if not self.mailbox.closed and self._listing_changed():
            await self.services.on_summary(self.id, projection.summary(self))
        return refusal

    def _listing_changed(self) -> bool:
        """Whether what the lobby lists of the table may have changed since it was last
        told: who sits, who waits, or the hands played. Most messages (an action in the
        middle of a hand) change none of it, and the listing is not rebuilt for them."""
        state = self.state
        key = (len(state.players), sum(1 for p in state.players.values() if p.is_bot),
               len(state.waiting), len(state.recent), state.recent[-1] if state.recent else None)
        changed, self._listed = key != self._listed, key
        return changed

    def give_up(self) -> asyncio.Future[None] | None:
        """Another process owns the table now: stop here at once, sending nothing more;
        requests still waiting are told ``table_moved``. Returns the work of leaving the
        table (None if it was already given up)."""
        if self.lost:
            return None
        log.warning("table %s: another process runs it now; giving it up", self.id)
        self.lost = True
        self.mailbox.refuse_with(lambda: TableMoved(
            "this table moved to another server: try again", table_id=self.id,
            retry_after=1))
        self.mailbox.cancel_all()
        self._leaving = asyncio.ensure_future(self.services.on_lost(self.id))
        return self._leaving

    # ---- going on from a stored state ------------------------------------------------

    def take_stored(self, stored: dict[str, Any]) -> None:
        """Go on from ``stored``, what the database holds of the table but this table did
        not know it stored (only for the table's reload, which then recovers the state as
        a restart does): nothing sent before can be replayed, and the next seq is one no
        client has seen."""
        self.state = TableState.from_dict(stored)
        self._saved = self._encoded()
        self._dirty = False
        self.out.forget_sent()
        # Stored with the next write: a client asking for what it missed since a seq it
        # holds gets a snapshot (the stored state may be at a seq it has seen).
        self._next_seq()

    async def _closed_meanwhile(self) -> None:
        """The table's close was committed although it seemed to fail: everyone was paid
        out; tell the watchers and stop."""
        log.warning("table %s: its close was stored although it seemed to fail", self.id)
        self.outage.end()
        self.event(TableClosed(reason="the table closed"))
        await self.end()

    async def end(self) -> None:
        """The table's close is stored: tell its watchers, leave the lobby and stop.
        Requests that queued while the close was committing (a sit, a bot's seat) would
        move chips at a closed table, where nothing pays them out again: refused unrun."""
        self.out.seal()
        # The close is stored: nothing of a closed table is written again.
        self._dirty = False
        await self.out.flush()
        await self.services.on_summary(self.id, None)
        await self.stop(run_queued=False)

    async def stop(self, *, run_queued: bool = True,
                   refusal: Callable[[], HoldemError] | None = None) -> None:
        """Stop the table's task, its timers and any probe; the messages already queued
        run first, unless ``run_queued`` is False (then they are refused unrun); with
        ``refusal``, requests that cannot run any more are told that."""
        self.outage.stop()
        await self.mailbox.stop(run_queued=run_queued, refusal=refusal)
