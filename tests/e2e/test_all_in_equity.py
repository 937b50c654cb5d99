"""All-in equity at a live table: every viewer gets each face-up hand's exact chances."""

from __future__ import annotations

from typing import Any

import pytest

from app.poker.equity import equity
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, seat_players


async def test_everyone_sees_the_exact_equities_of_an_all_in_on_each_street(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AhAd", 1: "KsKc"}, "7d9h3s5dJc")
    spectator: Client = await connect(await players.player(verified=False))
    table = await seat_players(players, connect, [1000, 1000])
    await spectator.ok("table:join", {"table_id": table.id})
    await table.act("all_in", seat=0)
    await table.act("call", seat=1)
    ended = await table.hand_ended(spectator)
    for client in (spectator, *table.seats.values()):
        events = [e for e in client.events(table.id)
                  if e["type"] in ("hand_shown", "board_dealt", "all_in_equity")]
        kinds = [e["type"] for e in events]
        assert kinds == ["hand_shown", "hand_shown", "all_in_equity", "board_dealt",
                         "all_in_equity", "board_dealt", "all_in_equity", "board_dealt"]
        for chances in (e for e in events if e["type"] == "all_in_equity"):
            by_seat = {s["seat"]: s["equity"] for s in chances["seats"]}
            exact = equity(["AhAd", "KsKc"], board=" ".join(chances["board"]))
            assert [by_seat[0], by_seat[1]] == pytest.approx(exact.equities)
        assert [e["street"] for e in events if e["type"] == "all_in_equity"] == [
            "preflop", "flop", "turn"]
    assert ended["event"]["stacks"] == [0, 2000] or ended["event"]["stacks"] == [2000, 0]


async def test_no_equity_is_sent_while_a_hand_is_still_hidden(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AhAd", 1: "KsKc"}, "7d9h3s5dJc")
    table = await seat_players(players, connect, [1000, 1000])
    await table.act("call", seat=0)
    for seat in (1, 1, 0, 1, 0, 1, 0):
        await table.act("check", seat=seat)
    await table.hand_ended()
    assert not [e for e in table.observer.events(table.id) if e["type"] == "all_in_equity"]
