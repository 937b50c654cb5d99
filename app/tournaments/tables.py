"""The live side of running tournaments: their tables, their clocks, and the end.

Each table of a running tournament is an ordinary :class:`~app.table.table.Table`
(the same dealing and engine) whose config names the tournament, opened with it
(``Table(..., tournament=)``, see :meth:`TournamentTables.attach`). Its seats hold
tournament chips, not credits: nobody buys in or cashes out there, so no chip movement it commits
carries credits, and the ledger's credits stay in the prize pool. The table asks the tournament
(:class:`TournamentHandsAt`, the table's
:class:`~app.table.assigned.TournamentHands`) who sits where, and takes those
seats itself (:func:`app.table.assigned.take_assigned_seats`); before each hand
it asks whether to deal and at what stakes; when a hand ends it stores the hand
and the tournament's new standings in one transaction, takes its new seats
(players moved away leave at once), and only then are the tables players moved
to told: a moved player sits down there at once, during a hand too, and is
dealt in from that table's next hand.

A ticker moves every clock on, starts due tournaments, opens the tables a
tournament needs, closes the tables it broke, and at the end pays the prizes
and tells each player their place. Each tournament's tick, and each of its
tables, fails alone: the error is logged (once, until it clears) and every other
tournament and table plays on. A table number, and so a table id, is never used
twice in a tournament (a broken table is never opened again: a new one is).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Coroutine, Mapping
from typing import Any

import socketio

from app.hosting.host import TableHost
from app.hosting.ports import Ticker
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.realtime.connections import LOBBY_ROOM, user_room
from app.table.assigned import AssignedSeat, Commit, TournamentHands
from app.table.commands import TakeAssignedSeats
from app.table.state import TableConfig, TimeBank
from app.table.table import Table
from app.tournaments.rules import TournamentStatus
from app.tournaments.service import TournamentService
from app.tournaments.tournament import HandOutcome

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
TABLE_NAME_LENGTH = 40


def table_id(tournament_id: str, number: int) -> str:
    """The id of a tournament's table ``number``."""
    return f"{tournament_id}t{number}"


class TournamentHandsAt:
    """What one tournament table asks its tournament (see
    :class:`~app.table.assigned.TournamentHands`)."""

    def __init__(self, runner: TournamentTables, tournament_id: str, number: int) -> None:
        self.runner = runner
        self.tournament_id = tournament_id
        self.number = number
        self._outcome: HandOutcome | None = None

    def seats(self) -> Mapping[int, AssignedSeat] | None:
        """The seats the tournament assigns this table now."""
        return self.runner.assigned(self.tournament_id, self.number)

    async def begin_hand(self, stacks: dict[int, int], absent: frozenset[int]) -> Stakes | None:
        """The level's stakes if the tournament lets these seats be dealt now."""
        return await self.runner.service.begin_hand(self.tournament_id, self.number, stacks,
                                                    absent)

    async def hand_ended(self, stacks: dict[int, int], button: int, commit: Commit) -> None:
        """Record the hand's result: the standings are committed with the hand."""
        self._outcome = await self.runner.service.hand_ended(
            self.tournament_id, self.number, stacks, button, commit)

    async def after_hand(self) -> None:
        """Move players on at the other tables; announce busts; maybe finish."""
        outcome, self._outcome = self._outcome, None
        if outcome is not None:
            await self.runner.after_hand(self.tournament_id, self.number, outcome)

    async def stored_after_all(self) -> None:
        """The table's hand result may have been stored after all: take it if so."""
        await self.runner.after_confirmed_hands(self.tournament_id)


