"""What a table is asked to do: one small frozen record per request.

Code above a table posts these, and only these, to it: ``await table.ask(Sit(...))``
waits for the answer, ``table.tell(Disconnected(...))`` does not (see
:class:`~app.table.table.Table`). The table looks the record's type up and hands it to
the part that answers it (its seats, watchers, chat, dealing, host controls, closing).

A record holds plain data only (strings, numbers, booleans, enums, a
:class:`~app.table.state.Viewer`), so it pickles and encodes to JSON as it is: a
request forwarded from another process can be the same record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.poker.events import ActionKind
from app.poker.preactions import Intent
from app.table.state import Viewer

# ---- watching ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """Watch the table from session ``sid``: a snapshot now (or, with ``since_seq``, the
    events missed since), every event after; a private table wants ``invite_code``."""

    sid: str
    viewer: Viewer | None
    invite_code: str | None = None
    since_seq: int | None = None


@dataclass(frozen=True, slots=True)
class Unwatch:
    """Stop watching from session ``sid`` (a seat, if any, is kept)."""

    sid: str


@dataclass(frozen=True, slots=True)
class Disconnected:
    """Session ``sid`` (of ``user_id``, None: anonymous) ended; the seat stays."""

    sid: str
    user_id: int | None


# ---- seats -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sit:
    """Take ``seat`` buying in for ``buy_in`` from the balance (the session starts
    watching); at a private table with approval on, a request to its host."""

    sid: str
    viewer: Viewer
    seat: int
    buy_in: int
    invite_code: str | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up: cashed out now, or when the hand you are in ends."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class SitOut:
    """Stop being dealt in (the seat is kept for a while)."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class SitIn:
    """Be dealt in again, from the next big blind."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class Wait:
    """Join the waiting list of a full table."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class Unwait:
    """Leave the waiting list."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class TopUp:
    """Add ``amount`` credits to the stack between hands."""

    viewer: Viewer
    amount: int


@dataclass(frozen=True, slots=True)
class Preferences:
    """Set some of the seat's preferences (``auto_muck``, ``auto_top_up``,
    ``sit_out_next_big_blind``)."""

    viewer: Viewer
    changes: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Seed:
    """Mix ``seed`` into the shuffle of every hand that starts from now on."""

    viewer: Viewer
    seed: str


# ---- talking ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chat:
    """Say ``text`` to the table."""

    viewer: Viewer
    text: str


@dataclass(frozen=True, slots=True)
class Report:
    """What a report about the player ``public_id`` carries from this table."""

    viewer: Viewer
    public_id: str


# ---- playing ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """Act in the hand ``hand_id``."""

    viewer: Viewer
    hand_id: str
    type: ActionKind
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Preact:
    """Choose (``intent`` None: clear) what to do when your turn comes in ``hand_id``."""

    viewer: Viewer
    hand_id: str
    intent: Intent | None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class RunItTwice:
    """Answer the run-it-twice question of the hand ``hand_id``."""

    viewer: Viewer
    hand_id: str
    agree: bool


# ---- the host, the tournament, the process ---------------------------------------------


@dataclass(frozen=True, slots=True)
class HostControl:
    """Apply the host's control ``action`` with its ``args`` (the names of the parameters
    of that control, see :mod:`app.table.host`), for the ``reason`` shown to the table."""

    viewer: Viewer
    action: str
    reason: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TakeAssignedSeats:
    """At a tournament table: take the seats the tournament assigns now, and deal when a
    hand can start."""


@dataclass(frozen=True, slots=True)
class RemoveUser:
    """Take ``user_id`` away (a ban: when the hand they are in ends; a deletion:
    ``at_once``, their chips behind paid out now)."""

    user_id: int
    at_once: bool


@dataclass(frozen=True, slots=True)
class Close:
    """Close the table: void a hand in play, cash everyone out, stop."""

    reason: str


@dataclass(frozen=True, slots=True)
class CloseUnused:
    """Close the table unless a person sits there or has claimed a seat."""

    reason: str


@dataclass(frozen=True, slots=True)
class HandOver:
    """Between hands, give this process's lease on the table to the process ``to``; the
    answer is None while a hand is in play, else whether the database took the change."""

    to: str


Command = (Join | Unwatch | Disconnected | Sit | Leave | SitOut | SitIn | Wait | Unwait
           | TopUp | Preferences | Seed | Chat | Report | Act | Preact | RunItTwice
           | HostControl | TakeAssignedSeats | RemoveUser | Close | CloseUnused | HandOver)
"""Every request a table answers."""
