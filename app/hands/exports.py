"""Stored hands exported for trackers: PokerStars text or Open Hand History, one hand or a
date range, as plain text or a zip of one file per table.

A player reads a hand as they saw it at the table: their own hole cards and the hands
shown at the showdown, never a folded or mucked hand of another player. An admin who was
not dealt in reads the server's record, every hole card, as the PHH route gives it.
"""

from __future__ import annotations

import asyncio
import io
import re
import tomllib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import __version__
from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.db.tournaments import TournamentEntryRecord, TournamentKind, TournamentRecord
from app.errors import HoldemError
from app.poker import ohh, pokerstars
from app.poker.hand_export import (
    ExportView,
    HandFacts,
    TournamentFacts,
    hand_number,
)
from app.poker.ohh import ohh_file, to_ohh
from app.poker.phh import replay
from app.poker.pokerstars import to_pokerstars
from app.poker.state import Stakes

#: The most hands one export holds, and the longest date range it covers.
MAX_EXPORT_HANDS = 5000
MAX_EXPORT_DAYS = 366


class ExportFormat(StrEnum):
    """The hand-history formats of an export."""

    POKERSTARS = "pokerstars"
    OHH = "ohh"


_GAMES = {ExportFormat.POKERSTARS: pokerstars.GAMES, ExportFormat.OHH: ohh.GAMES}


class Archive(StrEnum):
    """One text file, or a zip of one file per table."""

    TEXT = "text"
    ZIP = "zip"


class ExportRangeInvalid(HoldemError):
    """The date range is empty, reversed or longer than an export may cover."""

    code = "export_range_invalid"
    status = 422


class ExportTooLarge(HoldemError):
    """More hands in the range than one export holds: ask for a shorter range."""

    code = "export_too_large"
    status = 422


@dataclass(frozen=True, slots=True)
class ExportFile:
    """An export ready to send: its bytes, media type and file name, and how many hands of
    the range it leaves out (games the formats cannot write yet)."""

    content: bytes
    media_type: str
    filename: str
    left_out: int = 0
    hands: int = 0


@dataclass(frozen=True, slots=True)
class _Setting:
    """What a hand's export needs beyond its record: its table and tournament."""

    table: TableRecord | None
    tournament: TournamentRecord | None
    entries: Sequence[TournamentEntryRecord]


# ---- one hand ---------------------------------------------------------------------------


async def hand_text(
    session: AsyncSession, hand: HandRecord, player: HandPlayer | None, fmt: ExportFormat
) -> str:
    """One hand in ``fmt`` as this reader may see it (``player`` None: every card)."""
    setting = await _setting(session, hand.table_id, player.user_id if player else None)
    return _render([_view(hand, player, setting)], fmt)


# ---- a date range ------------------------------------------------------------------------


def check_range(since: datetime, until: datetime) -> tuple[datetime, datetime]:
    """The range in UTC (a time without a zone is UTC), or :class:`ExportRangeInvalid`."""
    since, until = (t if t.tzinfo else t.replace(tzinfo=UTC) for t in (since, until))
    if since >= until:
        raise ExportRangeInvalid(f"expected since before until, got {since.isoformat()} and "
                                 f"{until.isoformat()}")
    if until - since > timedelta(days=MAX_EXPORT_DAYS):
        raise ExportRangeInvalid(f"expected a range of at most {MAX_EXPORT_DAYS} days, got "
                                 f"{(until - since).days}", max_days=MAX_EXPORT_DAYS)
    return since, until


async def export_hands(
    session: AsyncSession, user_id: int, *, since: datetime, until: datetime,
    fmt: ExportFormat, archive: Archive,
) -> ExportFile:
    """Every hand ``user_id`` was dealt into that ended in ``[since, until)``, oldest first,
    as they saw them (hands of a game the formats cannot write yet are left out and
    counted); :class:`ExportTooLarge` past :data:`MAX_EXPORT_HANDS`."""
    since, until = check_range(since, until)
    where = (HandPlayer.user_id == user_id, HandPlayer.ended_at >= since,
             HandPlayer.ended_at < until)
    count = int(await session.scalar(select(func.count()).select_from(HandPlayer)
                                     .where(*where)) or 0)
    if count > MAX_EXPORT_HANDS:
        raise ExportTooLarge(f"{count} hands in that range, more than the {MAX_EXPORT_HANDS} "
                             f"one export holds: ask for a shorter range",
                             count=count, max=MAX_EXPORT_HANDS)
    rows = (await session.execute(
        select(HandRecord, HandPlayer).join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .where(*where).order_by(HandPlayer.ended_at, HandRecord.id))).all()
    settings: dict[str, _Setting] = {}
    for hand, _ in rows:
        if hand.table_id not in settings:
            settings[hand.table_id] = await _setting(session, hand.table_id, user_id)
    stem = f"hands-{since:%Y%m%d}-{until:%Y%m%d}"
    # Replaying and writing thousands of hands is CPU work: off the event loop.
    return await asyncio.to_thread(_package, [(h, p) for h, p in rows], settings, fmt,
                                   archive, stem)


