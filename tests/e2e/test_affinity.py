"""Tables follow their players: three server processes on one PostgreSQL database and one
Redis (with the production lease settings), players connected for a table
(``?table=<id>``, as the proxy routes them) to a process that does not run it. The table
moves there at a hand boundary and is played there without forwarding; it does not move
again within the cooldown; a tournament's table stays with the tournaments; a process
that had cached the old owner sends to the new one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
import socketio

from tests.e2e.test_cluster import (  # noqa: F401 (fixtures)
    Cluster,
    Seat,
    _playing,
    _promote,
    _until,
    _until_async,
    cluster_env,
    default_cluster,
)
from tests.e2e.test_crash import Server, _player

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


async def _forwarded(server: Server, event: str | None = None) -> float:
    """How many client requests ``server`` forwarded to another process (of ``event``,
    or of every event), from its ``/metrics``."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        text = (await http.get("/metrics")).text
    total = 0.0
    for line in text.splitlines():
        if line.startswith("holdem_forwarded_requests_total{") and (
                event is None or f'event="{event}"' in line):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def _players(cluster: Cluster, count: int) -> list[Seat]:
    async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
        return [Seat(await _player(http, n)) for n in range(count)]


async def _open(cluster: Cluster, creator: Seat) -> tuple[str, Server]:
    """A cash table opened from the first process; it and the process that runs it."""
    await creator.connect(cluster.servers[0])
    created = await creator.ok("table:create", {
        "name": "Followed", "seats": 4, "small_blind": 5, "big_blind": 10})
    table_id = created["table"]["table_id"]
    await creator.close()
    owner, _ = await cluster.lease(table_id)
    assert owner is not None
    return table_id, cluster.by_pid(owner)


async def _sit(seats: list[Seat], table_id: str) -> None:
    for n, seat in enumerate(seats):
        await seat.ok("table:sit", {"table_id": table_id, "seat": n, "buy_in": 1000})


def _others(cluster: Cluster, *not_these: Server) -> Iterator[Server]:
    return (s for s in cluster.servers if all(s is not n for n in not_these))


async def _runs_on(cluster: Cluster, table_id: str, server: Server) -> None:
    """Wait until ``server`` holds the table's lease."""
    async def owner() -> Server | None:
        found, _ = await cluster.lease(table_id)
        return cluster.by_pid(found) if found else None
    await _until_async(owner, lambda found: found is server, f"table {table_id} moved")


async def _come_back(seats: list[Seat], server: Server, table_id: str) -> None:
    """The players reconnect to ``server`` for the table, as the proxy routes them, and
    join it afresh (a snapshot, with the turn of whoever is to act)."""
    for seat in seats:
        await seat.close()
        await seat.connect(server, table=table_id)
        await seat.ok("table:join", {"table_id": table_id})


def _log(server: Server) -> str:
    assert server.log is not None
    return server.log.read_text(encoding="utf-8", errors="replace")


def _unfinished(seat: Seat) -> set[Any]:
    """Hands this player saw start and not end."""
    def hands(kind: str) -> set[Any]:
        return {e["hand_id"] for e in seat.events if e["type"] == kind}
    return hands("hand_started") - hands("hand_ended")


