"""The scan: chip flow, soft play and bot-like play over recent hands, raising flags.

Run periodically by :class:`app.integrity.watch.IntegrityWatch` and on demand by
``POST /admin/integrity/scan``. A flag is raised once per subject: not again while one is
open or was raised within the scanned days (see :func:`app.integrity.flags.raise_flag`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.integrity import FlagKind, IntegrityFlag
from app.integrity import signals, signins
from app.integrity.flags import raise_flag
from app.integrity.flow import HANDS_LISTED, PairFlow, add_hand
from app.integrity.hands import played_hands


@dataclass(slots=True)
class Findings:
    """What a pass over the hands gathered."""

    flows: dict[tuple[int, int], PairFlow] = field(default_factory=dict)
    shared: dict[tuple[int, int], signals.SharedPots] = field(default_factory=dict)
    times: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    hands: dict[int, list[tuple[datetime, datetime]]] = field(
        default_factory=lambda: defaultdict(list))
    recent: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))


async def gather(session: AsyncSession, *, since: datetime, user_id: int | None = None,
                 betting: bool = True) -> Findings:
    """Read the cash tables' hands since ``since`` (``betting``: their actions too, for
    soft play) into :class:`Findings`."""
    found = Findings()
    async for hand in played_hands(session, since=since, user_id=user_id):
        add_hand(found.flows, hand.hand_id, hand.big_blind, hand.nets, hand.people)
        if betting and len(hand.people) > 1:
            signals.add_shared_pots(found.shared, hand.hand_id, hand.actions(), hand.people)
        for person, seconds in hand.decisions():
            found.times[person].append(seconds)
        for person in hand.people.values():
            found.hands[person].append((hand.started_at, hand.ended_at))
            found.recent[person] = [*found.recent[person], hand.hand_id][-HANDS_LISTED:]
    return found


async def chip_flow(session: AsyncSession, *, since: datetime,
                    user_id: int | None = None) -> list[PairFlow]:
    """Every pair's flow since ``since`` (only pairs with ``user_id``, when given), the
    largest net first."""
    found = await gather(session, since=since, user_id=user_id, betting=False)
    pairs = [p for p in found.flows.values()
             if user_id is None or user_id in (p.low, p.high)]
    return sorted(pairs, key=lambda p: (-p.net, p.low, p.high))


def flow_evidence(pair: PairFlow, linked_by: set[str]) -> dict[str, object]:
    """A chip-dumping flag's evidence: the figures and the hands."""
    return {"from_user": pair.loser, "to_user": pair.winner, "net": pair.net,
            "net_bb": round(pair.net_bb, 1), "one_way": round(pair.one_way, 3),
            "hands": pair.hands, "hand_ids": list(pair.hand_ids),
            "linked_by": sorted(linked_by)}


async def _chip_dumping(session: AsyncSession, settings: Settings, found: Findings,
                        since: datetime, links_since: datetime) -> list[IntegrityFlag]:
    raised = []
    candidates = [pair for pair in found.flows.values()
                  if pair.one_way >= settings.chip_dump_one_way
                  and pair.net_bb >= settings.chip_dump_linked_big_blinds]
    linked = await signins.linked_pairs(
        session, {u for pair in candidates for u in (pair.low, pair.high)}, since=links_since)
    for pair in candidates:
        linked_by = linked.get((pair.low, pair.high), set())
        if pair.net_bb < settings.chip_dump_big_blinds and not linked_by:
            continue
        flag = await raise_flag(session, FlagKind.CHIP_DUMPING,
                                f"chip_dumping:{pair.loser}>{pair.winner}",
                                user_id=pair.winner, other_user_id=pair.loser,
                                evidence=flow_evidence(pair, linked_by), quiet_since=since)
        raised += [flag] if flag else []
    return raised


async def _soft_play(session: AsyncSession, settings: Settings, found: Findings,
                     since: datetime) -> list[IntegrityFlag]:
    raised = []
    for pots in signals.soft_play(found.shared.values(), min_hands=settings.soft_play_hands):
        flag = await raise_flag(session, FlagKind.SOFT_PLAY,
                                f"soft_play:{pots.low}-{pots.high}", user_id=pots.low,
                                other_user_id=pots.high,
                                evidence={"hands": pots.hands, "aggression": pots.aggression,
                                          "hand_ids": list(pots.hand_ids)},
                                quiet_since=since)
        raised += [flag] if flag else []
    return raised


async def _bot_like(session: AsyncSession, settings: Settings, found: Findings,
                    since: datetime) -> list[IntegrityFlag]:
    raised = []
    for person in sorted(set(found.times) | set(found.hands)):
        timed = signals.timing(found.times.get(person, []))
        session_ = signals.longest_session(found.hands.get(person, []))
        reasons = []
        if signals.robotic(timed, min_decisions=settings.bot_min_decisions,
                           max_spread=settings.bot_time_spread_seconds):
            reasons.append("decision_times")
        if session_ is not None and session_.hours >= settings.bot_session_hours:
            reasons.append("session_length")
        if not reasons:
            continue
        evidence = {"reasons": reasons, "decisions": timed.decisions, "mean": timed.mean,
                    "spread": timed.spread,
                    "session_hours": round(session_.hours, 2) if session_ else 0,
                    "session_hands": session_.hands if session_ else 0,
                    "hand_ids": list(found.recent.get(person, []))}
        flag = await raise_flag(session, FlagKind.BOT_LIKE, f"bot_like:{person}",
                                user_id=person, other_user_id=None, evidence=evidence,
                                quiet_since=since)
        raised += [flag] if flag else []
    return raised


async def scan(session: AsyncSession, settings: Settings, *, now: datetime
               ) -> list[IntegrityFlag]:
    """Raise the flags the last ``INTEGRITY_SCAN_DAYS`` days of hands call for (the
    caller commits); the new ones."""
    since = now - timedelta(days=settings.integrity_scan_days)
    found = await gather(session, since=since)
    links_since = now - timedelta(days=settings.sign_in_record_days)
    return [*await _chip_dumping(session, settings, found, since, links_since),
            *await _soft_play(session, settings, found, since),
            *await _bot_like(session, settings, found, since)]
