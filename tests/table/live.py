"""One real table in this process, without sockets: a :class:`~app.table.table.Table`
over a real SQLite (or PostgreSQL) :class:`~app.table.store.TableStore`, an audience that
records every message and to whom it went, and a stacked deck.

Timers are real (the table's mailbox runs them on the event loop) but short: the
settings give tiny delays, and a test waits for the events they make, never for time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import func, select

from app.accounts.ratelimit import RateLimiter
from app.config import Settings
from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerReason, Role, User
from app.db.tables import HandRecord
from app.poker.events import ActionKind
from app.poker.state import Stakes
from app.table.acks import Acted, Sat, SeatAsked
from app.table.commands import Act, Command, Join, Sit
from app.table.state import TableConfig, TableState, Viewer
from app.table.store import TableStore
from app.table.table import Table, TableServices
from app.table.time_bank import TimeBank
from tests.poker.stacked_decks import Decks

BUY_IN = 200
CREDITS = 1_000
HOUSE_BANKROLL = 100_000
_numbers = itertools.count(1)


@dataclass(frozen=True)
class Delivery:
    """One message as it left the table: to sessions (``sid``) or to every session of a
    user (``user``)."""

    event: str
    data: dict[str, Any]
    sid: str | None = None
    user: int | None = None

    @property
    def kind(self) -> str | None:
        """The ``type`` of a ``table:event``'s event (None for other messages)."""
        if self.event != "table:event":
            return None
        return str(self.data["event"]["type"])


class RecordingAudience:
    """The table's audience: records every message, a ``table:batch`` as its messages."""

    def __init__(self) -> None:
        self.sent: list[Delivery] = []
        self.online: set[int] = set()

    async def send(self, event: str, data: dict[str, Any], sids: list[str]) -> None:
        """Record one message for these sessions."""
        messages = data["messages"] if event == "table:batch" else [
            {"event": event, "data": data}]
        for sid in sids:
            for message in messages:
                self.sent.append(Delivery(message["event"], message["data"], sid=sid))

    async def send_to_user(self, user_id: int, event: str, data: dict[str, Any]) -> None:
        """Record one message for every session of one user."""
        self.sent.append(Delivery(event, data, user=user_id))

    def is_connected(self, user_id: int) -> bool:
        """Whether the user has a session here (as the test says)."""
        return user_id in self.online

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The public ``table:event`` events of kind ``kind`` (every kind: None), each
        once, in order."""
        seen: dict[int, dict[str, Any]] = {}
        for delivery in self.sent:
            if delivery.event == "table:event" and (kind is None or delivery.kind == kind):
                seen.setdefault(int(delivery.data["seq"]), delivery.data["event"])
        return [seen[seq] for seq in sorted(seen)]

    def to(self, sid: str, user_id: int | None) -> list[Delivery]:
        """Everything session ``sid`` of ``user_id`` received."""
        return [d for d in self.sent
                if d.sid == sid or (user_id is not None and d.user == user_id)]

    async def wait_for(self, found: Callable[[], Any], *, timeout: float = 10.0) -> Any:
        """The first truthy ``found()``, checked as the table's messages arrive."""
        async with asyncio.timeout(timeout):
            while not (result := found()):
                await asyncio.sleep(0.005)
        return result


def quick(settings: Settings) -> Settings:
    """``settings`` with the table's delays made tiny (each test lengthens what it waits
    on)."""
    return dataclasses.replace(settings, hand_start_delay_seconds=0.01,
                               bot_delay_seconds=0.01, showdown_seconds=5.0,
                               run_it_twice_seconds=5.0, disconnect_grace_seconds=5.0,
                               sit_out_limit_seconds=60.0, seat_offer_seconds=60.0)


def config(**changes: Any) -> TableConfig:
    """A six-seat 1/2 table with 60 s to act and no time bank, as ``changes`` say."""
    base = TableConfig(name="in process", seats=6, stakes=Stakes(1, 2), min_buy_in=40,
                       max_buy_in=BUY_IN, action_seconds=60.0,
                       time_bank=TimeBank(seconds=0.0))
    return dataclasses.replace(base, **changes)


