"""Each finished hand's recorded results against the hand's own stored record.

The reconciling audit counts ``hand_players.net`` as what each person won or lost. A
change made consistently to a balance, its ledger entry and that row would reconcile
there; the hand's summary, written with it from the same finished hand, would not. So
every hand is checked against its summary:

- the summary adds up: each seat's ``final_stack - starting_stack`` is its ``net``, and
  the nets and the ``rake`` sum to zero (a hand moves chips between its seats, and its
  rake to the house, only);
- the people's rows in ``hand_players`` are exactly the summary's seats without a bot,
  each with the summary's ``net``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.tables import HandPlayer, HandRecord

BATCH = 500


@dataclass(frozen=True, slots=True)
class HandOff:
    """A finished hand whose recorded results disagree with its stored summary."""

    hand_id: str
    table_id: str
    problem: str


def _people_in(summary: Mapping[str, Any]) -> dict[int, int]:
    """Seat → net of each person (not bot) the summary lists."""
    return {int(row["seat"]): int(row["net"]) for row in summary.get("players", ())
            if not (row.get("player") or {}).get("bot")}


def summary_problem(summary: Mapping[str, Any]) -> str | None:
    """Why a hand's summary does not add up, or ``None`` when it does."""
    try:
        rows = [(int(r["seat"]), int(r["starting_stack"]), int(r["final_stack"]), int(r["net"]))
                for r in summary["players"]]
    except (KeyError, TypeError, ValueError):
        return "the summary has no readable seats"
    rake = summary.get("rake", 0)
    if isinstance(rake, bool) or not isinstance(rake, int) or rake < 0:
        return f"the summary's rake {rake!r} is not a whole number of chips"
    for seat, starting, final, net in rows:
        if final - starting != net:
            return f"seat {seat}: final {final} - starting {starting} is not its net {net}"
    total = sum(net for *_, net in rows)
    if total != -rake:
        expected = f"{-rake:+} (the rake)" if rake else "0"
        return f"the seats' nets sum to {total:+}, not {expected}"
    return None


def results_problem(recorded: Mapping[int, int], summary: Mapping[str, Any]) -> str | None:
    """Why ``hand_players`` (seat → net) differs from the summary's people, or ``None``."""
    expected = _people_in(summary)
    if recorded == expected:
        return None
    seat = min(set(recorded) ^ set(expected) or
               {s for s in recorded if recorded[s] != expected[s]})
    return (f"seat {seat}: hand_players says {recorded.get(seat, 'nothing')}, the hand's "
            f"summary {expected.get(seat, 'nothing')}")


async def _recorded(session: AsyncSession) -> dict[str, dict[int, int]]:
    rows = await session.execute(select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.net))
    recorded: dict[str, dict[int, int]] = defaultdict(dict)
    for hand_id, seat, net in rows:
        recorded[hand_id][int(seat)] = int(net)
    return recorded


async def hands_off(session: AsyncSession) -> list[HandOff]:
    """Every finished hand whose ``hand_players`` rows or summary do not reconcile."""
    recorded = await _recorded(session)
    off: list[HandOff] = []
    last = ""
    while True:  # a page of summaries at a time: the hands can be many
        page = (await session.execute(
            select(HandRecord.id, HandRecord.table_id, HandRecord.summary)
            .where(HandRecord.id > last).order_by(HandRecord.id).limit(BATCH))).all()
        for hand_id, table_id, summary in page:
            people = recorded.pop(hand_id, {})
            problem = summary_problem(summary) or results_problem(people, summary)
            if problem is not None:
                off.append(HandOff(hand_id, table_id, problem))
        if len(page) < BATCH:
            break
        last = page[-1].id
    # Rows of hands that are not stored cannot come from a finished hand.
    off.extend(HandOff(hand_id, "unknown", "hand_players rows without a stored hand")
               for hand_id in sorted(recorded))
    return off
