"""Claw-backs: credits moved, through the ledger, from an account flagged for chip dumping
to the account that fed it the chips, or to the house.

One claw-back is two ``clawback`` ledger entries with one reference (``flag:<id>``): the
amount taken from the offender and the same amount given, in the caller's transaction.
It never takes more than the offender's balance: chips at a table are not touched, and
what the balance does not hold is not owed later. :func:`unmatched` is the audit's check
that every claw-back's entries balance.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.models import LedgerEntry, LedgerReason, User


@dataclass(frozen=True, slots=True)
class ClawBack:
    """What a claw-back moved: from whom, to whom, how much (0: the balance was empty)."""

    from_user: int
    to_user: int
    amount: int
    reference: str


def reference_of(flag_id: int) -> str:
    """The reference a flag's claw-back entries share."""
    return f"flag:{flag_id}"


async def claw_back(session: AsyncSession, *, flag_id: int, offender: int, to_user: int,
                    wanted: int) -> ClawBack:
    """Move up to ``wanted`` credits from ``offender`` to ``to_user`` (the caller commits)."""
    balance = await session.scalar(
        select(User.balance).where(User.id == offender).with_for_update())
    amount = min(wanted, int(balance or 0))
    reference = reference_of(flag_id)
    if amount > 0:
        await ledger.debit(session, offender, amount, reason=LedgerReason.CLAWBACK,
                           reference=reference)
        await ledger.credit(session, to_user, amount, reason=LedgerReason.CLAWBACK,
                            reference=reference)
    return ClawBack(offender, to_user, amount, reference)


@dataclass(frozen=True, slots=True)
class ClawBackOff:
    """A claw-back whose entries do not balance: taken and given differ, or one side is
    missing."""

    reference: str
    taken: int
    given: int


async def unmatched(session: AsyncSession) -> list[ClawBackOff]:
    """Every claw-back reference whose taken and given entries differ."""
    rows = await session.execute(
        select(LedgerEntry.reference,
               func.sum(case((LedgerEntry.amount < 0, -LedgerEntry.amount), else_=0)),
               func.sum(case((LedgerEntry.amount > 0, LedgerEntry.amount), else_=0)))
        .where(LedgerEntry.reason == LedgerReason.CLAWBACK)
        .group_by(LedgerEntry.reference).order_by(LedgerEntry.reference))
    return [ClawBackOff(str(reference), int(taken), int(given))
            for reference, taken, given in rows if int(taken) != int(given)]
