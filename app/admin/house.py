"""``/admin/house``: the bots' bankroll — what it holds, what it has won or lost, funding it.

Bots buy in with the house account's credits (see :mod:`app.table.store`). The
house gets ``HOUSE_INITIAL_BANKROLL`` once, as a ``house_funding`` ledger entry, when its
account is created; after that only an admin adds to it (here or with ``holdem house
fund``), through the ledger and the audit log, so what players win from bots is always
credits the house really had. :mod:`app.table.bots` bounds what it risks per table.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.dependencies import AdminUser, DbSession
from app.accounts.schemas import LedgerEntryPublic, Strict
from app.admin.service import record
from app.admin.tables import Tables
from app.db import ledger
from app.db.models import TRANSFER_REASONS, LedgerEntry, LedgerReason, User
from app.db.tables import TableRecord, TableStatus
from app.table.state import TableState
from app.text import bounded

router = APIRouter(tags=["admin"])
GRANTS_SHOWN = 20


class HousePublic(BaseModel):
    """The house account: its balance, the bots' chips at tables, its grants and result."""

    user_id: int
    balance: int = Field(description="Credits the house holds, not at any table")
    at_tables: int = Field(description="The bots' stacks at open tables (house credits)")
    funded: int = Field(description="Every credit ever given to the house")
    result: int = Field(description="balance + at_tables - funded: what bots won (or lost), "
                                    "with the rake the house took")
    table_share: float = Field(
        description="HOUSE_TABLE_SHARE: bots sit at a table only while a full buy-in for "
                    "each bot seat there is at most this share of the house's bankroll")
    grants: list[LedgerEntryPublic] = Field(
        description=f"The latest {GRANTS_SHOWN} fundings, newest first: the initial "
                    "bankroll and every admin's")


class HouseFunding(Strict):
    """Credits to add to the house's bankroll, and why."""

    amount: Annotated[int, Field(gt=0, le=1_000_000_000)]
    reason: Annotated[str, Field(min_length=3, max_length=100), bounded(100, min_length=3)]


class HouseFunded(BaseModel):
    """The ledger entry written and the house's new balance."""

    entry: LedgerEntryPublic
    balance: int


async def bots_at_tables(session: AsyncSession) -> int:
    """The bots' chips at open cash tables, as last stored: credits of the house."""
    states = await session.scalars(select(TableRecord.state).where(
        TableRecord.status == TableStatus.OPEN, TableRecord.tournament_id.is_(None)))
    return sum(p.stack - p.paid_out for state in states
               for p in TableState.from_dict(state).players.values() if p.is_bot)


async def house_report(session: AsyncSession, house: int, *, table_share: float) -> HousePublic:
    """What the house holds, has been given and has won or lost."""
    balance = await session.scalar(select(User.balance).where(User.id == house))
    funded = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.user_id == house, LedgerEntry.reason.not_in(list(TRANSFER_REASONS))))
    grants = await session.scalars(
        select(LedgerEntry).where(LedgerEntry.user_id == house,
                                  LedgerEntry.reason == LedgerReason.HOUSE_FUNDING)
        .order_by(LedgerEntry.id.desc()).limit(GRANTS_SHOWN))
    at_tables = await bots_at_tables(session)
    balance, funded = int(balance or 0), int(funded or 0)
    return HousePublic(user_id=house, balance=balance, at_tables=at_tables, funded=funded,
                       result=balance + at_tables - funded, table_share=table_share,
                       grants=[LedgerEntryPublic.model_validate(g) for g in grants])


async def fund(session: AsyncSession, admin: User, house: int, data: HouseFunding) -> HouseFunded:
    """Credit the house (a ``house_funding`` entry) and log who did it; not committed."""
    entry = await ledger.credit(session, house, data.amount, reason=LedgerReason.HOUSE_FUNDING,
                                reference=data.reason)
    record(session, admin, "fund_house", None, amount=data.amount, reason=data.reason)
    return HouseFunded(entry=LedgerEntryPublic.model_validate(entry), balance=entry.balance_after)


@router.get("/house")
async def read_house(session: DbSession, tables: Tables) -> HousePublic:
    """The house's bankroll, the bots' chips at tables, its grants, and what bots have won."""
    house = await tables.services.store.house()
    return await house_report(session, house,
                              table_share=tables.services.settings.house_table_share)


@router.post("/house/credits")
async def fund_house(
    data: HouseFunding, admin: AdminUser, session: DbSession, tables: Tables
) -> HouseFunded:
    """Add credits to the house's bankroll (audit-logged)."""
    house = await tables.services.store.house()
    funded = await fund(session, admin, house, data)
    await session.commit()
    return funded
