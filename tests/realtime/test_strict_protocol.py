"""The protocol refuses what it documents: wrong types, refused requests that change
nothing, and a resume that delivers every message once, in order."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from app.protocol import REQUEST_EXAMPLES, REQUESTS
from app.protocol.table_examples import TABLE_EVENT_TYPES
from app.realtime import schemas
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, is_event, seat_players

# Values of the wrong JSON type for each kind of field: none may be coerced.
WRONG = {
    "integer": ["40", True, 4.5, [], {}],
    "number": ["5", True, [], {}],
    "string": [1, True, [], {}],
    "boolean": [1, 0, "true", [], {}],
}


def _kinds(model: type[BaseModel], field: str) -> set[str]:
    prop = model.model_json_schema()["properties"][field]
    options = prop.get("anyOf", [prop])
    return {option["type"] for option in options if "type" in option} - {"null"}


def _wrong_payloads() -> list[tuple[str, str, Any]]:
    cases = []
    for request in REQUESTS:
        example = REQUEST_EXAMPLES[request.name]
        for field in request.model.model_fields:
            for kind in _kinds(request.model, field):
                for value in WRONG.get(kind, []):
                    cases.append((request.name, field, {**example, field: value}))
    return cases


WRONG_PAYLOADS = _wrong_payloads()


def test_every_event_with_fields_has_wrong_type_cases() -> None:
    events = {name for name, _, _ in WRONG_PAYLOADS}
    with_fields = {r.name for r in REQUESTS if r.model.model_fields}
    assert events == with_fields
    assert len(WRONG_PAYLOADS) > 100


async def test_every_wrong_type_to_every_event_is_refused_as_invalid_payload(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    client = table.seats[0]
    turn = await table.turn()
    refused = []
    for name, field, payload in WRONG_PAYLOADS:
        if "table_id" in payload and field != "table_id":
            payload = {**payload, "table_id": table.id}
        if name == "table:action" and field != "hand_id":
            payload = {**payload, "hand_id": turn["hand_id"]}
        ack = await client.call(name, payload)
        refused.append((name, field, payload[field], ack.get("error", {}).get("code")))
    accepted = [case for case in refused if case[3] != "invalid_payload"]
    assert not accepted, accepted
    # Nothing was played: the same turn is still waiting.
    assert [d for n, d in client.received if n == "table:turn"][-1]["seq"] == turn["seq"]


async def test_a_raise_amount_sent_as_a_string_is_not_played(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    turn = await table.turn()
    actor = table.seats[turn["seat"]]
    ack = await actor.call("table:action", {"table_id": table.id, "hand_id": turn["hand_id"],
                                            "type": "raise", "amount": "40"})
    assert ack["error"]["code"] == "invalid_payload"
    assert ack["error"]["problems"][0]["location"] == ["amount"]
    assert not [e for e in actor.events(table.id) if e["type"] == "player_acted"]


def test_the_table_event_summary_names_every_event_type() -> None:
    doc = schemas.TableEvent.__doc__ or ""
    missing = [kind for kind in TABLE_EVENT_TYPES if f"``{kind}``" not in doc]
    assert not missing


async def test_a_refused_sit_does_not_make_the_session_a_watcher(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000], max_buy_in=20_000)
    poor: Client = await connect(await players.player(verified=False))
    ack = await poor.call("table:sit", {"table_id": table.id, "seat": 2, "buy_in": 15_000})
    assert ack["error"]["code"] == "insufficient_credits"
    live = server.realtime.host.live.get(table.id)
    assert poor.sio.get_sid() not in live.watchers
    await table.act("call")
    await table.act("check")
    await table.seats[0].wait_for("table:event", is_event("board_dealt", table.id))
    assert not [n for n, d in poor.received if n.startswith("table:")]
    await poor.disconnect()
    assert poor.sio.get_sid() not in live.watchers and len(live.watchers) == 2


async def test_a_reconnecting_player_gets_each_message_once_and_in_order(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000, 1000])
    turn = await table.turn()
    absent_seat = (turn["seat"] + 1) % 3
    old = table.seats.pop(absent_seat)
    last_seen = max(d["seq"] for name, d in old.received
                    if name.startswith("table:") and d.get("table_id") == table.id)
    await old.disconnect()
    again: Client = await connect(table.players[absent_seat])
    # The others act; the absent player's turn comes up before they ask to resume.
    await table.seats[turn["seat"]].ok("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "call"})
    await table.observer.wait_for("table:turn", lambda t: t["seat"] == absent_seat)
    assert not [n for n, _ in again.received if n.startswith("table:")]
    await again.ok("table:join", {"table_id": table.id, "since_seq": last_seen})
    await again.wait_for("table:turn", lambda t: t["seat"] == absent_seat
                         and t["legal_actions"] is not None)
    seqs = [d["seq"] for name, d in again.received if name in ("table:event", "table:turn")]
    assert seqs == list(range(last_seen + 1, last_seen + 1 + len(seqs)))
