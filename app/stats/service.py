"""Reading a viewer's counters about players, their results over hands, and their notes."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import User
from app.db.players import PlayerNote, PlayerStatsRow, counters_of
from app.db.tables import HandPlayer
from app.errors import HoldemError
from app.poker.player_stats import summary
from app.stats.schemas import (
    NoteColor,
    NotePublic,
    NoteUpdate,
    PlayerStatsPublic,
    ResultPoint,
)


class PlayerNotFound(HoldemError):
    """No player with this public id."""

    code = "player_not_found"
    status = 404


class NoteNotFound(HoldemError):
    """You wrote no note about this player."""

    code = "note_not_found"
    status = 404


class NoteEmpty(HoldemError):
    """A note with neither text nor a colour tag (delete it instead)."""

    code = "note_empty"
    status = 422


async def _user_ids(session: AsyncSession, public_ids: Sequence[str]) -> dict[str, int]:
    """The user id of each public id asked; :class:`PlayerNotFound` for one that is not."""
    rows = await session.execute(
        select(User.public_id, User.id).where(User.public_id.in_(set(public_ids))))
    found = {public_id: user_id for public_id, user_id in rows.all()}
    for public_id in public_ids:
        if public_id not in found:
            raise PlayerNotFound("no such player", public_id=public_id)
    return found


async def stats_about(session: AsyncSession, viewer_id: int, public_ids: Sequence[str]
                      ) -> list[PlayerStatsPublic]:
    """What ``viewer_id`` counted about each player asked, over the hands both were
    dealt into (about themselves: over every hand they were dealt into)."""
    ids = await _user_ids(session, public_ids)
    rows = await session.scalars(select(PlayerStatsRow).where(
        PlayerStatsRow.viewer_id == viewer_id, PlayerStatsRow.subject_id.in_(ids.values())))
    by_subject = {row.subject_id: row for row in rows}
    return [PlayerStatsPublic(public_id=public_id,
                              **summary(counters_of(by_subject.get(ids[public_id]))))
            for public_id in public_ids]


async def results_of(session: AsyncSession, user_id: int, *, limit: int) -> list[ResultPoint]:
    """A player's last ``limit`` hands, oldest first, each with the running total of the
    player's results up to it (counted over those hands), as played and all-in adjusted
    (a hand an all-in decided counts what its equity was worth)."""
    rows = await session.execute(
        select(HandPlayer.hand_id, HandPlayer.ended_at, HandPlayer.net, HandPlayer.all_in_net)
        .where(HandPlayer.user_id == user_id)
        .order_by(HandPlayer.ended_at.desc(), HandPlayer.hand_id.desc()).limit(limit))
    points: list[ResultPoint] = []
    total = adjusted_total = 0
    for hand_id, ended_at, net, all_in_net in reversed(rows.all()):
        adjusted = net if all_in_net is None else all_in_net
        total += net
        adjusted_total += adjusted
        points.append(ResultPoint(hand_id=hand_id, ended_at=ended_at, net=net, total=total,
                                  all_in_net=adjusted, all_in_total=adjusted_total))
    return points


def _note_public(note: PlayerNote, public_id: str) -> NotePublic:
    return NotePublic(public_id=public_id, text=note.text,
                      color=NoteColor(note.color) if note.color else None,
                      updated_at=note.updated_at)


async def notes_of(session: AsyncSession, author_id: int) -> list[NotePublic]:
    """Every note ``author_id`` wrote, most recent first."""
    rows = await session.execute(
        select(PlayerNote, User.public_id).join(User, User.id == PlayerNote.subject_id)
        .where(PlayerNote.author_id == author_id).order_by(PlayerNote.updated_at.desc()))
    return [_note_public(note, public_id) for note, public_id in rows.all()]


async def note_of(session: AsyncSession, author_id: int, public_id: str) -> NotePublic:
    """``author_id``'s note about a player, or :class:`NoteNotFound`."""
    subject = (await _user_ids(session, [public_id]))[public_id]
    note = await session.get(PlayerNote, (author_id, subject))
    if note is None:
        raise NoteNotFound("you wrote no note about this player", public_id=public_id)
    return _note_public(note, public_id)


async def write_note(session: AsyncSession, author_id: int, public_id: str,
                     update: NoteUpdate) -> NotePublic:
    """Write (or rewrite) ``author_id``'s note about a player."""
    text = update.text.strip()
    if not text and update.color is None:
        raise NoteEmpty("a note needs text or a colour tag; delete it to remove it")
    subject = (await _user_ids(session, [public_id]))[public_id]
    note = await session.get(PlayerNote, (author_id, subject))
    if note is None:
        note = PlayerNote(author_id=author_id, subject_id=subject)
        session.add(note)
    note.text = text
    note.color = update.color.value if update.color else None
    await session.commit()
    await session.refresh(note)
    return _note_public(note, public_id)


async def delete_note(session: AsyncSession, author_id: int, public_id: str) -> None:
    """Delete ``author_id``'s note about a player, or :class:`NoteNotFound`."""
    subject = (await _user_ids(session, [public_id]))[public_id]
    deleted = await session.execute(delete(PlayerNote).where(
        PlayerNote.author_id == author_id, PlayerNote.subject_id == subject))
    if not deleted.rowcount:  # type: ignore[attr-defined]
        raise NoteNotFound("you wrote no note about this player", public_id=public_id)
    await session.commit()
