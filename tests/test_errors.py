"""Validation errors in people's words, from one place for the REST API and Socket.IO: the
field by name, what is wrong in plain words, numbers with thousands separators; the code
(``invalid_payload``) and each problem's location stay as they were."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import httpx
import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.errors import problems_summary, validation_problems
from tests.conftest import Accounts
from tests.realtime.harness import connect, http, players, server

__all__ = ["connect", "http", "players", "server"]


class Stakes(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    small_blind: Annotated[int, Field(ge=1, le=10**9)]
    big_blind: Annotated[int, Field(ge=1, le=10**9)]
    min_buy_in: int | None = None
    seconds: float = Field(10, gt=0, le=300)
    style: Literal["tight", "loose"] = "tight"
    name: Annotated[str, Field(min_length=1, max_length=40)] = "table"
    hands: Annotated[list[int], Field(min_length=2)] = [1, 2]

    @model_validator(mode="after")
    def _ordered(self) -> Stakes:
        if self.small_blind > self.big_blind:
            raise ValueError("small_blind must not exceed big_blind")
        return self


def said(payload: dict[str, Any]) -> list[tuple[list[str], str]]:
    with pytest.raises(ValidationError) as refused:
        Stakes.model_validate(payload)
    return [(p["location"], p["message"]) for p in validation_problems(refused.value.errors())]


@pytest.mark.parametrize(("payload", "problem"), [
    ({"small_blind": 0, "big_blind": 2}, (["small_blind"], "Small blind must be at least 1.")),
    ({"small_blind": 1, "big_blind": 2_000_000_000},
     (["big_blind"], "Big blind must be at most 1,000,000,000.")),
    ({"small_blind": 1, "big_blind": 2, "seconds": 301.0},
     (["seconds"], "Seconds must be at most 300.")),
    ({"small_blind": "5", "big_blind": 10},
     (["small_blind"], "Small blind must be a whole number.")),
    ({"big_blind": 10}, (["small_blind"], "Small blind is required.")),
    ({"small_blind": 1, "big_blind": 2, "min_buy_in": "lots"},
     (["min_buy_in"], "Minimum buy-in must be a whole number.")),
    ({"small_blind": 1, "big_blind": 2, "style": "wild"},
     (["style"], "Style must be 'tight' or 'loose'.")),
    ({"small_blind": 1, "big_blind": 2, "name": ""}, (["name"], "Name must not be empty.")),
    ({"small_blind": 1, "big_blind": 2, "name": "x" * 41},
     (["name"], "Name must be at most 40 characters long.")),
    ({"small_blind": 1, "big_blind": 2, "hands": [1]},
     (["hands"], "Hands must have at least 2 items.")),
    ({"small_blind": 1, "big_blind": 2, "hands": [1, "two"]},
     (["hands", "1"], "Hands (item 2) must be a whole number.")),
    ({"small_blind": 1, "big_blind": 2, "colour": "red"},
     (["colour"], "Colour is not something this accepts.")),
    ({"small_blind": 20, "big_blind": 10}, ([], "Small blind must not exceed big blind.")),
])
def test_each_problem_is_a_sentence_about_its_field(
    payload: dict[str, Any], problem: tuple[list[str], str]
) -> None:
    assert said(payload) == [problem]


def test_the_message_is_every_problem_in_order() -> None:
    with pytest.raises(ValidationError) as refused:
        Stakes.model_validate({"small_blind": 0, "big_blind": 0})
    problems = validation_problems(refused.value.errors())
    assert problems_summary(problems, "unused") == (
        "Small blind must be at least 1. Big blind must be at least 1.")
    assert problems_summary([], "The request is invalid.") == "The request is invalid."


def test_rest_locations_keep_their_source_but_the_field_is_named() -> None:
    with pytest.raises(ValidationError) as refused:
        Stakes.model_validate({"small_blind": 0, "big_blind": 2})
    rest = [{**error, "loc": ("body", *error["loc"])} for error in refused.value.errors()]
    assert validation_problems(rest, source_parts=1) == [
        {"location": ["body", "small_blind"], "message": "Small blind must be at least 1."}]


async def test_the_rest_api_says_what_is_wrong_in_plain_words(http: httpx.AsyncClient) -> None:
    response = await http.post("/tools/equity", json={"hands": ["AhKh"], "seed": 2**40})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_payload"
    assert error["message"] == ("Hands must have at least 2 items. "
                                "Seed must be at most 4,294,967,295.")
    assert [p["location"] for p in error["problems"]] == [["body", "hands"], ["body", "seed"]]


async def test_a_socket_request_is_refused_in_plain_words(
    server: Any, players: Accounts, connect: Any
) -> None:
    client = await connect(await players.player())
    ack = await client.call("table:create", {"name": "Upside down", "small_blind": 20,
                                             "big_blind": 10})
    assert ack["error"]["code"] == "invalid_payload"
    assert ack["error"]["message"] == "Small blind must not exceed big blind."
    ack = await client.call("table:create", {"name": "Negative", "small_blind": 5,
                                             "big_blind": 10, "ante": -1})
    assert ack["error"]["message"] == "Ante must be at least 0."
    assert ack["error"]["problems"] == [{"location": ["ante"],
                                         "message": "Ante must be at least 0."}]