class LiveTable:
    """A started table and what a test drives it with."""

    def __init__(self, table: Table, audience: RecordingAudience, decks: Decks,
                 database: Database, store: TableStore) -> None:
        self.table = table
        self.audience = audience
        self.decks = decks
        self.database = database
        self.store = store

    @property
    def id(self) -> str:
        """The table's id."""
        return self.table.id

    async def person(self, name: str, credits: int = CREDITS) -> Viewer:
        """A new account holding ``credits``, connected."""
        number = next(_numbers)
        async with self.database.sessions() as session:
            user = User(email=f"{name.lower()}{number}@example.com",
                        display_name=f"{name}{number}", display_name_key=f"{name}{number}",
                        balance=0, public_id=f"public-{name.lower()}-{number}")
            session.add(user)
            await session.flush()
            await ledger.credit(session, user.id, credits,
                                reason=LedgerReason.ADMIN_ADJUSTMENT, reference="test")
            await session.commit()
            viewer = Viewer(user.id, user.public_id, user.display_name, Role.PLAYER)
        self.audience.online.add(viewer.user_id)
        return viewer

    async def ask(self, command: Command) -> Any:
        """Ask the table."""
        return await self.table.ask(command)

    async def sit(self, viewer: Viewer, seat: int, buy_in: int = BUY_IN) -> Sat | SeatAsked:
        """``viewer`` sits at ``seat`` from their session ``sid_of(viewer)``."""
        result: Sat | SeatAsked = await self.ask(Sit(sid_of(viewer), viewer, seat, buy_in))
        return result

    async def watch(self, viewer: Viewer | None, sid: str) -> None:
        """Watch the table from session ``sid``."""
        await self.ask(Join(sid, viewer))

    async def only_hand(self) -> str:
        """The id of the first hand, once dealt; no other is dealt after it (the table
        drains), so what a test reads after it ends is that hand's outcome."""
        hand_id = await self.hand_started(1)
        self.table.drain()
        return hand_id

    async def heads_up(self, *, drain: bool = False) -> tuple[Viewer, Viewer, str]:
        """Ann at seat 0 and Bob at seat 1, and the first hand's id once it is dealt
        (``drain``: no other is dealt after it, as :meth:`only_hand`)."""
        ann, bob = await self.person("Ann"), await self.person("Bob")
        await self.sit(ann, 0)
        await self.sit(bob, 1)
        hand_id = await (self.only_hand() if drain else self.hand_started())
        return ann, bob, hand_id

    async def hand_started(self, number: int = 1) -> str:
        """The id of hand ``number``, once it is dealt and its start was sent (so stored)."""
        def dealt() -> str | None:
            return next((str(d.data["hand_id"]) for d in self.audience.sent
                         if d.kind == "hand_started" and d.data["event"]["number"] == number),
                        None)

        hand_id: str = await self.audience.wait_for(dealt)
        return hand_id

    def actor(self) -> int | None:
        """The seat whose turn it is (None: nobody's)."""
        current = self.table.state.current
        return current.hand.actor if current is not None else None

    async def act(self, viewer: Viewer, kind: ActionKind, amount: int | None = None
                  ) -> Acted:
        """``viewer`` acts in the hand in play."""
        current = self.table.state.current
        assert current is not None
        result: Acted = await self.ask(Act(viewer, current.id, kind, amount))
        return result

    async def check_or_call_down(self, people: dict[int, Viewer]) -> None:
        """Play the hand in play to its end: each player checks or calls, shows last."""
        while (current := self.table.state.current) is not None and (
                seat := current.hand.actor) is not None:
            legal = {a.action for a in current.hand.legal_actions()}
            kind = next(k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW)
                        if k in legal)
            await self.act(people[seat], kind)

    def cashed_out(self, viewer: Viewer) -> dict[str, Any] | None:
        """The ``cashed_out`` notice ``viewer`` got, once the cash-out is stored."""
        return next((d.data for d in self.audience.sent
                     if d.user == viewer.user_id and d.event == "user:notice"
                     and d.data["kind"] == "cashed_out"), None)

    async def balance(self, viewer: Viewer) -> int:
        """``viewer``'s balance now."""
        async with self.database.sessions() as session:
            balance = await session.scalar(select(User.balance).where(
                User.id == viewer.user_id))
        return int(balance or 0)

    async def hands_stored(self) -> int:
        """How many finished hands of this table are stored."""
        async with self.database.sessions() as session:
            count = await session.scalar(select(func.count()).select_from(HandRecord).where(
                HandRecord.table_id == self.id))
        return int(count or 0)

    async def stored_state(self) -> dict[str, Any]:
        """The table's state as the database holds it."""
        record = await self.store.table(self.id)
        assert record is not None
        return record.state

    async def escrowed(self) -> int:
        """The credits the ledger holds at this table."""
        return await self.store.escrowed_at(self.id)


def sid_of(viewer: Viewer) -> str:
    """The one session each test person plays from."""
    return f"sid-{viewer.user_id}"


def holds_cards(delivery: Delivery, cards: Iterable[str]) -> bool:
    """Whether one of ``cards`` is written anywhere in what ``delivery`` carried."""
    text = orjson.dumps(delivery.data).decode()
    return any(f'"{card}"' in text for card in cards)


@asynccontextmanager
async def live_table(database: Database, settings: Settings, table_config: TableConfig
                     ) -> AsyncIterator[LiveTable]:
    """A started table of ``table_config``, stopped after."""
    store = TableStore(database, house_bankroll=HOUSE_BANKROLL)
    audience, decks = RecordingAudience(), Decks()
    services = TableServices(audience=audience, store=store, settings=settings,
                             limiter=RateLimiter(enabled=False), deck_factory=decks)
    table_id = f"live{next(_numbers)}"
    state = TableState(table_config)
    token = await store.create(table_id, None, table_config.to_dict(), state.to_dict(),
                               lease_owner="this-test")
    table = Table(table_id, state, services, lease=token)
    await table.start()
    try:
        yield LiveTable(table, audience, decks, database, store)
    finally:
        if not table.closed:
            await table.stop()

