"""Tournament money through the ledger: buy-ins and fees at registration, refunds, prizes,
and a restart that resumes a running tournament; on SQLite and PostgreSQL."""

from __future__ import annotations

from random import Random

import pytest
from sqlalchemy import select

from app.db import ledger
from app.db.engine import Database
from app.db.ledger import InsufficientCredits
from app.db.models import LedgerEntry, LedgerReason
from app.db.tournaments import EntryStatus
from app.table.store import house_account
from app.tournaments.errors import DealNotNow, DealUnavailable, NotRegistered, TournamentFull
from app.tournaments.rules import Rules, TournamentKind, TournamentStatus
from app.tournaments.service import TournamentService, user_key
from app.tournaments.store import TournamentStore
from app.tournaments.structure import preset
from tests.db.test_ledger import audit, balance_of, new_user
from tests.tournaments.simulation import Run, play_round, play_to_the_end

NOW = 2_000_000.0
SIT_AND_GO = Rules(TournamentKind.SIT_AND_GO, preset("turbo"), table_size=6, buy_in=100, fee=10)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


async def _service(database: Database, clock: Clock | None = None) -> TournamentService:
    async def house() -> int:
        async with database.sessions() as session:
            house_id = await house_account(session, bankroll=10_000)
            await session.commit()
            return house_id

    return TournamentService(TournamentStore(database), house=house, now=clock or Clock(),
                             rng=Random(13))


async def _reasons(database: Database, user_id: int) -> list[tuple[str, int]]:
    async with database.sessions() as session:
        rows = await session.scalars(select(LedgerEntry).where(LedgerEntry.user_id == user_id)
                                     .order_by(LedgerEntry.id))
        return [(r.reason.value, r.amount) for r in rows]


async def test_registering_takes_the_buy_in_into_the_pool_and_the_fee_out(
    database: Database,
) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    user = await new_user(database, 500)

    entry = await service.register(tid, user, "ann")

    assert entry.player == user_key(user)
    assert await balance_of(database, user) == 390
    assert await service.store.pool_held(tid) == 100
    assert (await _reasons(database, user))[1:] == [("tournament_buy_in", -100),
                                                    ("tournament_fee", -10)]
    assert (await audit(database)).balanced


async def test_a_player_who_cannot_pay_is_refused_and_nothing_changes(
    database: Database,
) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    user = await new_user(database, 105)

    with pytest.raises(InsufficientCredits):
        await service.register(tid, user, "ann")

    assert await balance_of(database, user) == 105
    assert not service.get(tid).entries and await service.store.pool_held(tid) == 0
    assert (await audit(database)).balanced


async def test_unregistering_before_the_start_refunds_the_buy_in_and_the_fee(
    database: Database,
) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    user = await new_user(database, 500)
    await service.register(tid, user, "ann")

    await service.unregister(tid, user)
    again = await service.register(tid, user, "ann")

    assert again.id == f"{user_key(user)}#2"
    assert await balance_of(database, user) == 390
    reasons = [r for r, _ in await _reasons(database, user)]
    assert reasons[3:5] == ["tournament_refund", "tournament_fee"]
    assert (await audit(database)).balanced


async def test_cancelling_refunds_every_entry(database: Database) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    users = [await new_user(database, 200) for _ in range(3)]
    for n, user in enumerate(users):
        await service.register(tid, user, f"p{n}")
    await service.register_bot(tid, "Ada")

    await service.cancel(tid)

    assert [await balance_of(database, u) for u in users] == [200, 200, 200]
    assert await service.store.pool_held(tid) == 0
    assert {r.status for r in await service.store.entries(tid)} == {EntryStatus.REFUNDED}
    assert service.get(tid).status is TournamentStatus.CANCELLED
    assert (await audit(database)).balanced


async def test_a_multi_table_start_short_of_players_is_cancelled_and_refunded(
    database: Database,
) -> None:
    clock = Clock()
    rules = Rules(TournamentKind.MULTI_TABLE, preset("turbo"), table_size=9, buy_in=100,
                  starts_at=NOW + 60)
    service = await _service(database, clock)
    tid = await service.create("Sunday", rules, created_by=None)
    user = await new_user(database, 100)
    await service.register(tid, user, "ann")
    clock.now = NOW + 61

    assert await service.start_if_due(tid) is TournamentStatus.CANCELLED

    assert service.get(tid).status is TournamentStatus.CANCELLED
    assert await balance_of(database, user) == 100


