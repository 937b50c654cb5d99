"""``/admin/house``: the bots' bankroll — what it holds, what it has won or lost, funding it.

Bots buy in with the house account's credits (see :mod:`app.realtime.store`).
Only an admin adds to that bankroll, through the ledger and the audit log, so
what players win from bots is always credits the house really had.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from app.accounts.dependencies import AdminUser, DbSession
from app.accounts.schemas import LedgerEntryPublic, Strict
from app.admin.service import record
from app.admin.tables import Tables
from app.db import ledger
from app.db.models import TRANSFER_REASONS, LedgerEntry, LedgerReason, User
from app.text import bounded

router = APIRouter(tags=["admin"])


class HousePublic(BaseModel):
    """The house account: its balance, the bots' chips at tables, and its result."""

    user_id: int
    balance: int = Field(description="Credits the house holds, not at any table")
    at_tables: int = Field(description="The bots' stacks at open tables (house credits)")
    funded: int = Field(description="Every credit ever given to the house")
    result: int = Field(description="balance + at_tables - funded: what bots won (or lost)")


class HouseFunding(Strict):
    """Credits to add to the house's bankroll, and why."""

    amount: Annotated[int, Field(gt=0, le=1_000_000_000)]
    reason: Annotated[str, Field(min_length=3, max_length=100), bounded(100, min_length=3)]


class HouseFunded(BaseModel):
    """The ledger entry written and the house's new balance."""

    entry: LedgerEntryPublic
    balance: int


@router.get("/house")
async def read_house(session: DbSession, tables: Tables) -> HousePublic:
    """The house's bankroll, the bots' chips at tables, and what bots have won or lost."""
    house = await tables.services.store.house()
    balance = await session.scalar(select(User.balance).where(User.id == house))
    funded = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.user_id == house, LedgerEntry.reason.not_in(list(TRANSFER_REASONS))))
    at_tables = sum(p.stack - p.paid_out for table in tables.tables.values()
                    if not table.closed and table.state.config.tournament is None
                    for p in table.state.players.values() if p.is_bot)
    balance, funded = int(balance or 0), int(funded or 0)
    return HousePublic(user_id=house, balance=balance, at_tables=at_tables, funded=funded,
                       result=balance + at_tables - funded)


@router.post("/house/credits")
async def fund_house(
    data: HouseFunding, admin: AdminUser, session: DbSession, tables: Tables
) -> HouseFunded:
    """Add credits to the house's bankroll (audit-logged)."""
    house = await tables.services.store.house()
    entry = await ledger.credit(session, house, data.amount, reason=LedgerReason.HOUSE_FUNDING,
                                reference=data.reason)
    record(session, admin, "fund_house", None, amount=data.amount, reason=data.reason)
    await session.commit()
    return HouseFunded(entry=LedgerEntryPublic.model_validate(entry), balance=entry.balance_after)
