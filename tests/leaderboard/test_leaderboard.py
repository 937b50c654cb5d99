"""``/leaderboard``: net winnings by period from the stored results, and the opt-out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from app.db import ledger
from app.db.engine import Database
from app.db.tables import HandPlayer, HandRecord, TableRecord, TableStatus
from app.table.store import house_account
from tests.conftest import Accounts, Player, hand_summary

NOW = datetime.now(UTC)


async def played(database: Database, results: list[tuple[Player, int, timedelta]],
                 game: str = "nlhe") -> None:
    """Store one finished hand of ``game`` per result: the player's net against the house
    (bots), that long ago, with the credits moved through the ledger so every account
    reconciles."""
    async with database.sessions() as session:
        table = TableRecord(id=game.ljust(12, "t"), name="t", private=False, config={}, state={},
                            status=TableStatus.CLOSED)
        session.add(table)
        await session.flush()
        house = await house_account(session, bankroll=1_000_000)
        for player, net, _ in results:
            winner, loser = (player.id, house) if net > 0 else (house, player.id)
            await ledger.escrow(session, loser, table.id, abs(net))
            await ledger.release(session, winner, table.id, abs(net))
        for number, (player, net, ago) in enumerate(results):
            hand_id = f"{game}{number:028x}"
            session.add(HandRecord(id=hand_id, table_id=table.id, number=number, pot=abs(net),
                                   phh="", summary=hand_summary((player.id, 0, net)),
                                   started_at=NOW - ago, ended_at=NOW - ago, game=game))
            await session.flush()
            session.add(HandPlayer(hand_id=hand_id, user_id=player.id, seat=0, net=net,
                                   ended_at=NOW - ago))
        await session.commit()


def board(response: httpx.Response) -> list[tuple[str, int, int]]:
    assert response.status_code == 200, response.text
    return [(row["public_id"], row["net"], row["hands"]) for row in response.json()["items"]]


async def test_players_are_ranked_by_net_winnings_over_each_period(
    client: httpx.AsyncClient, accounts: Accounts, database: Database
) -> None:
    ann, bob, cat = [await accounts.player() for _ in range(3)]
    hour, days, weeks = timedelta(hours=1), timedelta(days=3), timedelta(days=30)
    await played(database, [(ann, 50, hour), (ann, -20, days), (ann, 500, weeks),
                            (bob, 120, hour), (bob, -300, weeks),
                            (cat, -10, hour), (cat, 90, days)])
    ids = {p.id: p.public_id for p in (ann, bob, cat)}
    a, b, c = (ids[p.id] for p in (ann, bob, cat))
    assert board(await client.get("/leaderboard?period=day")) == [(b, 120, 1), (a, 50, 1),
                                                                  (c, -10, 1)]
    assert board(await client.get("/leaderboard?period=week")) == [(b, 120, 1), (c, 80, 2),
                                                                   (a, 30, 2)]
    assert board(await client.get("/leaderboard?period=all")) == [(a, 530, 3), (c, 80, 2),
                                                                  (b, -180, 2)]
    ranks = [row["rank"] for row in (await client.get("/leaderboard?period=all")).json()["items"]]
    assert ranks == [1, 2, 3]
    assert board(await client.get("/leaderboard?period=all&limit=1")) == [(a, 530, 3)]


async def test_tournament_chips_do_not_count_as_winnings(
    client: httpx.AsyncClient, accounts: Accounts, database: Database
) -> None:
    ann, bob = await accounts.player(), await accounts.player()
    await played(database, [(ann, 40, timedelta(hours=1))])
    async with database.sessions() as session:
        session.add(TableRecord(id="m" * 12, name="Sunday turbo 1", private=False, config={},
                                state={}, status=TableStatus.CLOSED, tournament_id="s" * 32))
        await session.flush()
        session.add(HandRecord(id="h" * 32, table_id="m" * 12, number=1, pot=3000, phh="",
                               summary=hand_summary((bob.id, 0, 1500), (ann.id, 1, -1500)),
                               started_at=NOW, ended_at=NOW))
        await session.flush()
        for seat, (player, net) in enumerate([(bob, 1500), (ann, -1500)]):
            session.add(HandPlayer(hand_id="h" * 32, user_id=player.id, seat=seat, net=net,
                                   ended_at=NOW))
        await session.commit()

    for period in ("day", "week", "all"):
        assert board(await client.get(f"/leaderboard?period={period}")) == [
            (ann.public_id, 40, 1)]


async def test_a_player_who_opts_out_is_left_off_and_can_come_back(
    client: httpx.AsyncClient, accounts: Accounts, database: Database
) -> None:
    ann, bob = await accounts.player(), await accounts.player()
    await played(database, [(ann, 50, timedelta(hours=1)), (bob, 20, timedelta(hours=1))])
    headers = {"Authorization": f"Bearer {ann.token}"}
    me = (await client.get("/users/me", headers=headers)).json()
    assert me["leaderboard_listed"] is True
    answer = await client.put("/users/me/leaderboard", json={"listed": False}, headers=headers)
    assert answer.status_code == 200 and answer.json()["leaderboard_listed"] is False
    assert board(await client.get("/leaderboard?period=day")) == [(bob.public_id, 20, 1)]
    await client.put("/users/me/leaderboard", json={"listed": True}, headers=headers)
    assert [row[0] for row in board(await client.get("/leaderboard?period=day"))] == [
        ann.public_id, bob.public_id]


async def test_each_game_has_its_own_leaderboard_and_results(
    client: httpx.AsyncClient, accounts: Accounts, database: Database
) -> None:
    ann, bob = await accounts.player(), await accounts.player()
    hour = timedelta(hours=1)
    await played(database, [(ann, 300, hour), (bob, -50, hour)], game="nlhe")
    await played(database, [(ann, -80, hour), (bob, 40, hour), (bob, 10, hour)], game="plo")
    a, b = ann.public_id, bob.public_id
    assert board(await client.get("/leaderboard?period=day")) == [(a, 220, 2), (b, 0, 3)]
    assert board(await client.get("/leaderboard?period=day&game=plo")) == [(b, 50, 2),
                                                                           (a, -80, 1)]
    assert board(await client.get("/leaderboard?period=day&game=nlhe")) == [(a, 300, 1),
                                                                            (b, -50, 1)]
    assert board(await client.get("/leaderboard?period=day&game=flhe")) == []
    assert (await client.get("/leaderboard?game=stud")).status_code == 422
    headers = {"Authorization": f"Bearer {bob.token}"}
    mine = (await client.get("/users/me/stats?game=plo", headers=headers)).json()
    assert mine == {"hands_played": 2, "hands_won": 2, "net": 50}


async def test_bad_periods_and_choices_are_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    assert (await client.get("/leaderboard?period=year")).status_code == 422
    assert (await client.get("/leaderboard?limit=1000")).status_code == 422
    player = await accounts.player()
    headers = {"Authorization": f"Bearer {player.token}"}
    refused = await client.put("/users/me/leaderboard", json={"listed": "no"}, headers=headers)
    assert refused.status_code == 422
    assert (await client.put("/users/me/leaderboard", json={"listed": False})).status_code == 401