class TournamentTables(Ticker):
    """The tables and clocks of every running tournament of this process."""

    name = "the tournament ticker"

    def __init__(
        self, service: TournamentService, tables: TableHost, sio: socketio.AsyncServer,
        *, tick_seconds: float = TICK_SECONDS,
    ) -> None:
        self.service = service
        self.tables = tables
        self.sio = sio
        super().__init__(tick_seconds=tick_seconds)
        self._step_lock = asyncio.Lock()
        self._finishing: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._failing: set[str] = set()

    # ---- life cycle ---------------------------------------------------------------

    async def resume(self) -> None:
        """Load the stored tournaments (before the tables are restored)."""
        await self.service.resume()

    def require_running(self) -> None:
        """Refuse (``tables_elsewhere``) on a process that does not run the tournaments."""
        self.tables.ownership.require_director()

    def attach(self, table_id: str, config: TableConfig) -> TournamentHands | None:
        """The tournament a table (a new one, or one restored) deals for, if any."""
        tournament_id = config.tournament
        if tournament_id is None:
            return None
        number = int(table_id.removeprefix(tournament_id).removeprefix("t"))
        return TournamentHandsAt(self, tournament_id, number)

    # ---- one tick ----------------------------------------------------------------------

    async def step(self) -> None:
        """Start due tournaments, move clocks on, open and close tables as needed, pay
        the finished; each tournament alone (one failing stops no other)."""
        if not self.tables.ownership.director:
            return
        async with self._step_lock:
            for tournament_id in list(self.service.tournaments):
                await self._guarded(f"tournament {tournament_id}",
                                    self._step_one(tournament_id))

    async def _step_one(self, tournament_id: str) -> None:
        t = self.service.tournaments.get(tournament_id)
        if t is None:
            return
        if t.status is TournamentStatus.REGISTERING:
            status = await self.service.start_if_due(tournament_id)
            if status is TournamentStatus.CANCELLED:
                await self.removed(tournament_id)
                return
            if status is TournamentStatus.RUNNING:
                await self.announce(tournament_id)
            t = self.service.get(tournament_id)
        if t.status is TournamentStatus.RUNNING:
            await self.service.tick(tournament_id)
            await self.after_confirmed_hands(tournament_id)
            await self.sync_tables(tournament_id)
        elif t.status is TournamentStatus.FINISHED:
            await self.finish(tournament_id)

    async def _guarded(self, what: str, work: Awaitable[None]) -> None:
        """Run ``work`` for ``what`` (a tournament, a table); a failure is logged (once
        until ``what`` works again), not raised, so it stops nothing else."""
        try:
            await work
        except Exception:
            if what not in self._failing:
                self._failing.add(what)
                log.exception("%s failed; the others play on (logged once until it works "
                              "again)", what)
        else:
            if what in self._failing:
                self._failing.discard(what)
                log.info("%s works again", what)

    async def sync_tables(self, tournament_id: str) -> None:
        """Open the tables the tournament has, close the ones it broke, poke the rest
        (each table alone: one that cannot open stops no other)."""
        t = self.service.get(tournament_id)
        for number in sorted(t.tables):
            await self._guarded(f"table {table_id(tournament_id, number)}",
                                self._keep_open(tournament_id, number))
        prefix = f"{tournament_id}t"
        for tid, table in list(self.tables.live.tables.items()):
            if (tid.startswith(prefix) and not table.closed
                    and int(tid.removeprefix(prefix)) not in t.tables):
                await self._close(table, "the tournament broke this table")

    async def _keep_open(self, tournament_id: str, number: int) -> None:
        tid = table_id(tournament_id, number)
        table = self.tables.live.tables.get(tid)
        if table is None:
            # Stored but not run here: the director before this one died with it, and
            # its lease has not lapsed yet; a heartbeat claims it here once it has.
            if not await self.tables.owners.stored_open(tid):
                await self._open(tournament_id, number)
        elif not table.closed:
            table.tell(TakeAssignedSeats())

    async def _open(self, tournament_id: str, number: int) -> None:
        t = self.service.get(tournament_id)
        stakes = t.clock().level.stakes()
        settings = self.tables.services.settings
        name = f"{self.service.names[tournament_id]} · table {number}"[:TABLE_NAME_LENGTH]
        config = TableConfig(
            name=name, seats=t.rules.table_size, stakes=stakes, min_buy_in=1, max_buy_in=1,
            action_seconds=settings.action_seconds,
            tournament=tournament_id, game=t.rules.game,
            time_bank=TimeBank(settings.time_bank_seconds,
                               add_seconds=settings.time_bank_add_seconds,
                               every_hands=settings.time_bank_every_hands,
                               max_seconds=max(settings.time_bank_max_seconds,
                                               settings.time_bank_seconds)),
        )
        await self.tables.open(table_id(tournament_id, number), config, attach=self.attach)

    async def _close(self, table: Table, reason: str) -> None:
        try:
            await self.tables.close(table.id, reason)
        except Exception:
            log.exception("tournament table %s could not close", table.id)

    # ---- seats ----------------------------------------------------------------------

    def assigned(self, tournament_id: str, number: int) -> dict[int, AssignedSeat] | None:
        """Who the tournament seats at its table ``number`` now (None once it is not
        running: the table keeps its seats until it closes; None too while a hand's
        result may be stored but is not live: the table waits for the standings)."""
        t = self.service.tournaments.get(tournament_id)
        if (t is None or t.status is not TournamentStatus.RUNNING
                or self.service.unconfirmed(tournament_id)):
            return None
        seating = t.tables.get(number)
        seats: dict[int, AssignedSeat] = {}
        for seat, entry_id in (seating.seats.items() if seating else ()):
            player = t.entries[entry_id].player
            seats[seat] = AssignedSeat(
                self.service.person(tournament_id, player), t.entries[entry_id].chips,
                bot=_style(player),
                notice={"kind": "tournament_seat", "table_id": table_id(tournament_id, number),
                        "tournament_id": tournament_id, "seat": seat})
        return seats

    def _background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` beside the table's task, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- after a hand ------------------------------------------------------------------

    async def after_confirmed_hands(self, tournament_id: str) -> None:
        """Do for each hand found stored although its commit seemed to fail what the end
        of the hand did not (see :meth:`TournamentService.confirmed`)."""
        for number, outcome in (await self.service.confirmed(tournament_id)).items():
            await self.after_hand(tournament_id, number, outcome)

    async def after_hand(self, tournament_id: str, number: int, outcome: HandOutcome) -> None:
        """Poke the tables players moved between; announce busts; finish at the end."""
        touched = {m.to_table for m in outcome.moves} | {m.from_table for m in outcome.moves}
        for other in touched - {number}:
            table = self.tables.live.tables.get(table_id(tournament_id, other))
            if table is not None and not table.closed:
                table.tell(TakeAssignedSeats())
        if outcome.busted or outcome.moves or outcome.finished:
            await self.announce(tournament_id)
        await self._tell_busted(tournament_id, outcome.busted)
        if outcome.finished:
            self._background(self.finish(tournament_id))

    async def _tell_busted(self, tournament_id: str, busted: tuple[str, ...]) -> None:
        t = self.service.tournaments.get(tournament_id)
        if t is None or not busted:
            return
        places = {f.player: f.place for f in t.results()}
        for entry_id in busted:
            person = self.service.person(tournament_id, t.entries[entry_id].player)
            if person.user_id is not None:
                await self.sio.emit("user:notice", {
                    "kind": "tournament_busted", "table_id": None,
                    "tournament_id": tournament_id, "place": places.get(entry_id)},
                    room=user_room(person.user_id))

    # ---- a deal ---------------------------------------------------------------------

    async def deal(self, tournament_id: str, user_id: int) -> dict[str, Any]:
        """A player agrees to an ICM deal (see :mod:`app.tournaments.deals`): the players
        still to agree are asked (``tournament_deal``); once all agreed, the tournament
        ends with it. The vote as the ack tells it."""
        vote = await self.service.agree_to_deal(tournament_id, user_id)
        t = self.service.get(tournament_id)
        told = {"tournament_id": tournament_id,
                "offer": {self.service.name_of(tournament_id, t.entries[e].player): amount
                          for e, amount in vote.offer.items()},
                "agreed": len(vote.agreed), "needed": len(vote.needed),
                "expires_at": vote.until}
        if vote.done:
            await self.finish(tournament_id)
            return {**told, "done": True}
        for player in sorted(vote.needed - vote.agreed):
            asked = self.service.person(tournament_id, player).user_id
            if asked is not None:
                await self.sio.emit("user:notice", {"kind": "tournament_deal",
                                                    "table_id": None, **told},
                                    room=user_room(asked))
        return {**told, "done": False}

    async def finish(self, tournament_id: str) -> None:
        """Pay the prizes, tell every player their place, close the tables."""
        if tournament_id not in self.service.tournaments:
            return
        t = self.service.get(tournament_id)
        if t.status is not TournamentStatus.FINISHED or tournament_id in self._finishing:
            return
        self._finishing.add(tournament_id)
        places = {f.player: f.place for f in t.results()}
        entries = dict(t.entries)
        try:
            won = await self.service.settle(tournament_id)
        finally:
            self._finishing.discard(tournament_id)
        for entry_id, place in places.items():
            person = self.service.person(tournament_id, entries[entry_id].player)
            if person.user_id is not None:
                await self.sio.emit("user:notice", {
                    "kind": "tournament_finished", "table_id": None,
                    "tournament_id": tournament_id, "place": place,
                    "prize": won.get(entry_id, 0)}, room=user_room(person.user_id))
        prefix = f"{tournament_id}t"
        for tid, table in list(self.tables.live.tables.items()):
            if tid.startswith(prefix) and not table.closed:
                await self._close(table, "the tournament is over")
        await self.removed(tournament_id)

    async def removed(self, tournament_id: str) -> None:
        """Tell the lobby a tournament is gone (finished or cancelled)."""
        await self.sio.emit("lobby:tournament-removed", {"tournament_id": tournament_id},
                            room=LOBBY_ROOM)

    async def announce(self, tournament_id: str) -> None:
        """Tell the lobby how a tournament stands."""
        if tournament_id in self.service.tournaments:
            summary: dict[str, Any] = self.service.summary(tournament_id)
            await self.sio.emit("lobby:tournament", summary, room=LOBBY_ROOM)


def _style(player: str) -> BotStyle | None:
    if not player.startswith("bot:"):
        return None
    styles = list(BotStyle)
    return styles[sum(map(ord, player)) % len(styles)]
