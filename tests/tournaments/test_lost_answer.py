"""A hand's result whose commit's answer was lost (the database took it, or not, and the
connection dropped before saying which): the tournament writes nothing from standings
that may be stale, reads what is stored first, and makes the result live if it is
there; on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from app.db.engine import Database, StorageUnavailable
from app.table.store import Write
from app.tournaments.service import TournamentService
from app.tournaments.tournament import Tournament
from tests.tournaments.test_service import Clock, _three_seat_sit_and_go

# The database's being unreachable, as storage raises it (the driver's error its cause).
UNREACHABLE = StorageUnavailable


def _lost() -> StorageUnavailable:
    error = StorageUnavailable()
    error.__cause__ = OperationalError("COMMIT", {}, ConnectionResetError("connection reset"))
    return error


async def _commit(database: Database, writes: tuple[Write, ...]) -> None:
    async with database.sessions() as session:
        for write in writes:
            await write(session)
        await session.commit()


def _committing(database: Database, *, lands: bool) -> Any:
    """A table's commit of a hand that fails as its answer is lost, having stored the
    tournament's writes (``lands``) or not."""

    async def commit(writes: tuple[Write, ...]) -> None:
        if lands:
            await _commit(database, writes)
        raise _lost()

    return commit


async def _stored_stacks(service: TournamentService, tid: str) -> dict[int, int]:
    stored = await service.store.stored(tid)
    assert stored is not None
    return Tournament.from_dict(stored.state).stacks(1)


async def _a_hand_in_play(
    database: Database, clock: Clock
) -> tuple[TournamentService, str, dict[int, int], dict[int, int]]:
    """A sit & go with a hand in play at its table; its stacks now and after the hand."""
    service, tid, _ = await _three_seat_sit_and_go(database, clock)
    before = service.get(tid).stacks(1)
    assert await service.begin_hand(tid, 1, before, frozenset()) is not None
    loser, winner = sorted(before)[:2]
    after = {**before, loser: before[loser] - 50, winner: before[winner] + 50}
    return service, tid, before, after


async def test_a_result_stored_though_its_commit_seemed_to_fail_is_taken_not_overwritten(
    database: Database,
) -> None:
    clock = Clock()
    service, tid, before, after = await _a_hand_in_play(database, clock)
    with pytest.raises(UNREACHABLE):
        await service.hand_ended(tid, 1, after, 0, _committing(database, lands=True))
    assert service.unconfirmed(tid)
    assert service.get(tid).stacks(1) == before  # what memory holds may be stale now

    # The clock's next save reads the stored row first: it stores the hand's result
    # again, not the standings from before the hand.
    clock.now += 60
    await service.tick(tid)
    assert not service.unconfirmed(tid)
    live = service.get(tid)
    assert live.stacks(1) == after and 1 not in live.in_hand
    assert await _stored_stacks(service, tid) == after
    # What the end of the hand did not get to do is handed over once.
    assert list(await service.confirmed(tid)) == [1]
    assert await service.confirmed(tid) == {}
    assert await service.begin_hand(tid, 1, after, frozenset()) is not None


async def test_a_result_not_stored_leaves_the_hand_to_end_again(database: Database) -> None:
    clock = Clock()
    service, tid, before, after = await _a_hand_in_play(database, clock)
    with pytest.raises(UNREACHABLE):
        await service.hand_ended(tid, 1, after, 0, _committing(database, lands=False))

    clock.now += 60
    await service.tick(tid)
    assert not service.unconfirmed(tid) and await service.confirmed(tid) == {}
    live = service.get(tid)
    assert live.stacks(1) == before and 1 in live.in_hand
    assert await _stored_stacks(service, tid) == before

    # The table ends the hand again once the database is back.
    async def commit(writes: tuple[Write, ...]) -> None:
        await _commit(database, writes)

    await service.hand_ended(tid, 1, after, 0, commit)
    assert service.get(tid).stacks(1) == after == await _stored_stacks(service, tid)


async def test_while_the_stored_result_cannot_be_read_nothing_is_written(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    service, tid, before, after = await _a_hand_in_play(database, clock)
    with pytest.raises(UNREACHABLE):
        await service.hand_ended(tid, 1, after, 0, _committing(database, lands=True))
    reading = service.store.stored

    async def unreachable(_tid: str) -> None:
        raise _lost()

    monkeypatch.setattr(service.store, "stored", unreachable)
    clock.now += 60
    with pytest.raises(UNREACHABLE):
        await service.tick(tid)
    # A hand ending now is refused through its own commit, which stores nothing: the
    # table goes back to what it stored, as for any commit the database cannot take.
    committed: list[str] = []

    async def commit(writes: tuple[Write, ...]) -> None:
        await _commit(database, writes)
        committed.append("stored")

    with pytest.raises(UNREACHABLE):
        await service.hand_ended(tid, 1, before, 0, commit)
    assert not committed and service.unconfirmed(tid)
    monkeypatch.setattr(service.store, "stored", reading)
    assert await _stored_stacks(service, tid) == after

    await service.tick(tid)
    assert service.get(tid).stacks(1) == after == await _stored_stacks(service, tid)
    assert list(await service.confirmed(tid)) == [1]
