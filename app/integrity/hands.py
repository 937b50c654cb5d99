"""The stored hands an integrity report reads, as plain data.

Only cash tables' hands count: tournament chips are not credits. Each hand gives every
seat's net result (bots' seats too), which seats people held, its betting actions (read
from its PHH text) and the decision times kept in its summary.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.integrity.signals import Action

BATCH = 500
_CODES = frozenset({"f", "cc", "cbr"})


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One stored hand at a cash table."""

    hand_id: str
    table_id: str
    big_blind: int
    started_at: datetime
    ended_at: datetime
    nets: dict[int, int]  # every seat's result, by seat
    people: dict[int, int]  # the user id of each seat a person held
    summary: dict[str, Any]
    phh: str

    def decisions(self) -> list[tuple[int, float]]:
        """``(user id, seconds)`` of each timed decision a person made."""
        return [(self.people[int(seat)], float(seconds))
                for seat, seconds in self.summary.get("decisions") or ()
                if int(seat) in self.people]

    def actions(self) -> list[Action]:
        """The betting actions, by table seat and street (read from the PHH text)."""
        data = tomllib.loads(self.phh)
        seats = [int(s) - 1 for s in data.get("seats") or ()]
        street, out = 0, []
        for line in data.get("actions") or ():
            words = str(line).split()
            if words[:2] == ["d", "db"]:
                street += 1
            elif len(words) >= 2 and words[0].startswith("p") and words[1] in _CODES:
                position = int(words[0][1:]) - 1
                if 0 <= position < len(seats):
                    out.append(Action(street, seats[position], words[1]))
        return out


def _hand(record: HandRecord, people: dict[int, int]) -> PlayedHand:
    summary = record.summary or {}
    nets = {int(row["seat"]): int(row["net"]) for row in summary.get("players") or ()}
    big_blind = int((summary.get("stakes") or {}).get("big_blind") or 0)
    return PlayedHand(record.id, record.table_id, big_blind, record.started_at,
                      record.ended_at, nets, people, summary, record.phh)


async def played_hands(session: AsyncSession, *, since: datetime,
                       user_id: int | None = None) -> AsyncIterator[PlayedHand]:
    """Every cash table's hand that ended since ``since`` (only those ``user_id`` played,
    when given), oldest first, read a batch at a time."""
    after: tuple[datetime, str] | None = None
    while True:
        query = (select(HandRecord).join(TableRecord, TableRecord.id == HandRecord.table_id)
                 .where(TableRecord.tournament_id.is_(None), HandRecord.ended_at >= since)
                 .order_by(HandRecord.ended_at, HandRecord.id).limit(BATCH))
        if user_id is not None:
            query = query.where(HandRecord.id.in_(
                select(HandPlayer.hand_id).where(HandPlayer.user_id == user_id,
                                                 HandPlayer.ended_at >= since)))
        if after is not None:
            query = query.where(tuple_(HandRecord.ended_at, HandRecord.id) > after)
        records = list(await session.scalars(query))
        if not records:
            return
        seats: dict[str, dict[int, int]] = defaultdict(dict)
        rows = await session.execute(select(HandPlayer.hand_id, HandPlayer.seat,
                                            HandPlayer.user_id)
                                     .where(HandPlayer.hand_id.in_([r.id for r in records])))
        for hand_id, seat, person in rows:
            seats[hand_id][int(seat)] = int(person)
        for record in records:
            yield _hand(record, seats[record.id])
        after = (records[-1].ended_at, records[-1].id)