def _package(rows: list[tuple[HandRecord, HandPlayer]], settings: dict[str, _Setting],
             fmt: ExportFormat, archive: Archive, stem: str) -> ExportFile:
    by_table: dict[str, list[ExportView]] = {}
    left_out = 0
    games = _GAMES[fmt]
    for hand, player in rows:
        view = _view(hand, player, settings[hand.table_id])
        if view.hand.game.value not in games:
            left_out += 1  # an Omaha hand does not stop the Hold'em hands around it
            continue
        by_table.setdefault(hand.table_id, []).append(view)
    suffix = "txt" if fmt is ExportFormat.POKERSTARS else "ohh"
    if archive is Archive.TEXT:
        views = sorted((v for vs in by_table.values() for v in vs),
                       key=lambda v: v.facts.started_at)
        return ExportFile(_render(views, fmt).encode(), "text/plain; charset=utf-8",
                          f"{stem}.{suffix}", left_out, len(views))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for table_id, views in sorted(by_table.items()):
            table = settings[table_id].table
            name = _ascii(table.name if table else "table")
            zf.writestr(f"{name}-{table_id[:8]}.{suffix}", _render(views, fmt))
    return ExportFile(buffer.getvalue(), "application/zip", f"{stem}.zip", left_out,
                      sum(len(views) for views in by_table.values()))


def _ascii(name: str) -> str:
    """A file name part of ASCII letters, digits, dashes and underscores only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", name).strip("_") or "table"


def _render(views: Sequence[ExportView], fmt: ExportFormat) -> str:
    if fmt is ExportFormat.OHH:
        return ohh_file(to_ohh(v, internal_version=__version__) for v in views)
    return "\n\n".join(to_pokerstars(v) for v in views)


# ---- from records to a view ------------------------------------------------------------


async def _setting(session: AsyncSession, table_id: str, user_id: int | None) -> _Setting:
    table = await session.get(TableRecord, table_id)
    tournament_id = table.tournament_id if table else None
    if tournament_id is None:
        return _Setting(table, None, ())
    tournament = await session.get(TournamentRecord, tournament_id)
    entries = (await session.scalars(
        select(TournamentEntryRecord).where(
            TournamentEntryRecord.tournament_id == tournament_id,
            TournamentEntryRecord.user_id == user_id)
        .order_by(TournamentEntryRecord.id))).all() if user_id is not None else []
    return _Setting(table, tournament, entries)


def _view(hand: HandRecord, player: HandPlayer | None, setting: _Setting) -> ExportView:
    data = tomllib.loads(hand.phh)
    full = replay(hand.phh).hand
    seats = [int(s) for s in data.get("seats") or range(1, len(full.seats) + 1)]
    names = [str(n) for n in data.get("players") or [f"Seat {s}" for s in seats]]
    viewer = seats.index(player.seat + 1) if player is not None else None
    table = setting.table
    facts = HandFacts(
        number=hand_number(hand.id), table_name=table.name if table else hand.table_id,
        table_size=int(table.config.get("seats", len(seats))) if table else len(seats),
        started_at=hand.started_at, names=tuple(names), seats=tuple(seats),
        tournament=_tournament(setting, hand), stakes=_stakes(hand.summary),
    )
    return ExportView(full, facts, viewer)


def _stakes(summary: dict[str, Any]) -> Stakes | None:
    """The table's stakes the summary recorded (a bomb pot's PHH names no small blind)."""
    try:
        return Stakes.from_dict(summary["stakes"])
    except (KeyError, TypeError, HoldemError):
        return None


def _tournament(setting: _Setting, hand: HandRecord) -> TournamentFacts | None:
    record = setting.tournament
    if record is None:
        return None
    rules: dict[str, Any] = record.state.get("rules", {})
    structure: dict[str, Any] = rules.get("structure", {})
    entry = next((e for e in reversed(setting.entries) if e.created_at <= hand.started_at),
                 None)
    return TournamentFacts(
        number=hand_number(record.id), name=record.name, buy_in=record.buy_in, fee=record.fee,
        level=_level(structure, hand.summary.get("stakes", {})),
        starting_stack=structure.get("starting_stack"),
        sit_and_go=record.kind is TournamentKind.SIT_AND_GO,
        place=entry.place if entry else None, prize=entry.prize if entry else None,
    )


def _level(structure: dict[str, Any], stakes: dict[str, Any]) -> int | None:
    """The level (from 1) whose blinds and ante the hand was dealt at, if the structure has it."""
    levels = [p for p in structure.get("periods", []) if p.get("kind") == "level"]
    wanted = (stakes.get("small_blind"), stakes.get("big_blind"), stakes.get("ante", 0),
              bool(stakes.get("big_blind_ante", False)))
    for number, p in enumerate(levels, 1):
        if (p.get("small_blind"), p.get("big_blind"), p.get("ante", 0),
                bool(p.get("big_blind_ante", False))) == wanted:
            return number
    return None

