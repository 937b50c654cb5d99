"""A table's answers become acks at the socket edge: each record gives exactly the ack
body clients have always read, and the protocol page's ack examples are such records."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from app.protocol.table_examples import ACKS
from app.protocol.tables import ACK_RECORDS
from app.realtime.dispatch import ack
from app.table import acks as a

# Each answer, and the ack the edge built from the table's dict before it was a record.
ACKED: list[tuple[a.Answer, dict[str, Any]]] = [
    (a.Acted(table_id="t1", hand_id="h1", seq=48),
     {"ok": True, "table_id": "t1", "hand_id": "h1", "seq": 48}),
    (a.Sat(table_id="t1", seat=2, buy_in=1000, balance=9000, pending=False),
     {"ok": True, "table_id": "t1", "seat": 2, "buy_in": 1000, "balance": 9000,
      "pending": False}),
    (a.SeatAsked(table_id="t1", seat=3, buy_in=500),
     {"ok": True, "table_id": "t1", "seat": 3, "buy_in": 500, "balance": None,
      "pending": False, "requested": True}),
    (a.Joined(table_id="t1", seq=44, replayed=None),
     {"ok": True, "table_id": "t1", "seq": 44, "replayed": None}),
    (a.Unwatched(table_id="t1"), {"ok": True, "table_id": "t1"}),
    (a.Left(table_id="t1", cashed_out=None, at_hand_end=True),
     {"ok": True, "table_id": "t1", "cashed_out": None, "at_hand_end": True}),
    (a.LeftSittingOut(table_id="t1", status="sitting_out"),
     {"ok": True, "table_id": "t1", "status": "sitting_out", "cashed_out": None,
      "at_hand_end": False}),
    (a.Standing(table_id="t1", status="waiting_for_big_blind"),
     {"ok": True, "table_id": "t1", "status": "waiting_for_big_blind"}),
    (a.ToppedUp(table_id="t1", stack=1000, balance=8700),
     {"ok": True, "table_id": "t1", "stack": 1000, "balance": 8700}),
    (a.Preferred(table_id="t1", auto_muck=True, auto_top_up=False,
                 sit_out_next_big_blind=False),
     {"ok": True, "table_id": "t1", "auto_muck": True, "auto_top_up": False,
      "sit_out_next_big_blind": False}),
    (a.Waiting(table_id="t1", position=2), {"ok": True, "table_id": "t1", "position": 2}),
    (a.Unwaited(table_id="t1"), {"ok": True, "table_id": "t1"}),
    (a.Said(table_id="t1", seq=57), {"ok": True, "table_id": "t1", "seq": 57}),
    (a.Seeded(table_id="t1", seat=2, next_commitment="c" * 64),
     {"ok": True, "table_id": "t1", "seat": 2, "next_commitment": "c" * 64}),
    (a.Preacted(table_id="t1", hand_id="h1",
                preaction=a.PreActionPublic(intent="call", amount=20)),
     {"ok": True, "table_id": "t1", "hand_id": "h1",
      "preaction": {"intent": "call", "amount": 20}}),
    (a.Closed(table_id="t1", paid_out=0), {"ok": True, "table_id": "t1", "paid_out": 0}),
    (a.HostApplied(table_id="t1", action="stakes", seq=64),
     {"ok": True, "table_id": "t1", "action": "stakes", "seq": 64}),
]


@pytest.mark.parametrize(("answer", "old"), ACKED, ids=[type(x).__name__ for x, _ in ACKED])
def test_each_answer_is_acked_as_exactly_the_body_clients_read(
    answer: a.Answer, old: dict[str, Any]
) -> None:
    assert orjson.dumps(ack(answer)) == orjson.dumps(old)


def test_every_answer_record_has_its_ack_checked_above() -> None:
    assert {type(answer) for answer, _ in ACKED} == set(a.ANSWERS)


def test_an_answer_that_is_still_a_dict_is_acked_as_it_is() -> None:
    assert ack({"table_id": "t1", "position": 2}) == {"ok": True, "table_id": "t1",
                                                      "position": 2}


@pytest.mark.parametrize("name", sorted(name for name in ACK_RECORDS if ACKS[name]["ok"]))
def test_the_documented_ack_of_a_request_is_one_of_its_answer_records(name: str) -> None:
    example = ACKS[name]
    body = {key: value for key, value in example.items() if key != "ok"}
    made = []
    for record in ACK_RECORDS[name]:
        try:
            made.append(ack(record.model_validate(body)))
        except ValueError:
            continue
    assert made == [example]


def test_an_answer_takes_no_field_it_does_not_name() -> None:
    with pytest.raises(ValueError):
        a.Acted(table_id="t1", hand_id="h1", seq=4, amount=10)  # type: ignore[call-arg]
