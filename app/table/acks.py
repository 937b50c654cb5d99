"""What a table answers the requests it runs: one frozen record per kind of answer.

A request's answer travels up as a record; the socket edge turns it into the ack's body
(``{"ok": true, ...the record's fields}``, :func:`app.realtime.dispatch.ack`), and the
protocol page shows these records' fields and checks its examples against them. (What
a report takes from the table, :meth:`app.table.chat.TableChat.report`, is no ack: the
edge stores it with the report.)

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


class ToppedUp(Answer):
    """``table:top-up``: the stack after the top-up, and the credits left."""

    stack: int
    balance: int


class Preferred(Answer):
    """``table:preferences``: every preference of the seat, as it now stands."""

    auto_muck: bool
    auto_top_up: bool
    sit_out_next_big_blind: bool


class Waiting(Answer):
    """``table:wait``: the place on the waiting list (1 is next)."""

    position: int


class Unwaited(Answer):
    """``table:unwait``: off the waiting list."""


class Said(Answer):
    """``table:chat``: the ``seq`` of the chat line's ``table:event``."""

    seq: int


class Seeded(Answer):
    """``table:seed``: the seat whose seed it is, and the commitment of the next hand's
    server seed."""

    seat: int
    next_commitment: str


class Closed(Answer):
    """``table:close`` (and an admin's close): the credits paid back to people (0: nobody
    sat there)."""

    paid_out: int


PreActionName = Literal["check_fold", "check", "call", "call_any", "fold_any"]


class PreActionPublic(Record):
    """A pre-action as its owner sees it."""

    intent: PreActionName
    amount: int | None = Field(description="The bet to call a `call` is bound to; null "
                                           "for the others")


class Preacted(Answer):
    """``table:preact``: the hand, and the pre-action held in it now."""

    hand_id: str
    preaction: PreActionPublic | None = Field(description="The one you hold now (null "
                                                          "once cleared)")


class HostApplied(Answer):
    """``table:host``: the control applied, and the ``seq`` of its ``host_control`` event."""

    action: str
    seq: int


ANSWERS: tuple[type[Answer], ...] = (
    Acted, Sat, SeatAsked, Joined, Unwatched, Left, LeftSittingOut, Standing, ToppedUp,
    Preferred, Waiting, Unwaited, Said, Seeded, Preacted, HostApplied, Closed,
)
