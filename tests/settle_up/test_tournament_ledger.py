"""A tournament's ledger: each player's buy-ins and fees, prizes and net from the credits
ledger, and the fewest payments that settle it once it is over (the fees to the
organizer's line); on SQLite and PostgreSQL."""

from __future__ import annotations

from random import Random

import pytest

from app.db.engine import Database
from app.db.models import Role, User
from app.settle_up.schemas import TournamentLedgerPublic
from app.settle_up.tournament import (
    FEES_NAME,
    HOUSE_NAME,
    TournamentLedgerNotFound,
    tournament_ledger,
    tournament_ledger_csv,
)
from tests.db.test_ledger import audit, new_user
from tests.tournaments.simulation import play_to_the_end
from tests.tournaments.test_service import NOW, SIT_AND_GO, Clock, _service


async def _ledger(database: Database, tournament_id: str, reader_id: int
                  ) -> TournamentLedgerPublic:
    async with database.sessions() as session:
        reader = await session.get(User, reader_id)
        assert reader is not None
        return await tournament_ledger(session, tournament_id, reader)


async def test_a_finished_sit_and_go_settles_in_the_fewest_payments_with_the_fees_to_the_organizer(
    database: Database,
) -> None:
    clock = Clock()
    service = await _service(database, clock)
    organizer = await new_user(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=organizer)
    users = [await new_user(database, 1000) for _ in range(4)]
    for n, user in enumerate(users):
        await service.register(tid, user, f"p{n}")
    await service.register_bot(tid, "Ada")
    await service.register_bot(tid, "Alan")
    running = await _ledger(database, tid, users[0])
    assert running.over is False and running.transfers == []
    assert all(line.bought_in == 100 and line.fees == 10 and line.net == -110
               for line in running.lines if not line.house)

    await service.start_if_due(tid)
    work = service.copy(tid)
    play_to_the_end(work, Random(4), now=NOW)
    await service.save(tid, work)
    won = await service.settle(tid)

    done = await _ledger(database, tid, organizer)
    assert done.over is True and done.fees == 60
    assert sum(line.prizes for line in done.lines) == sum(won.values()) == 600
    people = [line for line in done.lines if not line.house]
    assert len(people) == 4 and all(line.entries == 1 for line in people)
    house = next(line for line in done.lines if line.house)
    assert house.name == HOUSE_NAME and house.entries == 2
    nets = {line.public_id or line.name: line.net for line in done.lines}
    assert len(nets) == 5 and sum(nets.values()) + done.fees == 0
    # Everyone's payments and receipts add up to their net; the organizer gets the fees.
    moved = {FEES_NAME: done.fees, **nets}
    for transfer in done.transfers:
        moved[transfer.payer_public_id or transfer.payer] += transfer.amount
        moved[transfer.payee_public_id or transfer.payee] -= transfer.amount
    assert set(moved.values()) == {0}
    # Six results (five lines and the fees) settle in at most five payments.
    assert 1 <= len(done.transfers) <= 5
    rows = tournament_ledger_csv(done).splitlines()
    assert rows[0] == "player,entries,bought_in,fees,prizes,refunded,net"
    assert len(rows) == 1 + len(done.lines) + 2 + len(done.transfers)
    assert (await audit(database)).balanced


async def test_only_its_players_its_organizer_and_admins_read_a_tournaments_ledger(
    database: Database,
) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    player, stranger, admin = [await new_user(database, 1000) for _ in range(3)]
    await service.register(tid, player, "p0")
    async with database.sessions() as session:
        promoted = await session.get(User, admin)
        assert promoted is not None
        promoted.role = Role.ADMIN
        await session.commit()
    assert [line.entries for line in (await _ledger(database, tid, player)).lines] == [1]
    assert (await _ledger(database, tid, admin)).tournament_id == tid
    with pytest.raises(TournamentLedgerNotFound):
        await _ledger(database, tid, stranger)
    with pytest.raises(TournamentLedgerNotFound):
        await _ledger(database, "no-such-tournament", admin)
