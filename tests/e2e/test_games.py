"""Tables of every game: Omaha's cards reach only their owner, pot-limit and fixed-limit
sizes are the ones the rules give, and the stored history replays in its variant."""

from __future__ import annotations

from typing import Any

import pytest

from app.db.tables import HandRecord
from app.poker.phh import replay
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, seat_players


def _sizes(turn: dict[str, Any], kind: str) -> tuple[int, int]:
    option = next(a for a in turn["legal_actions"] if a["action"] == kind)
    return option["min"], option["max"]


@pytest.mark.parametrize(("game", "cards"), [("plo", 4), ("plo5", 5)])
async def test_an_omaha_table_deals_each_player_only_their_own_cards(
    server: LiveServer, players: Accounts, connect: Any, game: str, cards: int
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000], game=game)
    listed = (await table.observer.ok("lobby:list"))["tables"]
    assert [t["game"] for t in listed if t["table_id"] == table.id] == [game]
    started = await table.observer.wait_for(
        "table:event", lambda d: d["event"]["type"] == "hand_started")
    assert started["event"]["game"] == game
    first = await table.turn()
    for seat, client in table.seats.items():
        dealt = [e for e in client.events(table.id) if e["type"] == "hole_cards_dealt"]
        assert {e["seat"] for e in dealt} == {0, 1, 2}
        for event in dealt:
            assert (len(event["cards"]) == cards) if event["seat"] == seat else (
                event["cards"] is None)
    # Pot limit: the opener may raise to the pot after the call, 5 + 10 + 10 + 10 = 35.
    assert first["seat"] == 0 and _sizes(first, "raise") == (20, 35)


async def test_a_pot_limit_omaha_hand_is_stored_as_pot_limit_omaha_and_replays(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], game="plo")
    await table.act("raise", 30)  # the small blind (button heads-up) raises the pot
    await table.act("fold")
    ended = await table.hand_ended()
    async with server.database.sessions() as session:
        record = await session.get(HandRecord, ended["hand_id"])
        assert record is not None
    assert 'variant = "PO"' in record.phh
    assert replay(record.phh).match


async def test_a_fixed_limit_table_offers_only_the_fixed_sizes_and_caps_the_raises(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000], game="flhe")
    sizes = []
    for _ in range(3):  # a bet (the big blind) and three raises: the cap
        turn = await table.turn()
        sizes.append(_sizes(turn, "raise"))
        await table.seats[turn["seat"]].ok("table:action", {
            "table_id": table.id, "hand_id": turn["hand_id"], "type": "raise",
            "amount": sizes[-1][0]})
    capped = await table.turn()
    assert sizes == [(20, 20), (30, 30), (40, 40)]
    assert {a["action"] for a in capped["legal_actions"]} == {"fold", "call"}


async def test_a_fixed_limit_table_refuses_a_straddle(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    client = await connect(await players.player(verified=False))
    answer = await client.call("table:create", {
        "name": "limit", "small_blind": 5, "big_blind": 10, "game": "flhe", "straddle": True})
    assert answer["ok"] is False and answer["error"]["code"] == "invalid_payload"
    assert "straddle" in answer["error"]["message"]


async def test_five_card_omaha_seats_at_most_eight(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    client = await connect(await players.player(verified=False))
    answer = await client.call("table:create", {
        "name": "big", "small_blind": 5, "big_blind": 10, "game": "plo5", "seats": 9})
    assert answer["ok"] is False and "at most 8" in answer["error"]["message"]
