"""The tournaments of this process: creating them, entries paid and refunded, start, prizes.

Each tournament is a pure :class:`~app.tournaments.tournament.Tournament` kept in
memory and stored after every change. A change is made on a copy, committed
(with its credits, see :mod:`app.tournaments.store`) and only then becomes the
live state, so a refused or failed change leaves the tournament as it was.
Changes to one tournament run one at a time (a lock per tournament).

A hand's result is such a change, committed by the table it was played at: the
tournament's new standings go into the table's own transaction with the hand
(:meth:`TournamentService.hand_ended`), so the stored hands and the stored
standings always agree, whenever the process dies. Starting a hand only marks
the table busy in memory: a restart voids the hands that were in play anyway.
When that commit fails as the database's answer is lost, whether the standings
were stored is not known: nothing more is written for the tournament until the
stored row has been read and the hand's result made live if it is there
(:meth:`TournamentService.confirmed`), so no stale standings overwrite it.

Players appear in a tournament as ``user:<id>``; bots as ``bot:<name>``, and
the house account pays their entries and receives their prizes.

After a restart every registering or running tournament is loaded again. A
running one resumes its clock from the stored play time (the time the server
was down does not count), and the hands that were in play are voided: every
seat keeps the chips it had when the hand began, as at cash tables.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from random import Random
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import StorageUnavailable
from app.errors import ServiceUnavailable
from app.poker.state import Stakes
from app.table.assigned import Commit
from app.table.state import Person
from app.table.store import Write
from app.tournaments import deals
from app.tournaments.deals import DealVote
from app.tournaments.errors import TournamentNotFound, WrongTournamentState
from app.tournaments.rules import Entry, Rules, TournamentStatus
from app.tournaments.store import OnCreate, Payment, TournamentStore
from app.tournaments.tournament import HandOutcome, Tournament

log = logging.getLogger(__name__)

CLOCK_SAVE_SECONDS = 10.0


def user_key(user_id: int) -> str:
    """How a user appears in a tournament."""
    return f"user:{user_id}"


def bot_key(name: str) -> str:
    """How a bot appears in a tournament."""
    return f"bot:{name}"


def bot_public_id(tournament_id: str, name: str) -> str:
    """A tournament bot's public id at the tables."""
    return f"bot-{tournament_id}-{name}"


@dataclass(frozen=True, slots=True)
class _Unconfirmed:
    """A hand's result whose commit failed as unreachable: stored or not, unknown."""

    table: int
    work: Tournament
    outcome: HandOutcome


def _raising(error: Exception) -> Write:
    """A write that fails the transaction it is part of with ``error``."""
    async def write(_session: AsyncSession) -> None:
        raise error

    return write