class Holding(Seat):
    """A player who, while held, waits before acting on its turn (a hand stays in play)."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.free = asyncio.Event()
        self.free.set()

    async def _act(self, turn: dict[str, Any], kind: str) -> None:
        await self.free.wait()
        await super()._act(turn, kind)


async def test_a_table_moves_at_a_hand_boundary_to_the_process_its_players_reach(
    default_cluster: Cluster  # noqa: F811
) -> None:
    cluster = default_cluster
    seats: list[Seat] = [Holding(seat.token) for seat in await _players(cluster, 3)]
    table_id, owner = await _open(cluster, seats[0])
    for seat in seats:
        await seat.connect(owner)
    await _sit(seats, table_id)
    await _playing(seats, 1)
    for seat in seats:
        cast(Holding, seat).free.clear()
    await _until_async(lambda: cluster.stored(table_id), lambda s: s["current"] is not None,
                       "a hand in play")
    hand_id = (await cluster.stored(table_id))["current"]["id"]
    # Mid-hand, the players come back through the proxy, which routes by table: to
    # another process, which asks for the table. It goes once that hand has ended.
    home = next(_others(cluster, owner))
    await _come_back(seats, home, table_id)
    await _until(lambda: f"table {table_id} goes to" in _log(owner), "the owner agreeing")
    still, _ = await cluster.lease(table_id)
    assert still is not None and cluster.by_pid(still) is owner
    assert (await cluster.stored(table_id))["current"]["id"] == hand_id
    for seat in seats:
        cast(Holding, seat).free.set()
    await _runs_on(cluster, table_id, home)
    await _playing(seats, 1)
    before = await _forwarded(home)
    await _playing(seats, 3)
    assert await _forwarded(home) == before, "actions still forwarded after the move"
    for seat in seats:
        assert seat.count("hand_voided") == 0, seat.events
        assert any(e["hand_id"] == hand_id and e["type"] == "hand_ended"
                   for e in seat.events), seat.events
        assert len(_unfinished(seat)) <= 1, seat.events  # at most the hand in play now
        await seat.close()
    cluster.kill_all()
    await cluster.check_books(table_id)


async def test_a_moved_table_stays_for_the_cooldown_and_a_tournament_table_stays(
    default_cluster: Cluster, cluster_env: dict[str, str]  # noqa: F811
) -> None:
    cluster = default_cluster
    seats = await _players(cluster, 4)
    table_id, owner = await _open(cluster, seats[0])
    home = next(_others(cluster, owner))
    players = seats[:3]
    for seat in players:
        await seat.connect(home, table=table_id)
    await _sit(players, table_id)
    await _runs_on(cluster, table_id, home)
    await _playing(players, 1)
    # The proxy's membership changes: the players now reach a third process, which asks
    # for the table; it came to its process less than TABLE_MOVE_COOLDOWN ago and stays.
    third = next(_others(cluster, owner, home))
    await _come_back(players, third, table_id)
    await _until(lambda: f"table {table_id} stays here" in _log(home), "the refusal")
    assert "TABLE_MOVE_COOLDOWN" in _log(home)
    await _playing(players, 2)
    await _runs_on(cluster, table_id, home)

    # A sit & go on the tournaments' director; its player connects for its table to
    # another process, which asks for it: the table stays with the director.
    director = cluster.servers[0]
    await _promote(cluster_env, "crash0@example.com")
    async with httpx.AsyncClient(base_url=director.url, headers={
            "Authorization": f"Bearer {seats[0].token}"}) as http:
        created = await http.post("/admin/tournaments", json={
            "name": "Heads-up", "kind": "sit_and_go", "table_size": 2, "buy_in": 10,
            "bots": 1})
        assert created.status_code == 201, created.text
        tournament = created.json()["id"]
        entrant = seats[3]
        await entrant.connect(director)
        await entrant.ok("tournament:register", {"tournament_id": tournament})
        await entrant.close()
        await _until_async(lambda: http.get(f"/tournaments/{tournament}"),
                           lambda r: r.json()["tables"], "the sit & go started")
        tournament_table = (await http.get(f"/tournaments/{tournament}")).json()[
            "tables"][0]["table_id"]
    await _until_async(lambda: cluster.leased(tournament_table), bool,
                       "the tournament table stored and run")
    lease = await cluster.lease(tournament_table)
    elsewhere = next(_others(cluster, director))
    await entrant.connect(elsewhere, table=tournament_table)
    await entrant.ok("table:join", {"table_id": tournament_table})
    await _until(lambda: f"table {tournament_table} stays here" in _log(director),
                 "the tournament table's refusal")
    assert "a tournament's tables stay" in _log(director)
    assert await cluster.lease(tournament_table) == lease
    for seat in seats:
        await seat.close()


async def test_a_process_that_cached_the_old_owner_sends_to_the_new_one(
    default_cluster: Cluster  # noqa: F811
) -> None:
    cluster = default_cluster
    seats = await _players(cluster, 4)
    table_id, owner = await _open(cluster, seats[0])
    home = next(_others(cluster, owner))
    third = next(_others(cluster, owner, home))
    # A spectator on a third process: its requests go to the owner, whose id that
    # process caches.
    spectator, players = seats[3], seats[:3]
    await spectator.connect(third)
    await spectator.ok("table:join", {"table_id": table_id})
    await spectator.ok("table:chat", {"table_id": table_id, "text": "before"})
    for seat in players:
        await seat.connect(home, table=table_id)
    await _sit(players, table_id)
    await _runs_on(cluster, table_id, home)
    await _playing(players, 1)
    # The next request goes straight to the new owner: the old one forwards nothing.
    old_owner_forwarded = await _forwarded(owner, "table:chat")
    sent = await _forwarded(third, "table:chat")
    answer = await spectator.call("table:chat", {"table_id": table_id, "text": "after"})
    assert answer.get("ok"), answer
    assert await _forwarded(third, "table:chat") == sent + 1
    assert await _forwarded(owner, "table:chat") == old_owner_forwarded
    for seat in seats:
        await seat.close()


async def test_naming_watching_or_being_refused_at_a_table_never_moves_it(
    default_cluster: Cluster  # noqa: F811
) -> None:
    # Every process but the owner is reached with ?table=<id> of a private table: a
    # join and a seat without the invite are refused (invite_required), an anonymous
    # connection joins nothing, and a spectator with the invite watches. None of them
    # sits or waits there, so the owner hands nothing over: its lease and token stay.
    cluster = default_cluster
    creator, intruder, spectator = await _players(cluster, 3)
    await creator.connect(cluster.servers[0])
    created = await creator.ok("table:create", {
        "name": "Private", "seats": 4, "small_blind": 5, "big_blind": 10, "private": True})
    table_id, invite = created["table"]["table_id"], created["invite_code"]
    await creator.close()
    lease = await cluster.lease(table_id)
    owner = cluster.by_pid(str(lease[0]))
    for refused, server in enumerate(_others(cluster, owner), start=1):
        await intruder.connect(server, table=table_id)
        for event, payload in (("table:join", {"table_id": table_id}),
                               ("table:sit", {"table_id": table_id, "seat": 0,
                                              "buy_in": 1000})):
            answer = await intruder.call(event, payload)
            assert answer["error"]["code"] == "invite_required", answer
        await intruder.close()
        anonymous = socketio.AsyncClient(reconnection=False)
        await anonymous.connect(f"{server.url}?table={table_id}", transports=["websocket"])
        for join in ({"table_id": table_id}, {"table_id": table_id, "invite_code": invite}):
            await anonymous.call("table:join", join, timeout=15)
        await anonymous.disconnect()
        await spectator.connect(server, table=table_id)
        await spectator.ok("table:join", {"table_id": table_id, "invite_code": invite})
        await spectator.ok("table:chat", {"table_id": table_id, "text": "just watching"})
        await _until(lambda n=refused: _log(owner).count(f"table {table_id} stays here") >= n,
                     "the owner hearing of the spectator's requests")
        await spectator.close()
    assert "neither sits nor waits there" in _log(owner)
    assert f"table {table_id} goes to" not in _log(owner)
    assert await cluster.lease(table_id) == lease