async def test_a_sit_and_go_played_to_the_end_pays_every_prize_from_the_pool(
    database: Database,
) -> None:
    clock = Clock()
    service = await _service(database, clock)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    users = [await new_user(database, 1000) for _ in range(4)]
    for n, user in enumerate(users):
        await service.register(tid, user, f"p{n}")
    await service.register_bot(tid, "Ada")
    await service.register_bot(tid, "Alan")
    with pytest.raises(TournamentFull):
        await service.register_bot(tid, "Grace")
    assert await service.start_if_due(tid) is TournamentStatus.RUNNING

    work = service.copy(tid)
    play_to_the_end(work, Random(4), now=NOW)
    await service.save(tid, work)
    won = await service.settle(tid)

    assert sorted(won.values()) == [210, 390]
    assert await service.store.pool_held(tid) == 0
    paid = {r.entry: r.prize for r in await service.store.entries(tid)}
    assert sum(paid.values()) == 600 and paid == {e: won.get(e, 0) for e in paid}
    total = sum([await balance_of(database, u) for u in users])
    async with database.sessions() as session:
        prizes = await session.scalars(select(LedgerEntry.amount).where(
            LedgerEntry.reason == LedgerReason.TOURNAMENT_PRIZE))
        assert sum(prizes) == 600
    to_people = sum(amount for entry, amount in won.items() if entry.startswith("user:"))
    assert total == 4 * 1000 - 4 * 110 + to_people
    assert (await audit(database)).balanced


async def test_a_restart_resumes_a_running_tournament_with_its_standings_and_level(
    database: Database,
) -> None:
    clock = Clock()
    service = await _service(database, clock)
    rules = Rules(TournamentKind.MULTI_TABLE, preset("turbo"), table_size=6, buy_in=10,
                  starts_at=NOW)
    tid = await service.create("Sunday", rules, created_by=None)
    for n in range(30):
        await service.register_bot(tid, f"bot{n}")
    await service.start_if_due(tid)
    work = service.copy(tid)
    run = Run()
    for minute in range(1, 40):
        work.tick(NOW + 60 * minute)
        play_round(work, Random(minute), run)
    work.hand_started(min(work.tables))  # a hand in play when the server dies
    await service.save(tid, work)

    clock.now = NOW + 10_000  # down for hours
    again = await _service(database, clock)
    await again.resume()

    resumed = again.get(tid)
    assert resumed.results() == work.results() and resumed.elapsed == work.elapsed
    assert resumed.clock().level_number == work.clock().level_number
    assert not resumed.in_hand and resumed.can_deal(min(resumed.tables))
    assert {e.id: e.chips for e in resumed.entries.values()} == {
        e.id: e.chips for e in work.entries.values()}
    async with database.sessions() as session:
        assert (await ledger.audit(session)).balanced


async def test_a_300_bot_tournament_pays_its_whole_pool_and_the_ledger_stays_balanced(
    database: Database,
) -> None:
    service = await _service(database)
    rules = Rules(TournamentKind.MULTI_TABLE, preset("turbo"), table_size=9, buy_in=20,
                  fee=2, starts_at=NOW)
    tid = await service.create("Big Sunday", rules, created_by=None)
    for n in range(300):
        await service.register_bot(tid, f"bot{n}")
    assert await service.store.pool_held(tid) == 6000
    await service.start_if_due(tid)

    work = service.copy(tid)
    play_to_the_end(work, Random(300), now=NOW)
    await service.save(tid, work)
    won = await service.settle(tid)

    assert sum(won.values()) == 6000 and await service.store.pool_held(tid) == 0
    rows = await service.store.entries(tid)
    assert sorted(r.place or 0 for r in rows) == sorted(f.place for f in work.results())
    assert (await audit(database)).balanced


