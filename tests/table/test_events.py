"""A table's event records: each turns into exactly the payload clients have always read,
and the protocol's schema of ``table:event`` is these same records."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from app.poker.bots import BotStyle
from app.poker.events import EVENT_TYPES
from app.protocol.table_examples import EVENT_EXAMPLES, TABLE_EVENT_TYPES
from app.realtime import schemas
from app.table import events as e
from app.table.state import Person

ALICE = {"public_id": "a" * 32, "name": "alice", "bot": None}
BOT = {"public_id": "b" * 32, "name": "Bot 1", "bot": "tight"}
alice = e.PlayerPublic(public_id="a" * 32, name="alice")
bot = e.PlayerPublic(public_id="b" * 32, name="Bot 1", bot=BotStyle.TIGHT)
STAKES = {"small_blind": 5, "big_blind": 10, "ante": 0, "big_blind_ante": False,
          "straddle": 0}

# Each record, and the dict literal the table built for it before it was a record.
PAYLOADS: list[tuple[e.Record, dict[str, Any]]] = [
    (e.HandStarted(number=12, button=0, small_blind_seat=2, big_blind_seat=4,
                   seats=[e.SeatStack(seat=2, stack=1000), e.SeatStack(seat=4, stack=640)],
                   commitment="c" * 64, bomb_pot=0, run_it_twice=False, game="nlhe",
                   stakes=STAKES),
     {"type": "hand_started", "number": 12, "button": 0, "small_blind_seat": 2,
      "big_blind_seat": 4, "seats": [{"seat": 2, "stack": 1000}, {"seat": 4, "stack": 640}],
      "commitment": "c" * 64, "bomb_pot": 0, "run_it_twice": False, "game": "nlhe",
      "stakes": STAKES}),
    (e.HandVoided(reason="the server restarted"),
     {"type": "hand_voided", "reason": "the server restarted"}),
    (e.PlayerSat(seat=2, player=bot, stack=1000, status="playing"),
     {"type": "player_sat", "seat": 2, "player": BOT, "stack": 1000, "status": "playing"}),
    (e.PlayerLeft(seat=4, player=alice, stack=700),
     {"type": "player_left", "seat": 4, "player": ALICE, "stack": 700}),
    (e.PlayerLeaving(seat=4), {"type": "player_leaving", "seat": 4}),
    (e.PlayerSatOut(seat=4), {"type": "player_sat_out", "seat": 4}),
    (e.PlayerSatIn(seat=4), {"type": "player_sat_in", "seat": 4}),
    (e.PlayerTimedOut(seat=4), {"type": "player_timed_out", "seat": 4}),
    (e.PlayerConnection(seat=4, connected=False),
     {"type": "player_connection", "seat": 4, "connected": False}),
    (e.StackChanged(seat=2, stack=1000, added=300),
     {"type": "stack_changed", "seat": 2, "stack": 1000, "added": 300}),
    (e.ChatSaid(player=alice, text="nice hand", at=1795323601.5),
     {"type": "chat", "player": ALICE, "text": "nice hand", "at": 1795323601.5}),
    (e.ChatWithheld(), {"type": "chat_withheld"}),
    (e.WaitingListChanged(count=2), {"type": "waiting_list", "count": 2}),
    (e.TableClosed(reason="closed by an admin"),
     {"type": "table_closed", "reason": "closed by an admin"}),
    (e.HostControlled(action="remove", reason="rude", by=alice, at=1795323601.5,
                      hand_number=41, seat=4, player=BOT, at_hand_end=True),
     {"type": "host_control", "action": "remove", "reason": "rude", "by": ALICE,
      "at": 1795323601.5, "hand_number": 41, "seat": 4, "player": BOT, "at_hand_end": True}),
    (e.SeatRequested(player=alice, seat=3, buy_in=500, at=1795323601.5),
     {"type": "seat_requested", "player": ALICE, "seat": 3, "buy_in": 500,
      "at": 1795323601.5}),
    (e.SeatRequestClosed(player=alice), {"type": "seat_request_closed", "player": ALICE}),
    (e.AwayEnded(seat=4), {"type": "away_ended", "seat": 4}),
]


@pytest.mark.parametrize(("record", "old"), PAYLOADS,
                         ids=[type(record).__name__ for record, _ in PAYLOADS])
def test_each_record_is_sent_as_exactly_the_payload_clients_read(
    record: e.Record, old: dict[str, Any]
) -> None:
    assert orjson.dumps(e.payload(record)) == orjson.dumps(old)


def test_every_table_event_record_has_its_payload_checked_above() -> None:
    assert {type(record) for record, _ in PAYLOADS} == set(e.TABLE_EVENT_RECORDS)


def test_a_record_takes_no_field_it_does_not_name_and_cannot_be_changed() -> None:
    with pytest.raises(ValidationError):
        e.PlayerSatOut(seat=4, stack=10)  # type: ignore[call-arg]
    record = e.PlayerSatOut(seat=4)
    with pytest.raises(ValidationError):
        record.seat = 5  # type: ignore[misc]


def test_a_person_is_the_same_player_as_a_record_and_as_a_dict() -> None:
    person = Person(7, "a" * 32, "alice")
    assert e.payload(person.record(BotStyle.TIGHT)) == person.public(BotStyle.TIGHT)
    assert schemas.PlayerPublic is e.PlayerPublic


@pytest.mark.parametrize(("record", "old"), PAYLOADS,
                         ids=[type(record).__name__ for record, _ in PAYLOADS])
def test_the_table_event_schema_reads_each_payload_back_as_its_record(
    record: e.Record, old: dict[str, Any]
) -> None:
    message = schemas.TableEvent.model_validate({"table_id": "t1", "seq": 3, "event": old})
    assert message.event == record


def test_the_table_event_schema_refuses_a_table_event_of_the_wrong_shape() -> None:
    with pytest.raises(ValidationError):
        schemas.TableEvent.model_validate(
            {"table_id": "t1", "seq": 3, "event": {"type": "player_sat_out", "seat": "four"}})
    with pytest.raises(ValidationError):
        schemas.TableEvent.model_validate(
            {"table_id": "t1", "seq": 3, "event": {"type": "stack_changed", "seat": 2}})
    with pytest.raises(ValidationError):
        schemas.TableEvent.model_validate(
            {"table_id": "t1", "seq": 3, "event": {"type": "no_such_event"}})


def test_every_event_type_is_documented_with_an_example() -> None:
    records = {record.model_fields["type"].default for record in e.TABLE_EVENT_RECORDS}
    hand = set(EVENT_TYPES) | {"all_in_equity"}
    assert set(TABLE_EVENT_TYPES) == records | hand == set(EVENT_EXAMPLES)
    assert set(schemas.HandEventType.__args__) == hand