class TournamentService:
    """Every tournament of this process."""

    def __init__(
        self, store: TournamentStore, *, house: Callable[[], Awaitable[int]],
        now: Callable[[], float], rng: Random | None = None,
    ) -> None:
        self.store = store
        self.house = house
        self.now = now
        self.rng = rng or Random(secrets.randbits(64))
        self.tournaments: dict[str, Tournament] = {}
        self.names: dict[str, str] = {}
        self.players: dict[str, dict[str, str]] = defaultdict(dict)
        self.persons: dict[str, dict[str, Person]] = defaultdict(dict)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._deals: dict[str, DealVote] = {}
        self._clock_saved: dict[str, float] = {}
        self._unconfirmed: dict[str, _Unconfirmed] = {}
        self._confirmed: defaultdict[str, dict[int, HandOutcome]] = defaultdict(dict)

    # ---- life cycle -------------------------------------------------------------

    async def resume(self) -> None:
        """Load every registering or running tournament; void the hands that were in play."""
        for record in await self.store.open_tournaments():
            t = Tournament.from_dict(record.state)
            for table in sorted(t.in_hand):
                t.hand_voided(table)
            t.tick(self.now())  # sets the clock's origin: the downtime does not count
            self.tournaments[record.id] = t
            self.names[record.id] = record.name
            for entry, user_id, public_id, name in await self.store.people(record.id):
                self._remember(record.id, entry.split("#")[0], user_id, public_id, name)
            await self.store.save(record.id, t.to_dict())
        if self.tournaments:
            log.info("resumed %d tournaments", len(self.tournaments))

    # ---- reading ----------------------------------------------------------------

    def get(self, tournament_id: str) -> Tournament:
        """The tournament with this id, or :class:`TournamentNotFound`."""
        t = self.tournaments.get(tournament_id)
        if t is None:
            raise TournamentNotFound(f"no tournament {tournament_id!r}",
                                     tournament_id=tournament_id)
        return t

    def name_of(self, tournament_id: str, player: str) -> str:
        """A player's display name in a tournament."""
        return self.players[tournament_id].get(player, player)

    def person(self, tournament_id: str, player: str) -> Person:
        """How a player appears at a tournament table."""
        return self.persons[tournament_id][player]

    def _remember(
        self, tournament_id: str, player: str, user_id: int | None, public_id: str, name: str
    ) -> None:
        if player.startswith("bot:"):
            user_id, public_id = None, bot_public_id(tournament_id, name)
        self.players[tournament_id][player] = name
        self.persons[tournament_id][player] = Person(user_id, public_id, name)

    # ---- changes ------------------------------------------------------------------

    async def create(
        self, name: str, rules: Rules, *, created_by: int | None,
        also: OnCreate | None = None,
    ) -> str:
        """Create a tournament open for registration; returns its id. ``also``: writes,
        given the new id, that commit with the tournament or fail its creation."""
        tournament_id = secrets.token_hex(8)
        t = Tournament(rules)
        await self.store.create(tournament_id, name, rules, t.to_dict(), created_by=created_by,
                                also=also)
        self.tournaments[tournament_id] = t
        self.names[tournament_id] = name
        return tournament_id

    async def register(
        self, tournament_id: str, user_id: int, name: str, public_id: str = ""
    ) -> Entry:
        """Enter a user: the buy-in and fee come from their balance."""
        player = user_key(user_id)
        entry = await self._enter(tournament_id, player, user_id, name)
        self._remember(tournament_id, player, user_id, public_id or player, name)
        return entry

    async def register_bot(self, tournament_id: str, name: str) -> Entry:
        """Enter a bot: the house pays its buy-in and fee."""
        entry = await self._enter(tournament_id, bot_key(name), await self.house(), name)
        self._remember(tournament_id, bot_key(name), None, "", name)
        return entry

    async def _enter(self, tournament_id: str, player: str, payer: int, name: str) -> Entry:
        async with self._changing(tournament_id):
            work = self.copy(tournament_id)
            entry = work.register(player, rng=self.rng)
            rules = work.rules
            payment = Payment(payer, entry.id, name, rules.buy_in, rules.fee)
            await self.store.enter(tournament_id, payment, work.to_dict())
            self.players[tournament_id][player] = name
            self.tournaments[tournament_id] = work
            return entry

    async def unregister(self, tournament_id: str, user_id: int) -> Entry:
        """Withdraw a user before the start; their buy-in and fee come back."""
        async with self._changing(tournament_id):
            work = self.copy(tournament_id)
            entry = work.unregister(user_key(user_id))
            await self.store.refund(tournament_id, [entry.id], work.to_dict())
            self.tournaments[tournament_id] = work
            return entry

    async def cancel(self, tournament_id: str) -> list[Entry]:
        """Cancel before the start: every entry gets its buy-in and fee back."""
        async with self._changing(tournament_id):
            work = self.copy(tournament_id)
            refunded = work.cancel()
            await self.store.refund(tournament_id, [e.id for e in refunded], work.to_dict())
            self.tournaments[tournament_id] = work
            return refunded

    async def start_if_due(self, tournament_id: str) -> TournamentStatus:
        """Start the tournament if it is due (cancel it, refunded, if short of players);
        its status after."""
        t = self.get(tournament_id)
        if not t.due(self.now()):
            return t.status
        if len(t.entries) < t.rules.min_entrants:
            await self.cancel(tournament_id)
            return TournamentStatus.CANCELLED
        async with self._changing(tournament_id):
            work = self.copy(tournament_id)
            work.start(self.now(), rng=self.rng)
            await self.store.save(tournament_id, work.to_dict())
            self.tournaments[tournament_id] = work
            return work.status

    async def save(self, tournament_id: str, work: Tournament) -> None:
        """Store a changed copy of a running tournament and make it the live state."""
        async with self._changing(tournament_id):
            await self.store.save(tournament_id, work.to_dict())
            self.tournaments[tournament_id] = work

    async def settle(self, tournament_id: str) -> dict[str, int]:
        """Pay a finished tournament's prizes from its pool; entry id to prize."""
        async with self._changing(tournament_id):
            t = self.get(tournament_id)  # a second caller finds it gone: nothing is paid twice
            if t.status is not TournamentStatus.FINISHED:
                raise WrongTournamentState(f"expected finished, got {t.status.value}")
            won = t.awards()
            places = {f.player: f.place for f in t.results()}
            await self.store.settle(tournament_id, places, won, t.to_dict())
            del self.tournaments[tournament_id]
            self._deals.pop(tournament_id, None)
            self._clock_saved.pop(tournament_id, None)
            return won

    # ---- play (called by the tournament's tables) ------------------------------------

    async def begin_hand(
        self, tournament_id: str, table: int, stacks: dict[int, int], absent: frozenset[int]
    ) -> Stakes | None:
        """Let ``table`` deal these seats now (None: not now) and say at what stakes;
        ``absent`` are the seats of players sitting out. No hand starts while a deal is
        put to the players; the first hand after it lapsed clears it."""
        async with self._locks[tournament_id]:
            t = self.tournaments.get(tournament_id)
            if t is None or not t.can_deal(table) or t.stacks(table) != stacks:
                return None
            vote = self._deals.get(tournament_id)
            if vote is not None and vote.holding(self.now()):
                return None
            self._deals.pop(tournament_id, None)
            t.hand_started(table)
            for seat, entry in t.tables[table].seats.items():
                t.entries[entry].absent = seat in absent
            return t.clock().level.stakes()

    async def hand_ended(
        self, tournament_id: str, table: int, stacks: dict[int, int], button: int,
        commit: Commit,
    ) -> HandOutcome:
        """Record a hand's result at ``table`` (busts, moves, maybe the end): the new
        standings are stored by ``commit``, the table's transaction with the hand, and
        become the live state once it succeeds. A hand the tournament does not wait for
        is committed alone and changes nothing here."""
        async with self._locks[tournament_id]:
            try:
                await self._confirm(tournament_id)
            except StorageUnavailable as error:
                # The table hears it as from a commit the database could not take (it
                # stores nothing, whenever the database answers again): it goes back to
                # what it stored and ends the hand again once the database is back.
                await commit((_raising(error),))
                raise
            live = self.tournaments.get(tournament_id)
            if live is None or table not in live.in_hand:
                await commit(())
                return HandOutcome((), (), live is None
                                   or live.status is TournamentStatus.FINISHED)
            work = self.copy(tournament_id)
            try:
                outcome = work.hand_finished(table, stacks, button=button, rng=self.rng)
            except WrongTournamentState:
                # Never expected; the table's seats follow the standings again next hand.
                log.exception("tournament %s: the result of table %d does not fit",
                              tournament_id, table)
                live.hand_voided(table)
                await commit(())
                return HandOutcome((), (), False)
            try:
                await commit((self.store.writing(tournament_id, work.to_dict()),))
            except Exception as error:
                # The table's refusal when the database did not answer (its cause the
                # driver's error): the database may have stored it all the same.
                if isinstance(error, ServiceUnavailable):
                    self._unconfirmed[tournament_id] = _Unconfirmed(table, work, outcome)
                raise
            self.tournaments[tournament_id] = work
            return outcome

    async def tick(self, tournament_id: str) -> None:
        """Move a running tournament's clock on to now; store it when the level changes
        and every few seconds, so a crash loses at most that much of the clock."""
        async with self._changing(tournament_id):
            work = self.copy(tournament_id)
            before = work.clock().index
            now = self.now()
            work.tick(now)
            if work.clock().index != before or now - self._clock_saved.get(
                    tournament_id, 0.0) >= CLOCK_SAVE_SECONDS:
                await self.store.save(tournament_id, work.to_dict())
                self._clock_saved[tournament_id] = now
            self.tournaments[tournament_id] = work

    async def agree_to_deal(self, tournament_id: str, user_id: int) -> DealVote:
        """A player still in agrees to split the prizes left by ICM (see
        :mod:`app.tournaments.deals`); the vote as it stands. When it is ``done`` the
        tournament is finished with the deal."""
        async with self._changing(tournament_id):
            vote = deals.agree(self.get(tournament_id), self._deals.get(tournament_id),
                               user_key(user_id), now=self.now())
            self._deals[tournament_id] = vote
            if vote.done:
                work = self.copy(tournament_id)
                work.accept_deal()
                await self.store.save(tournament_id, work.to_dict())
                self.tournaments[tournament_id] = work
                del self._deals[tournament_id]
            return vote

    def unconfirmed(self, tournament_id: str) -> bool:
        """Whether a hand's result may be stored but is not live: the standings in memory
        may be stale until the next change reads the stored row."""
        return tournament_id in self._unconfirmed

    async def confirmed(self, tournament_id: str) -> dict[int, HandOutcome]:
        """The results of hands found stored although their commit seemed to fail, by
        table, each given once: what the tables they moved, busted or finished still
        have to hear (after reading the stored row, if a commit's fate is unknown)."""
        async with self._changing(tournament_id):
            return self._confirmed.pop(tournament_id, {})

    @asynccontextmanager
    async def _changing(self, tournament_id: str) -> AsyncIterator[None]:
        """One change to a tournament at a time, made on what the database holds: a hand's
        result whose commit's answer was lost is first found stored or not (raising what
        reading raised, so nothing is written from standings that may be stale)."""
        async with self._locks[tournament_id]:
            await self._confirm(tournament_id)
            yield

    async def _confirm(self, tournament_id: str) -> None:
        """Find a hand's result whose commit's answer was lost stored or not; make it live
        if it is (under the tournament's lock)."""
        unconfirmed = self._unconfirmed.get(tournament_id)
        if unconfirmed is None:
            return
        stored = await self.store.stored(tournament_id)
        del self._unconfirmed[tournament_id]
        work = unconfirmed.work
        if stored is not None and Tournament.from_dict(stored.state).to_dict() == work.to_dict():
            log.warning("tournament %s: the result of table %d was stored although its "
                        "commit seemed to fail", tournament_id, unconfirmed.table)
            self.tournaments[tournament_id] = work
            self._confirmed[tournament_id][unconfirmed.table] = unconfirmed.outcome

    def copy(self, tournament_id: str) -> Tournament:
        """A working copy of a tournament to change (and then store, as each change here
        does, or give to :meth:`save`)."""
        live = self.get(tournament_id)
        work = Tournament.from_dict(live.to_dict())
        work.clock_at = live.clock_at
        return work

    # ---- the lobby's view -----------------------------------------------------------

    def summary(self, tournament_id: str) -> dict[str, Any]:
        """A tournament as the lobby lists it."""
        t = self.get(tournament_id)
        return {
            "id": tournament_id, "name": self.names[tournament_id],
            "kind": t.rules.kind.value, "game": t.rules.game.value, "status": t.status.value,
            "buy_in": t.rules.buy_in, "fee": t.rules.fee, "entrants": len(t.entries),
            "players_left": t.players_left, "capacity": t.rules.capacity,
            "prize_pool": t.pool, "starts_at": t.rules.starts_at,
            "late_registration": t.status is TournamentStatus.RUNNING
            and t.late_registration_open,
        }

    def listing(self) -> list[dict[str, Any]]:
        """Every registering or running tournament, soonest start first."""
        live = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
        return sorted((self.summary(i) for i, t in self.tournaments.items() if t.status in live),
                      key=lambda s: (s["status"] != "registering", s["starts_at"] or 0, s["name"]))