async def _three_seat_sit_and_go(
    database: Database, clock: Clock, *, bot: bool = False
) -> tuple[TournamentService, str, list[int]]:
    """A started three-seat sit & go of three people (or two and a bot)."""
    service = await _service(database, clock)
    rules = Rules(TournamentKind.SIT_AND_GO, preset("turbo"), table_size=3, buy_in=100)
    tid = await service.create("Deal", rules, created_by=None)
    people = [await new_user(database, 500) for _ in range(2 if bot else 3)]
    for n, user in enumerate(people):
        await service.register(tid, user, f"p{n}")
    if bot:
        await service.register_bot(tid, "Ada")
    await service.start_if_due(tid)
    return service, tid, people


async def test_an_icm_deal_ends_the_tournament_when_every_player_still_in_agrees(
    database: Database,
) -> None:
    service, tid, (ann, bob, cy) = await _three_seat_sit_and_go(database, Clock())

    first = await service.agree_to_deal(tid, ann)
    again = await service.agree_to_deal(tid, ann)
    assert (len(first.agreed), len(first.needed), first.done) == (1, 3, False)
    assert (len(again.agreed), again.done) == (1, False)
    with pytest.raises(NotRegistered):
        await service.agree_to_deal(tid, await new_user(database, 0))
    await service.agree_to_deal(tid, bob)
    last = await service.agree_to_deal(tid, cy)

    assert last.done and sorted(last.offer.values()) == [100, 100, 100]
    won = await service.settle(tid)
    assert sorted(won.values()) == [100, 100, 100]
    assert [await balance_of(database, u) for u in (ann, bob, cy)] == [500, 500, 500]
    assert (await audit(database)).balanced


async def test_no_deal_is_made_while_a_bot_is_still_in(database: Database) -> None:
    service, tid, (ann, bob) = await _three_seat_sit_and_go(database, Clock(), bot=True)

    for user in (ann, bob):
        with pytest.raises(DealUnavailable):
            await service.agree_to_deal(tid, user)

    assert service.get(tid).status is TournamentStatus.RUNNING
    assert service.get(tid).deal is None


async def test_a_deal_waits_for_the_hands_and_holds_the_next_one_until_it_lapses(
    database: Database,
) -> None:
    clock = Clock()
    service, tid, (ann, bob, _) = await _three_seat_sit_and_go(database, clock)
    stacks = service.get(tid).stacks(1)
    assert await service.begin_hand(tid, 1, stacks, frozenset()) is not None

    with pytest.raises(DealNotNow):  # a hand is in play
        await service.agree_to_deal(tid, ann)

    async def commit(writes: tuple[object, ...]) -> None:
        assert len(writes) == 1

    await service.hand_ended(tid, 1, stacks, 0, commit)
    vote = await service.agree_to_deal(tid, ann)
    assert await service.begin_hand(tid, 1, stacks, frozenset()) is None  # play waits
    clock.now = vote.until
    with pytest.raises(DealNotNow):  # lapsed: ask again after a hand
        await service.agree_to_deal(tid, bob)
    assert await service.begin_hand(tid, 1, stacks, frozenset()) is not None
    await service.hand_ended(tid, 1, stacks, 1, commit)

    fresh = await service.agree_to_deal(tid, bob)
    assert fresh.agreed == {user_key(bob)}  # the hand cleared the old vote


async def test_a_tournament_that_ended_just_before_a_crash_is_paid_after_the_restart(
    database: Database,
) -> None:
    service = await _service(database)
    tid = await service.create("Evening", SIT_AND_GO, created_by=None)
    for n in range(6):
        await service.register_bot(tid, f"bot{n}")
    await service.start_if_due(tid)
    work = service.copy(tid)
    play_to_the_end(work, Random(6), now=NOW)
    await service.save(tid, work)  # finished and stored, but the prizes were not paid yet

    again = await _service(database)
    await again.resume()
    won = await again.settle(tid)

    assert sum(won.values()) == 600 and await again.store.pool_held(tid) == 0
    third = await _service(database)
    await third.resume()
    assert tid not in third.tournaments
    assert (await audit(database)).balanced
