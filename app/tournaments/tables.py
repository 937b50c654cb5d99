"""The live side of running tournaments: their tables, their clocks, and the end.

Each table of a running tournament is an ordinary table (the same
:class:`~app.realtime.dealer.Dealer` and engine) whose config names the
tournament. Its seats hold tournament chips, not credits: nobody buys in or
cashes out there, so every chip movement it commits is empty (the hand record
and state only), and the ledger's credits stay in the prize pool. The table
asks the tournament before each hand (:class:`TournamentHandsAt`): its seats
are made those the tournament assigns (players moved by balancing leave one
table and appear at another), the level's stakes are used, and the hand's end
is reported so the tournament records busts and moves players on.

A ticker moves every clock on, starts due tournaments, opens the tables a
tournament needs, closes the tables it broke, and at the end pays the prizes
and tells each player their place.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import socketio

from app.poker.blinds import PlayerStatus
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.realtime.connections import LOBBY_ROOM, user_room
from app.realtime.core import TableCore
from app.realtime.lobby import TableService
from app.realtime.seating import Player, TableConfig
from app.realtime.table import Table
from app.tournaments.director import HandOutcome
from app.tournaments.rules import TournamentStatus
from app.tournaments.service import TournamentService

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
TABLE_NAME_LENGTH = 40


def table_id(tournament_id: str, number: int) -> str:
    """The id of a tournament's table ``number``."""
    return f"{tournament_id}t{number}"


class TournamentHandsAt:
    """What one tournament table asks its tournament (see ``TournamentHands``)."""

    def __init__(self, runner: TournamentTables, tournament_id: str, number: int) -> None:
        self.runner = runner
        self.tournament_id = tournament_id
        self.number = number

    def seat_players(self, core: TableCore) -> None:
        """Make the table's seats those the tournament assigns (between hands)."""
        self.runner.seat_players(self.tournament_id, self.number, core)

    async def begin_hand(self, stacks: dict[int, int]) -> Stakes | None:
        """The level's stakes if the tournament lets these seats be dealt now."""
        return await self.runner.service.begin_hand(self.tournament_id, self.number, stacks)

    async def hand_ended(self, stacks: dict[int, int], button: int) -> None:
        """Tell the tournament; then move players, and maybe finish."""
        outcome = await self.runner.service.hand_ended(self.tournament_id, self.number, stacks,
                                                       button)
        await self.runner.after_hand(self.tournament_id, self.number, outcome)


