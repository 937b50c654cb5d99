"""What a table tells its watchers, besides the hand's own events: one frozen record per
kind of ``table:event``.

The table builds these records; :meth:`app.table.core.TableCore.event` turns each into
its wire form (:func:`payload`), the one place that does. The same classes are the
protocol's documentation: :mod:`app.realtime.schemas` describes a ``table:event``'s
``event`` as the union of these records (discriminated on ``type``) and the engine's hand
events (:mod:`app.poker.events`), which the table sends as they are.

>>> payload(PlayerSatOut(seat=4))
{'type': 'player_sat_out', 'seat': 4}
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from app.poker.bots import BotStyle


class Record(BaseModel):
    """A frozen record of what a table announces: nothing but its declared fields (each
    sent, defaults included: a schema of what is sent marks every one required)."""

    model_config = ConfigDict(frozen=True, extra="forbid",
                              json_schema_serialization_defaults_required=True)


class PlayerPublic(Record):
    """Someone at a table: a person (``public_id``) or a bot (``bot`` is its style)."""

    public_id: str
    name: str
    bot: BotStyle | None = None


class SeatStack(Record):
    """A seat dealt into a hand, with the stack it started the hand with."""

    seat: int
    stack: int


class HandStarted(Record):
    """``hand_started``: a hand begins (see the protocol page for each field)."""

    type: Literal["hand_started"] = "hand_started"
    number: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    seats: list[SeatStack]
    commitment: str | None = Field(description="SHA-256 of the hand's server seed")
    bomb_pot: int = Field(description="The ante everyone paid in a bomb pot, else 0")
    run_it_twice: bool
    game: str
    stakes: dict[str, Any] = Field(description="`small_blind`, `big_blind`, `ante`, "
                                               "`big_blind_ante`, `straddle`")


class HandVoided(Record):
    """``hand_voided``: the hand was cancelled; every seat has the stack it started it with."""

    type: Literal["hand_voided"] = "hand_voided"
    reason: str


class PlayerSat(Record):
    """``player_sat``: someone sat down (a person or a bot)."""

    type: Literal["player_sat"] = "player_sat"
    seat: int
    player: PlayerPublic
    stack: int
    status: str = Field(description="playing, sitting_out or waiting_for_big_blind")


class PlayerLeft(Record):
    """``player_left``: someone stood up, with the stack they left with."""

    type: Literal["player_left"] = "player_left"
    seat: int
    player: PlayerPublic
    stack: int


class PlayerLeaving(Record):
    """``player_leaving``: a player in a hand asked to leave; they stand up when it ends."""

    type: Literal["player_leaving"] = "player_leaving"
    seat: int


class PlayerSatOut(Record):
    """``player_sat_out``: a player sat out."""

    type: Literal["player_sat_out"] = "player_sat_out"
    seat: int


class PlayerSatIn(Record):
    """``player_sat_in``: a player is back."""

    type: Literal["player_sat_in"] = "player_sat_in"
    seat: int


class PlayerTimedOut(Record):
    """``player_timed_out``: a player's clock ran out; the server acted for them."""

    type: Literal["player_timed_out"] = "player_timed_out"
    seat: int


class PlayerConnection(Record):
    """``player_connection``: a seated player's connection came or went."""

    type: Literal["player_connection"] = "player_connection"
    seat: int
    connected: bool


class StackChanged(Record):
    """``stack_changed``: a stack grew between hands by ``added`` (a top-up, a rebuy)."""

    type: Literal["stack_changed"] = "stack_changed"
    seat: int
    stack: int
    added: int


class ChatSaid(Record):
    """``chat``: a chat line."""

    type: Literal["chat"] = "chat"
    player: PlayerPublic
    text: str
    at: float = Field(description="Unix time in seconds")


class ChatWithheld(Record):
    """``chat_withheld``: a chat line of a player you ignore, in its place."""

    type: Literal["chat_withheld"] = "chat_withheld"


class WaitingListChanged(Record):
    """``waiting_list``: the waiting list's length changed."""

    type: Literal["waiting_list"] = "waiting_list"
    count: int


class TableClosed(Record):
    """``table_closed``: the table closed; everyone was cashed out."""

    type: Literal["table_closed"] = "table_closed"
    reason: str


class HostControlled(Record):
    """``host_control``: the host applied a control. Its details (``seat``, ``player``,
    ``stakes``, ``at_hand_end``, ...) depend on ``action`` and follow the fields below."""

    # The details differ by action: the only record that takes fields it does not name.
    model_config = ConfigDict(frozen=True, extra="allow",
                              json_schema_serialization_defaults_required=True)

    type: Literal["host_control"] = "host_control"
    action: str
    reason: str
    by: PlayerPublic
    at: float
    hand_number: int


class SeatRequested(Record):
    """``seat_requested``: someone asks the host for a seat."""

    type: Literal["seat_requested"] = "seat_requested"
    player: PlayerPublic
    seat: int
    buy_in: int
    at: float


class SeatRequestClosed(Record):
    """``seat_request_closed``: a seat request was refused (or approval turned off)."""

    type: Literal["seat_request_closed"] = "seat_request_closed"
    player: PlayerPublic


class AwayEnded(Record):
    """``away_ended``: the time kept for an away player ran out."""

    type: Literal["away_ended"] = "away_ended"
    seat: int


TableEventRecord = (
    HandStarted | HandVoided | PlayerSat | PlayerLeft | PlayerLeaving | PlayerSatOut
    | PlayerSatIn | PlayerTimedOut | PlayerConnection | StackChanged | ChatSaid
    | ChatWithheld | WaitingListChanged | TableClosed | HostControlled | SeatRequested
    | SeatRequestClosed | AwayEnded
)
TABLE_EVENT_RECORDS: tuple[type[Record], ...] = get_args(TableEventRecord)


def payload(record: Record) -> dict[str, Any]:
    """The record as the JSON-safe ``event`` of a ``table:event``."""
    return record.model_dump(mode="json")
