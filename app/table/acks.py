"""What a table answers the requests it runs: one frozen record per kind of answer.

A request's answer travels up as a record; the socket edge turns it into the ack's body
(``{"ok": true, ...the record's fields}``, :func:`app.realtime.dispatch.ack`), and the
protocol page shows these records' fields. Answers not listed here are still plain
dicts.

>>> Acted(table_id="t1", hand_id="h1", seq=48).model_dump()
{'table_id': 't1', 'hand_id': 'h1', 'seq': 48}
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.table.events import Record


class Answer(Record):
    """A request's answer: the body of its ack, less ``ok``."""

    table_id: str


class Acted(Answer):
    """``table:action`` and ``table:run-it-twice``: the hand acted in, and the table's
    ``seq`` after it."""

    hand_id: str
    seq: int


class Sat(Answer):
    """``table:sit`` (and ``table:quick-seat``): the seat taken and the buy-in."""

    seat: int
    buy_in: int
    balance: int | None = Field(description="Your credits after the buy-in")
    pending: bool = Field(description="You took a bot's seat during a hand: you sit down "
                                      "when it ends")


class SeatAsked(Answer):
    """``table:sit`` at a table whose host approves seats: the request waits for the host."""

    seat: int
    buy_in: int
    balance: None = None
    pending: Literal[False] = False
    requested: Literal[True] = True


class Joined(Answer):
    """``table:join``: the table's ``seq`` now, and how many missed messages were replayed
    (null: a snapshot was sent instead)."""

    seq: int
    replayed: int | None


class Unwatched(Answer):
    """``table:unwatch``: the table no longer watched."""


class Left(Answer):
    """``table:leave``: the credits cashed out now, or null with ``at_hand_end`` when the
    player stands up at the end of the hand they are in."""

    cashed_out: int | None
    at_hand_end: bool


class LeftSittingOut(Answer):
    """``table:leave`` at a tournament table: the player sits out (and is blinded away
    until back); nothing is cashed out."""

    status: str
    cashed_out: None = None
    at_hand_end: Literal[False] = False


class Standing(Answer):
    """``table:sit-out`` and ``table:sit-in``: the seat's status now."""

    status: str = Field(description="playing, sitting_out or waiting_for_big_blind")


ANSWERS: tuple[type[Answer], ...] = (Acted, Sat, SeatAsked, Joined, Unwatched, Left,
                                     LeftSittingOut, Standing)