class TournamentTables:
    """The tables and clocks of every running tournament of this process."""

    def __init__(
        self, service: TournamentService, tables: TableService, sio: socketio.AsyncServer,
        *, tick_seconds: float = TICK_SECONDS,
    ) -> None:
        self.service = service
        self.tables = tables
        self.sio = sio
        self.tick_seconds = tick_seconds
        self._task: asyncio.Task[None] | None = None
        self._step_lock = asyncio.Lock()
        self._finishing: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        tables.on_restore = self.attach

    # ---- life cycle ---------------------------------------------------------------

    async def resume(self) -> None:
        """Load the stored tournaments (before the tables are restored)."""
        await self.service.resume()

    def start(self) -> None:
        """Start the ticker (after the tables are restored)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="tournaments:ticker")

    async def stop(self) -> None:
        """Stop the ticker (the state is stored)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.step()
            except Exception:
                log.exception("the tournament ticker failed; trying again")
            await asyncio.sleep(self.tick_seconds)

    def require_running(self) -> None:
        """Refuse (``tables_elsewhere``) on a process that does not run the tournaments."""
        self.tables.require_director()

    def attach(self, table: Table) -> None:
        """Attach a tournament's table to the tournament (a new one, or one restored)."""
        tournament_id = table.state.config.tournament
        if tournament_id is None:
            return
        number = int(table.id.removeprefix(tournament_id).removeprefix("t"))
        table.dealer.tournament = TournamentHandsAt(self, tournament_id, number)

    # ---- one tick ----------------------------------------------------------------------

    async def step(self) -> None:
        """Start due tournaments, move clocks on, open and close tables as needed."""
        if not self.tables.director:
            return
        async with self._step_lock:
            for tournament_id in await self.service.start_due():
                await self.announce(tournament_id)
            for tournament_id, t in list(self.service.tournaments.items()):
                if t.status is TournamentStatus.RUNNING:
                    await self.service.tick(tournament_id)
                    await self.sync_tables(tournament_id)
                elif t.status is TournamentStatus.FINISHED:
                    await self.finish(tournament_id)

    async def sync_tables(self, tournament_id: str) -> None:
        """Open the tables the tournament has, close the ones it broke, poke the rest."""
        t = self.service.get(tournament_id)
        for number in sorted(t.tables):
            table = self.tables.tables.get(table_id(tournament_id, number))
            if table is None:
                await self._open(tournament_id, number)
            elif not table.closed:
                table.core.mailbox.post(self._deal_when_ready, table)
        prefix = f"{tournament_id}t"
        for tid, table in list(self.tables.tables.items()):
            if (tid.startswith(prefix) and not table.closed
                    and int(tid.removeprefix(prefix)) not in t.tables):
                await self._close(table, "the tournament broke this table")

    async def _open(self, tournament_id: str, number: int) -> None:
        t = self.service.get(tournament_id)
        stakes = t.clock().level.stakes()
        name = f"{self.service.names[tournament_id]} · table {number}"[:TABLE_NAME_LENGTH]
        config = TableConfig(
            name=name, seats=t.rules.table_size, stakes=stakes, min_buy_in=1, max_buy_in=1,
            action_seconds=self.tables.services.settings.action_seconds,
            tournament=tournament_id,
        )
        await self.tables.open_table(table_id(tournament_id, number), config, attach=self.attach)

    async def _deal_when_ready(self, table: Table) -> None:
        if table.state.current is None and table.dealer.tournament is not None:
            table.dealer.tournament.seat_players(table.core)
            table.dealer.schedule_start()

    async def _close(self, table: Table, reason: str) -> None:
        try:
            await self.tables.close(table.id, reason)
        except Exception:
            log.exception("tournament table %s could not close", table.id)

    # ---- seats ----------------------------------------------------------------------

    def seat_players(self, tournament_id: str, number: int, core: TableCore) -> None:
        """Make a table's seats (between hands) those the tournament assigns."""
        t = self.service.tournaments.get(tournament_id)
        state = core.state
        if t is None or state.current is not None:
            return
        seating = t.tables.get(number)
        wanted = dict(seating.seats) if seating else {}
        changed = False
        for seat, player in list(state.players.items()):
            wanted_id = wanted.get(seat)
            if wanted_id is None or self.service.person(
                    tournament_id, t.entries[wanted_id].player) != player.person:
                del state.players[seat]
                core.event({"type": "player_left", "seat": seat,
                            "player": player.person.public(player.bot), "stack": player.stack})
                changed = True
        for seat, entry_id in sorted(wanted.items()):
            entry = t.entries[entry_id]
            held = state.players.get(seat)
            if held is None:
                held = Player(seat, self.service.person(tournament_id, entry.player), entry.chips,
                              status=PlayerStatus.PLAYING, bot=_style(entry.player),
                              time_bank=core.settings.time_bank_seconds)
                state.players[seat] = held
                core.announce_sat(held)
                if held.user_id is not None:  # sent with the seat, once it is stored
                    core.out.to_user(held.user_id, "user:notice", {
                        "kind": "tournament_seat", "table_id": core.id,
                        "tournament_id": tournament_id, "seat": seat})
                changed = True
            elif held.stack != entry.chips:
                held.stack = entry.chips
                changed = True
            entry.absent = held.status is PlayerStatus.SITTING_OUT
        if changed:
            core.touch()

    def _background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` beside the table's task, keeping a reference until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- after a hand ------------------------------------------------------------------

    async def after_hand(self, tournament_id: str, number: int, outcome: HandOutcome) -> None:
        """Poke the tables players moved between; announce busts; finish at the end."""
        touched = {m.to_table for m in outcome.moves} | {m.from_table for m in outcome.moves}
        for other in touched - {number}:
            table = self.tables.tables.get(table_id(tournament_id, other))
            if table is not None and not table.closed:
                table.core.mailbox.post(self._deal_when_ready, table)
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
        for tid, table in list(self.tables.tables.items()):
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
