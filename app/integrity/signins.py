"""Sign-in records and linked accounts.

Every sign-up and login stores the client's address (as the server derives it: behind a
proxy only from ``FORWARDED_ALLOW_IPS``), a device mark and the browser's user agent.
The device mark is the SHA-256 of a long-lived random HttpOnly cookie
(:data:`DEVICE_COOKIE`); the cookie itself is never stored. Records are kept for
``SIGN_IN_RECORD_DAYS`` days (:func:`prune`) and deleted with the account.

Two accounts are *linked* when their records within the kept window share an address or
a device mark. A loopback address (a proxy whose forwarded address is not believed) and
an unknown one link nobody.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.integrity import ADDRESS_LENGTH, AGENT_LENGTH, SignInKind, SignInRecord
from app.db.models import utcnow
from app.integrity.errors import LinkedAccountSeated

DEVICE_COOKIE = "holdem_device"
DEVICE_COOKIE_SECONDS = 400 * 86_400  # the longest a browser keeps a cookie
_DEVICE_TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")


def new_device_token() -> str:
    """A fresh device cookie value (256 random bits)."""
    return secrets.token_urlsafe(32)


def valid_device_token(value: str | None) -> str | None:
    """``value`` when it is a device cookie this server could have set, else None.

    >>> valid_device_token("x" * 43) == "x" * 43, valid_device_token("short")
    (True, None)
    """
    return value if value is not None and _DEVICE_TOKEN.match(value) else None


def device_mark(token: str) -> str:
    """What is stored of a device cookie: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Seen:
    """Where a sign-up or login came from: address, device mark and user agent."""

    address: str
    device: str
    user_agent: str

    def record(self, session: AsyncSession, user_id: int, kind: SignInKind) -> None:
        """Add the record of ``user_id``'s sign-up or login (the caller commits)."""
        session.add(SignInRecord(user_id=user_id, kind=kind,
                                 address=self.address[:ADDRESS_LENGTH], device=self.device,
                                 user_agent=self.user_agent[:AGENT_LENGTH],
                                 created_at=utcnow()))


async def prune(session: AsyncSession, *, days: int, now: datetime) -> int:
    """Delete the records older than ``days`` days (the caller commits); how many."""
    result = await session.execute(
        delete(SignInRecord).where(SignInRecord.created_at < now - timedelta(days=days)))
    return int(getattr(result, "rowcount", 0) or 0)


async def forget(session: AsyncSession, user_id: int) -> None:
    """Delete every record of an account (it is being deleted; the caller commits)."""
    await session.execute(delete(SignInRecord).where(SignInRecord.user_id == user_id))


@dataclass(frozen=True, slots=True)
class Link:
    """Another account linked to one: by what (``address`` or ``device``), how many of
    their records share it, and when one was last made."""

    user_id: int
    by: str
    times: int
    last_seen: datetime


def _shared(mine: type[SignInRecord], theirs: type[SignInRecord],
            by: str) -> ColumnElement[bool]:
    if by == "device":
        return mine.device == theirs.device
    return (mine.address == theirs.address) & ~mine.address.in_(("unknown",)) & \
        ~mine.address.startswith("127.") & (mine.address != "::1")


async def linked_accounts(session: AsyncSession, user_id: int, *, since: datetime,
                          among: Collection[int] | None = None) -> list[Link]:
    """The accounts linked to ``user_id`` by records made since ``since`` (only those in
    ``among`` when given), one :class:`Link` per account and kind of link, most recent
    first."""
    links: list[Link] = []
    for by in ("device", "address"):
        mine, theirs = aliased(SignInRecord), aliased(SignInRecord)
        query = (select(theirs.user_id, func.count(func.distinct(theirs.id)),
                        func.max(theirs.created_at))
                 .join(mine, _shared(mine, theirs, by))
                 .where(mine.user_id == user_id, theirs.user_id != user_id,
                        mine.created_at >= since, theirs.created_at >= since)
                 .group_by(theirs.user_id))
        if among is not None:
            query = query.where(theirs.user_id.in_(list(among)))
        for other, times, last in await session.execute(query):
            links.append(Link(int(other), by, int(times), last))
    return sorted(links, key=lambda link: (link.last_seen, link.user_id), reverse=True)


async def linked_pairs(session: AsyncSession, users: Collection[int], *, since: datetime
                       ) -> dict[tuple[int, int], set[str]]:
    """How the pairs among ``users`` are linked by records made since ``since``: each
    linked pair (lower id first) and the kinds of link (``device``, ``address``), read in
    one query per kind."""
    ids = sorted(set(users))
    linked: dict[tuple[int, int], set[str]] = {}
    for by in ("device", "address"):
        mine, theirs = aliased(SignInRecord), aliased(SignInRecord)
        query = (select(mine.user_id, theirs.user_id).distinct()
                 .join(theirs, _shared(mine, theirs, by))
                 .where(mine.user_id.in_(ids), theirs.user_id.in_(ids),
                        mine.user_id < theirs.user_id,
                        mine.created_at >= since, theirs.created_at >= since))
        for low, high in await session.execute(query):
            linked.setdefault((int(low), int(high)), set()).add(by)
    return linked


async def linked_among(session: AsyncSession, user_id: int, others: Collection[int], *,
                       days: int) -> tuple[int, ...]:
    """Which of ``others`` are linked to ``user_id`` within the last ``days`` days."""
    if not others:
        return ()
    links = await linked_accounts(session, user_id, since=utcnow() - timedelta(days=days),
                                  among=others)
    return tuple(sorted({link.user_id for link in links}))


def apart_from_linked(user_id: int, others: Collection[int], *, days: int
                      ) -> Callable[[AsyncSession], Awaitable[None]]:
    """A write, for the commit that seats ``user_id`` at a public cash table, refusing the
    seat (:class:`LinkedAccountSeated`, not saying who) when one of ``others`` (the people
    seated there) is linked to them within the last ``days`` days."""
    seated = tuple(others)

    async def check(session: AsyncSession) -> None:
        linked = await linked_among(session, user_id, seated, days=days)
        if linked:
            raise LinkedAccountSeated(
                "an account linked to yours (the same address or device) already plays at "
                "this table: choose another table", linked_ids=linked)

    return check
