"""Run it twice at a live table: the question, both boards, each half of the pot, and
nothing of the second board before everyone agreed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.config import Settings
from app.db.tables import HandRecord
from app.poker.equity import equity
from app.poker.phh import replay
from tests.conftest import Accounts
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.realtime.harness import (
    Client,
    LiveServer,
    PlayingTable,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)

FIRST = ["2c", "7d", "9h", "3s", "4c"]
SECOND = ["Kh", "8s", "5d", "Jc", "Qc"]
QUESTION_SECONDS = 3.0


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[LiveServer]:
    """A live server that waits a few seconds for run-it-twice answers."""
    changed = realtime_settings(settings, run_it_twice_seconds=QUESTION_SECONDS)
    async with live_server(changed) as running:
        yield running


async def all_in_heads_up(server: LiveServer, players: Accounts, connect: Any
                          ) -> tuple[PlayingTable, Client, dict[str, Any]]:
    """Seat 0 (AA, the button) and seat 1 (KK) all-in before the flop; a spectator
    watches. Returns the table, the spectator and the question's event."""
    server.decks.queue.append(twice_deck(["KsKc", "AhAd"], " ".join(FIRST), " ".join(SECOND)))
    spectator: Client = await connect(await players.player(verified=False))
    table = await seat_players(players, connect, [1000, 1000], run_it_twice=True)
    await spectator.ok("table:join", {"table_id": table.id})
    await table.act("all_in", seat=0)
    await table.act("call", seat=1)
    offered = await spectator.wait_for("table:event", is_event("run_it_twice_offered", table.id))
    return table, spectator, offered


def final_stacks(ended: dict[str, Any]) -> dict[int, int]:
    return dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True))


def cards_seen(client: Client) -> set[str]:
    return {card for e in client.events() if e["type"] == "board_dealt" for card in e["cards"]}


async def test_when_both_agree_the_board_is_run_twice_and_the_pot_split_between_the_boards(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table, spectator, offered = await all_in_heads_up(server, players, connect)
    assert offered["event"]["seats"] == [1, 0] and offered["event"]["deadline"] > 0
    mark = len(spectator.received)
    await spectator.ok("table:join", {"table_id": table.id})
    snapshot = await spectator.wait_for("table:snapshot", after=mark)
    hand = snapshot["hand"]
    assert hand["phase"] == "run_it_twice" and hand["run_it_twice"] == [1, 0]
    assert hand["run_it_twice_deadline"] == offered["event"]["deadline"]
    hand_id = offered["hand_id"]
    answer = {"table_id": table.id, "hand_id": hand_id, "agree": True}
    await table.seats[0].ok("table:run-it-twice", answer)
    await spectator.wait_for("table:event", is_event("run_it_twice_chosen", table.id))
    for client in (spectator, *table.seats.values()):
        assert not cards_seen(client) & set(SECOND), "a second-board card before all agreed"
    again = await table.seats[0].call("table:run-it-twice", answer)
    assert again["error"]["code"] == "not_asked"
    refused = await spectator.call("table:run-it-twice", answer)
    assert refused["error"]["code"] == "not_seated"
    await table.seats[1].ok("table:run-it-twice", answer)
    ended = await table.hand_ended(spectator)
    assert final_stacks(ended) == {0: 1000, 1: 1000}
    for client in (spectator, *table.seats.values()):
        events = client.events(table.id)
        boards = [(e["run"], e["cards"]) for e in events if e["type"] == "board_dealt"]
        assert [c for run, cards in boards if run == 0 for c in cards] == FIRST
        assert [c for run, cards in boards if run == 1 for c in cards] == SECOND
        awards = [(e["run"], e["amount"], e["seats"]) for e in events
                  if e["type"] == "pot_awarded"]
        assert awards == [(0, 1000, [0]), (1, 1000, [1])]
        chances = [e for e in events if e["type"] == "all_in_equity"]
        assert [(e["run"], e["street"]) for e in chances] == [
            (0, "preflop"), (0, "flop"), (0, "turn"), (1, "flop"), (1, "turn")]
        for e in chances:
            # Once the second board is dealt the whole first board is face up.
            face_up = " ".join(FIRST) if e["run"] == 1 else ""
            exact = equity(["AhAd", "KsKc"], board=" ".join(e["board"]), dead=face_up)
            by_seat = {s["seat"]: s["equity"] for s in e["seats"]}
            assert [by_seat[0], by_seat[1]] == pytest.approx(exact.equities, abs=1e-12)
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, hand_id)
    assert record is not None and '_second_board = ["Kh8s5d", "Jc", "Qc"]' in record.phh
    assert replay(record.phh).match


async def test_a_decline_runs_the_board_once_at_once(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table, spectator, offered = await all_in_heads_up(server, players, connect)
    await table.seats[1].ok("table:run-it-twice", {
        "table_id": table.id, "hand_id": offered["hand_id"], "agree": False})
    ended = await table.hand_ended(spectator)
    assert final_stacks(ended) == {0: 2000, 1: 0}
    events = spectator.events(table.id)
    assert {e["run"] for e in events if e["type"] in ("board_dealt", "pot_awarded")} == {0}
    assert not cards_seen(spectator) & set(SECOND)


async def test_nobody_answering_in_time_runs_the_board_once(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table, spectator, offered = await all_in_heads_up(server, players, connect)
    await table.seats[0].ok("table:run-it-twice", {
        "table_id": table.id, "hand_id": offered["hand_id"], "agree": True})
    chosen = await spectator.wait_for(
        "table:event", lambda d: is_event("run_it_twice_chosen", table.id)(d)
        and not d["event"]["agree"], timeout=QUESTION_SECONDS + 5)
    assert chosen["event"]["seat"] == 1
    ended = await table.hand_ended(spectator)
    assert final_stacks(ended) == {0: 2000, 1: 0}


async def test_a_player_who_leaves_during_the_question_runs_it_once(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table, spectator, _ = await all_in_heads_up(server, players, connect)
    left = await table.seats[0].ok("table:leave", {"table_id": table.id})
    assert left["at_hand_end"] is True
    chosen = await spectator.wait_for("table:event", is_event("run_it_twice_chosen", table.id))
    assert chosen["event"] == {"type": "run_it_twice_chosen", "seat": 0, "agree": False}
    ended = await table.hand_ended(spectator)
    assert final_stacks(ended) == {0: 2000, 1: 0}
