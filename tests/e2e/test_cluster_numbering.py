"""One seq, one message, across processes: watchers on another process and the players
record every numbered message of a table while its owner drains (SIGTERM) and the table
goes to another process, then moves to the process its players reach. No seq ever
carries two different messages, and no snapshot goes back behind a seq already seen
(three server processes on one PostgreSQL database and one Redis)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

import httpx
import orjson
import pytest

from tests.e2e.test_cluster import (  # noqa: F401 (fixtures)
    Cluster,
    Seat,
    _playing,
    _running,
    _until,
    cluster_env,
)
from tests.e2e.test_crash import Server, _player

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


class Recording(Seat):
    """A client that keeps every numbered message it receives, and what went wrong with
    their numbering."""

    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.numbered: defaultdict[int, set[bytes]] = defaultdict(set)
        self.backwards: list[str] = []

    async def _message(self, name: str, data: dict[str, Any]) -> None:
        seq = data.get("seq")
        if isinstance(seq, int):
            if name == "table:snapshot":
                if seq < self.seq:
                    self.backwards.append(f"a snapshot at seq {seq} after seq {self.seq}")
            else:
                self.numbered[seq].add(orjson.dumps({"name": name, **data},
                                                    option=orjson.OPT_SORT_KEYS))
        await super()._message(name, data)

    async def chatter(self, table_id: str) -> None:
        """Talk at the table without pause (each line a numbered message), until
        cancelled: some line is always on its way when the table stops somewhere."""
        while True:
            ack = await self.call("table:chat", {"table_id": table_id, "text": "still here"})
            if not ack.get("ok"):
                await asyncio.sleep(0.05)  # the table is moving: ask again shortly

    def reused(self) -> dict[int, list[Any]]:
        """The seqs that carried more than one message, with the messages."""
        return {seq: [orjson.loads(m) for m in sorted(messages)]
                for seq, messages in self.numbered.items() if len(messages) > 1}


async def _lease_holder(cluster: Cluster, table_id: str) -> Server:
    owner, _token = await cluster.lease(table_id)
    assert owner is not None
    return cluster.by_pid(owner)


async def _runs_on(cluster: Cluster, table_id: str, server: Server) -> None:
    deadline = asyncio.get_running_loop().time() + 60
    while await _lease_holder(cluster, table_id) is not server:
        assert asyncio.get_running_loop().time() < deadline, "the table never moved"
        await asyncio.sleep(0.1)


async def test_every_seq_names_one_message_across_a_drain_and_a_move(
    cluster_env: dict[str, str]  # noqa: F811
) -> None:
    # Every client shares the loopback address: the chat must not use up the players'
    # share of the per-address limit.
    env = {**cluster_env, "TABLE_MOVE_COOLDOWN": "1", "RATE_LIMIT_CHAT": "1000000/10",
           "RATE_LIMIT_SOCKET": "1000000/10", "RATE_LIMIT_SOCKET_IP": "1000000/10"}
    async with _running(env) as cluster:
        async with httpx.AsyncClient(base_url=cluster.servers[0].url) as http:
            tokens = [await _player(http, n) for n in range(5)]
        players = [Recording(token) for token in tokens[:3]]
        for player, server in zip(players, cluster.servers, strict=True):
            await player.connect(server)
        created = await players[0].ok("table:create", {
            "name": "Numbered", "seats": 4, "small_blind": 5, "big_blind": 10})
        table_id = created["table"]["table_id"]
        for n, player in enumerate(players):
            await player.ok("table:sit", {"table_id": table_id, "seat": n, "buy_in": 1000})
        first_id, _token = await cluster.lease(table_id)
        assert first_id is not None
        first = cluster.by_pid(first_id)
        third = next(s for s in cluster.servers if s is not first)
        watchers = [Recording(token) for token in tokens[3:]]
        for watcher in watchers:
            await watcher.connect(third)
            await watcher.ok("table:join", {"table_id": table_id})
        everyone = players + watchers
        await _playing(players, 1)
        # Several lines in flight from each watcher: the table's queue is seldom empty.
        talking = [asyncio.create_task(w.chatter(table_id)) for w in watchers * 4]

        # The owner drains: its players come back through a process that stays.
        assert first.process is not None
        first.process.terminate()
        for player in players:
            if player.server is first:
                await _until(lambda p=player: not p.sio.connected, "the socket closed")
                await player.move_to(third, table_id)
        await cluster.moved(table_id, first_id)
        assert await asyncio.to_thread(first.process.wait, 30) == 0
        await _playing(players, 2)

        # The players reach another process for the table: it moves there.
        second = await _lease_holder(cluster, table_id)
        home = next(s for s in cluster.servers if s is not first and s is not second)
        for player in players:
            await player.close()
            await player.connect(home, table=table_id)
            await player.ok("table:join", {"table_id": table_id, "since_seq": player.seq})
        await _playing(players, 1)
        await _runs_on(cluster, table_id, home)
        await _playing(players, 2)
        for task in talking:
            task.cancel()
        await asyncio.gather(*talking, return_exceptions=True)

        for client in everyone:
            assert client.reused() == {}, client.reused()
            assert client.backwards == []
            assert client.count("hand_voided") == 0
            await client.close()
        cluster.kill_all()
        await cluster.check_books(table_id)
