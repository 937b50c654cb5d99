"""``/admin/economy``: where credits come from and where they go, day by day.

The faucets are the credits granted (sign-up grants, daily credits, admins' grants and
the house's funding); the sinks are the rake the house takes from raked tables and the
tournament fees; admins' removals and closed accounts take credits away too. Beside them,
the bots' result at cash tables: what the house's bots won (negative: lost), their stacks'
change hand by hand (a pot a bot won paid its rake first; the rake is counted apart).
Every figure comes from the ledger's entries and the stored hands, by the UTC day they
were written.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.dependencies import DbSession
from app.db.models import LedgerEntry, LedgerReason, utcnow
from app.db.tables import HandPlayer, HandRecord, TableRecord

router = APIRouter(tags=["admin"])
MAX_DAYS = 90


class EconomyDay(BaseModel):
    """One UTC day's credits in and out, all in credits."""

    day: date
    rake: int = Field(0, description="Rake the house took from raked tables' pots")
    raked_hands: int = Field(0, description="Hands that paid rake")
    tournament_fees: int = Field(0, description="Tournament fees paid, less those refunded")
    daily_credits: int = Field(0, description="Daily credits claimed")
    signup_grants: int = Field(0, description="Credits given to new accounts")
    admin_grants: int = Field(0, description="Credits admins added to accounts")
    admin_removals: int = Field(0, description="Credits admins took from accounts")
    house_funding: int = Field(0, description="Credits given to the house's bankroll")
    accounts_closed: int = Field(0, description="Credits removed with deleted accounts")
    bots_result: int = Field(0, description="What the bots won (negative: lost) at cash "
                                            "tables: their stacks' change, the rake apart")


class EconomyPublic(BaseModel):
    """The last ``days`` UTC days, newest first, and their totals."""

    days: list[EconomyDay]
    totals: EconomyDay = Field(description="The period's sums (``day``: its first day)")


# Each ledger reason's column, and the sign that makes it a positive figure.
_LEDGER_COLUMNS: dict[LedgerReason, tuple[str, int]] = {
    LedgerReason.RAKE: ("rake", 1),
    LedgerReason.TOURNAMENT_FEE: ("tournament_fees", -1),
    LedgerReason.DAILY_CREDITS: ("daily_credits", 1),
    LedgerReason.SIGNUP_GRANT: ("signup_grants", 1),
    LedgerReason.HOUSE_FUNDING: ("house_funding", 1),
    LedgerReason.ACCOUNT_CLOSED: ("accounts_closed", -1),
}


def _day(column: Any, dialect: str) -> Any:
    """The UTC date of a stored timestamp, as the database computes it."""
    if dialect == "postgresql":
        return func.to_char(func.timezone("UTC", column), "YYYY-MM-DD")
    return func.substr(func.datetime(column), 1, 10)  # SQLite stores UTC, naive


async def _ledger(session: AsyncSession, since: datetime, dialect: str
                  ) -> dict[str, dict[str, int]]:
    day = _day(LedgerEntry.created_at, dialect)
    positive = LedgerEntry.amount > 0
    rows = await session.execute(
        select(day, LedgerEntry.reason, positive, func.sum(LedgerEntry.amount), func.count())
        .where(LedgerEntry.created_at >= since,
               LedgerEntry.reason.in_([*_LEDGER_COLUMNS, LedgerReason.ADMIN_ADJUSTMENT]))
        .group_by(day, LedgerEntry.reason, positive))
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for when, reason, up, total, count in rows:
        figures = out[str(when)]
        if reason == LedgerReason.ADMIN_ADJUSTMENT:
            figures["admin_grants" if up else "admin_removals"] += abs(int(total))
            continue
        name, sign = _LEDGER_COLUMNS[LedgerReason(reason)]
        figures[name] += sign * int(total)
        if reason == LedgerReason.RAKE:
            figures["raked_hands"] += int(count)
    return out


async def _bots(session: AsyncSession, since: datetime, dialect: str) -> dict[str, int]:
    """What the bots won per day: a cash hand's chips end with its seats and the house's
    rake, so the bots' result is minus the people's and the rake (0 in a hand without
    bots)."""
    day = _day(HandRecord.ended_at, dialect)
    cash = (HandRecord.ended_at >= since, TableRecord.tournament_id.is_(None))
    people = await session.execute(
        select(day, func.sum(HandPlayer.net))
        .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
        .join(TableRecord, TableRecord.id == HandRecord.table_id)
        .where(*cash).group_by(day))
    raked = await session.execute(
        select(day, func.sum(HandRecord.rake))
        .join(TableRecord, TableRecord.id == HandRecord.table_id)
        .where(*cash, HandRecord.rake != 0).group_by(day))
    out: dict[str, int] = defaultdict(int)
    for when, net in people:
        out[str(when)] -= int(net or 0)
    for when, rake in raked:
        out[str(when)] -= int(rake or 0)
    return out


async def economy(session: AsyncSession, days: int, *, now: datetime | None = None
                  ) -> EconomyPublic:
    """The report of the last ``days`` UTC days (today included), newest first."""
    today = (now or utcnow()).date()
    first = today - timedelta(days=days - 1)
    since = datetime.combine(first, time(), tzinfo=UTC)
    dialect = session.get_bind().dialect.name
    ledger_days = await _ledger(session, since, dialect)
    bots = await _bots(session, since, dialect)
    rows = []
    for offset in range(days):
        day = today - timedelta(days=offset)
        key = day.isoformat()
        rows.append(EconomyDay(day=day, **ledger_days.get(key, {}),
                               bots_result=bots.get(key, 0)))
    names = [n for n in EconomyDay.model_fields if n != "day"]
    totals = EconomyDay(day=first, **{n: sum(getattr(r, n) for r in rows) for n in names})
    return EconomyPublic(days=rows, totals=totals)


@router.get("/economy")
async def read_economy(
    session: DbSession,
    days: Annotated[int, Query(ge=1, le=MAX_DAYS, description="How many days, today "
                                                            "included")] = 7,
) -> EconomyPublic:
    """Rake, tournament fees, credits granted and removed, and the bots' results, per UTC
    day."""
    return await economy(session, days)
