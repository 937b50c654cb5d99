"""The lobby's requests: opening tables, quick seats, and each player's own tables.

:class:`Lobby` opens new tables within each player's limits on the process that should
run them, and finds a seat for ``table:quick-seat`` (one at a time, so two players
asking at once share a table), sitting the player down through
:class:`app.realtime.seating.Seating`. It lists a player's own tables (opened or seated
at, on every process) and closes one its opener no longer needs. The tables themselves
are the host's (:mod:`app.hosting`); the lobby's listing of open tables is
:class:`app.hosting.listing.Listing`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from app.config import Settings
from app.errors import HoldemError
from app.hosting.host import TableHost
from app.poker.rake import RakeRule
from app.poker.state import Game, Stakes
from app.realtime.errors import NotYourTable
from app.realtime.schemas import QuickSeat, TableCreate
from app.realtime.seating import Seating
from app.table.acks import Closed, Sat, SeatAsked
from app.table.commands import CloseUnused
from app.table.errors import InvalidPayload, RakeNotAllowed, SeatTaken
from app.table.state import TIMING_PROFILES, Person, TableConfig, TimeBank, Viewer
from app.table.table import Table

log = logging.getLogger(__name__)

QUICK_SEAT_SEATS = 6
QUICK_SEAT_BOTS = 2
QUICK_SEAT_ATTEMPTS = 3


class Lobby:
    """The lobby's view of the tables, and the requests that open or find one."""

    def __init__(self, host: TableHost, seating: Seating) -> None:
        self.host = host
        self.live = host.live
        self.seating = seating
        self._quick_seat = asyncio.Lock()

    # ---- creating tables -------------------------------------------------------------

    async def create(self, owner: Viewer | None, data: TableCreate) -> Table:
        """Open a new table (each player may have a few open at once, on every process:
        the database counts them as it stores the new one)."""
        self.live.require_running()
        settings = self.host.services.settings
        if owner is None or owner.is_admin:
            return await self._open(owner, data, None)
        await self._count_opening(owner)
        # One creation at a time per player here; the database orders the processes.
        async with self.seating.one_at_a_time(owner.user_id):
            return await self._open(owner, data, settings.max_open_tables_per_user)

    async def _count_opening(self, player: Viewer) -> None:
        """One more table this player opened, within ``RATE_LIMIT_TABLE_CREATE``."""
        await self.host.services.limiter.hit("table_create", str(player.user_id),
                                             self.host.services.settings.rate_limit_table_create)

    async def _open(self, owner: Viewer | None, data: TableCreate, limit: int | None
                    ) -> Table:
        settings = self.host.services.settings
        data = with_timing(data)
        action = data.action_seconds or settings.action_seconds
        if action < settings.min_action_seconds:
            raise InvalidPayload(f"action_seconds must be at least {settings.min_action_seconds}",
                                 problems=[{"location": ["action_seconds"],
                                            "message": "too short"}])
        config = TableConfig(
            name=data.name, seats=data.seats, rake=_rake(owner, data),
            stakes=Stakes(data.small_blind, data.big_blind, data.ante,
                          straddle=2 * data.big_blind if data.straddle else 0),
            min_buy_in=data.min_buy_in or 20 * data.big_blind,
            max_buy_in=data.max_buy_in or 100 * data.big_blind,
            action_seconds=action, private=data.private,
            invite_code=secrets.token_urlsafe(8) if data.private else None,
            bots=data.bots, bot_count=data.bot_count if data.bots else 0,
            bot_style=data.bot_style, bomb_pot_every=data.bomb_pot_every,
            bomb_pot_ante=(data.bomb_pot_ante or 2 * data.big_blind) if data.bomb_pot_every else 0,
            run_it_twice=data.run_it_twice, game=Game(data.game),
            host=Person(owner.user_id, owner.public_id, owner.name) if owner else None,
            time_bank=_time_bank(settings, data),
            disconnect_grace_seconds=data.disconnect_grace_seconds,
        )
        return await self.host.open(secrets.token_hex(6), config,
                                    owner_id=owner.user_id if owner else None,
                                    open_limit=limit)

    async def quick_seat(self, sid: str, viewer: Viewer, data: QuickSeat) -> Sat | SeatAsked:
        """Sit at a public table with these blinds, opening one when none has room.

        Quick seats run one at a time, so players asking together share a table."""
        self.live.require_running()
        async with self._quick_seat:
            return await self._quick_seat_now(sid, viewer, data)

    async def _quick_seat_now(self, sid: str, viewer: Viewer, data: QuickSeat
                              ) -> Sat | SeatAsked:
        error: HoldemError | None = None
        for _ in range(QUICK_SEAT_ATTEMPTS):
            table, seat = self._find_seat(viewer, data)
            opened = table is None
            if table is None:
                table = await self._open_for_quick_seat(viewer, data)
                seat = 0
            buy_in = data.buy_in or table.state.config.max_buy_in
            try:
                return await self.seating.sit(sid, viewer, table, seat, buy_in, None)
            except SeatTaken as taken:
                error = taken
            except Exception:
                if opened:
                    # Opened for this player, who cannot sit (too few credits...): it
                    # must not stay behind, empty.
                    await self._discard(table)
                raise
        assert error is not None
        raise error

    async def _open_for_quick_seat(self, viewer: Viewer, data: QuickSeat) -> Table:
        """A public table for the lobby, opened because none at these blinds had room.

        It is nobody's own: it does not count among the player's open tables once they
        leave it to the bots, and it closes when nobody has played there for a while. The
        opening still counts toward how often the player may open tables."""
        if not viewer.is_admin:
            await self._count_opening(viewer)
        return await self._open(None, TableCreate(
            name=f"{Game(data.game).short} {data.small_blind}/{data.big_blind}",
            seats=QUICK_SEAT_SEATS, small_blind=data.small_blind, big_blind=data.big_blind,
            game=data.game,
            bots=data.bots, bot_count=QUICK_SEAT_BOTS if data.bots else 0), None)

    async def _discard(self, table: Table) -> None:
        try:
            await table.ask(CloseUnused("opened for a quick seat that failed"))
        except Exception as error:
            log.warning("table %s stays open after a failed quick seat: %r", table.id, error)

    # ---- a player's own tables -----------------------------------------------------

    async def close(self, viewer: Viewer, table_id: str) -> Closed:
        """Close a table this player opened, while no person sits at it."""
        table = self.live.get(table_id)
        if self.live.openers.get(table_id) != viewer.user_id:
            raise NotYourTable("only the player who opened this table may close it")
        result: Closed = await table.ask(CloseUnused(
            "closed by the player who opened it"))
        return result

    async def mine(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The tables of every process this player opened or has a seat at (``MyTable``),
        by name."""
        tables = self.mine_here(viewer.user_id)
        for answer in await self.host.owners.ask_every_process(
                "internal:lobby-mine", {"user_id": viewer.user_id}):
            tables += answer["tables"]
        return sorted(tables, key=lambda t: (t["name"], t["table_id"]))

    def mine_here(self, user_id: int) -> list[dict[str, Any]]:
        """The tables of this process a player opened or has a seat at (``MyTable``)."""
        mine = []
        for table in self.live.tables.values():
            if table.closed or table.lost:
                continue
            opened = self.live.openers.get(table.id) == user_id
            place = table.state.player_of(user_id) or table.state.claim_of(user_id)
            if opened or place is not None:
                mine.append({**table.summary(), "opened": opened,
                             "seat": place.seat if place else None,
                             "closable": opened and not table.in_use,
                             "tournament": table.state.config.tournament})
        return mine

    async def quick_seat_owner(self, data: QuickSeat) -> str | None:
        """With other processes: the process running the public table with these blinds
        that has the most people and room (None: this one, or no such table anywhere)."""
        peers = self.host.ownership.peers
        if peers is None:
            return None
        best: tuple[int, str] | None = None
        for t in await peers.listing():
            if (t["private"] or (t["small_blind"], t["big_blind"], t.get("game", "nlhe"))
                    != (data.small_blind, data.big_blind, data.game)
                    or (t["seated"] >= t["seats"] and not t["bots"])):
                continue
            people = t["seated"] - t["bots"]
            if best is None or people > best[0]:
                best = (people, t["table_id"])
        if best is None or best[1] in self.live.tables:
            return None
        leases = self.host.leases
        lease = await leases.lease_of(best[1])
        if lease is None or lease.owner not in self.host.ownership.alive - {leases.process_id}:
            return None
        return lease.owner

    def _find_seat(self, viewer: Viewer, data: QuickSeat) -> tuple[Table | None, int]:
        best: tuple[int, Table, int] | None = None
        for table in self.live.tables.values():
            state, config = table.state, table.state.config
            stakes = config.stakes
            if (config.private or table.closed or state.has_seat(viewer.user_id)
                    or config.tournament is not None):
                continue
            if ((stakes.small_blind, stakes.big_blind, config.game)
                    != (data.small_blind, data.big_blind, data.game)):
                continue
            seats = state.free_seats() or state.bot_seats()
            if not seats:
                continue
            people = len(state.humans())
            if best is None or people > best[0]:
                best = (people, table, seats[0])
        return (best[1], best[2]) if best else (None, 0)



def with_timing(data: TableCreate) -> TableCreate:
    """``data`` with its timing profile's settings where it gives none of its own."""
    if data.timing is None:
        return data
    profile = TIMING_PROFILES[data.timing].public()
    return data.model_copy(update={k: v for k, v in profile.items()
                                   if k not in ("key", "label") and getattr(data, k) is None})


def _time_bank(settings: Settings, data: TableCreate) -> TimeBank:
    """The table's time bank rule: what ``data`` sets, else the server's."""
    start = (data.time_bank_seconds if data.time_bank_seconds is not None
             else settings.time_bank_seconds)
    rule = TimeBank(
        seconds=start,
        add_seconds=(data.time_bank_add_seconds if data.time_bank_add_seconds is not None
                     else settings.time_bank_add_seconds),
        every_hands=(data.time_bank_every_hands if data.time_bank_every_hands is not None
                     else settings.time_bank_every_hands),
        max_seconds=(data.time_bank_max_seconds if data.time_bank_max_seconds is not None
                     else max(settings.time_bank_max_seconds, start)),
    )
    if rule.seconds > rule.max_seconds:
        raise InvalidPayload("time_bank_seconds must not exceed time_bank_max_seconds",
                             problems=[{"location": ["time_bank_max_seconds"],
                                        "message": "less than the starting bank"}])
    return rule


def _rake(owner: Viewer | None, data: TableCreate) -> RakeRule | None:
    """The rake of a table being opened: only an admin may set one, and only at a public
    table (a private game is the players' own; a quick seat's or a player's table never
    rakes). A rake of 0 % is none."""
    wanted = data.rake
    if wanted is None or wanted.percent == 0:
        return None
    if owner is None or not owner.is_admin:
        raise RakeNotAllowed("only an admin may set a table's rake")
    if data.private:
        raise RakeNotAllowed("a private table takes no rake")
    return RakeRule(round(wanted.percent * 100),
                    caps=tuple(sorted((c.players, c.cap) for c in wanted.caps)),
                    no_flop_no_drop=wanted.no_flop_no_drop)
