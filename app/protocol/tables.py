"""The tables' part of the protocol: their requests, server events, errors and examples."""

from __future__ import annotations

from pydantic import BaseModel

from app.accounts import errors as account_errors
from app.chat.safety import Muted
from app.db import ledger
from app.errors import HoldemError, ServiceUnavailable
from app.hosting import errors as host_errors
from app.poker import errors as engine_errors
from app.protocol.page import ProtocolPart, Request
from app.protocol.table_examples import (
    ACK_FIELDS,
    ACKS,
    REQUEST_EXAMPLES,
    SERVER_EXAMPLES,
)
from app.realtime import errors as edge_errors
from app.realtime import schemas as s
from app.table import acks
from app.table import errors as table_errors

REQUESTS = (
    Request("lobby:list", s.LobbyListRequest, login=False),
    Request("lobby:mine", s.LobbyMine),
    Request("table:create", s.TableCreate),
    Request("table:close", s.TableRef),
    Request("table:quick-seat", s.QuickSeat),
    Request("table:join", s.TableJoin, login=False),
    Request("table:unwatch", s.TableRef, login=False),
    Request("table:sit", s.TableSit),
    Request("table:leave", s.TableRef),
    Request("table:sit-out", s.TableRef),
    Request("table:sit-in", s.TableRef),
    Request("table:top-up", s.TableTopUp),
    Request("table:preferences", s.TablePreferences),
    Request("table:wait", s.TableRef),
    Request("table:unwait", s.TableRef),
    Request("table:chat", s.TableChat),
    Request("table:report", s.TableReport),
    Request("table:seed", s.TableSeed),
    Request("table:action", s.TableAction),
    Request("table:preact", s.TablePreact),
    Request("table:run-it-twice", s.TableRunItTwice),
    Request("table:host", s.TableHost),
)

SERVER_EVENTS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("table:snapshot", s.Snapshot),
    ("table:event", s.TableEvent),
    ("table:turn", s.TurnInfo),
    ("table:preaction", s.PreActionNotice),
    ("table:batch", s.TableBatch),
    ("lobby:table", s.TableSummary),
    ("lobby:table-removed", s.LobbyRemoved),
    ("user:notice", s.Notice),
    ("server:restarting", s.ServerRestarting),
    ("announcement", s.Announcement),
)

OBJECTS: tuple[type[BaseModel], ...] = (
    s.MyTable, s.PlayerPublic, s.SeatPublic, s.TableConfigPublic, s.ChatLine,
    s.FairnessPublic, s.ErrorBody, s.TimeBankPublic, s.PreActionPublic,
)

REQUEST_DOCS = {
    "lobby:list": "List the open tables and subscribe to `lobby:table` updates.",
    "table:close": "Close a table you opened while no person sits or has claimed a seat "
                   "there (bots stand up, their stacks go back to the house; watchers get "
                   "`table_closed`). A table nobody uses also closes by itself after a "
                   "while; admins close any table from `/admin`.",
    "table:unwatch": "Stop receiving a table's events (a seat you hold is kept).",
    "table:leave": "Stand up. Cashed out at once, or at the end of the hand you are in "
                   "(your turns are then checked or folded for you).",
    "table:sit-out": "Stop being dealt in; the seat is kept for a while, then cashed out.",
    "table:sit-in": "Be dealt in again, from the next time the big blind reaches you.",
    "table:wait": "Join the waiting list of a table with no free seat.",
    "table:unwait": "Leave the waiting list.",
    "table:chat": "Say something to the table. Listed words are masked; a player an admin "
                  "muted is refused with `muted` (its `until`, a Unix time); players who "
                  "ignore you (`/users/me/ignored`) never receive your lines.",
    "table:report": "Report a player seated at this table or in its recent chat to the "
                    "admins, with a reason; the table's last chat lines and its current "
                    "(else last) hand are stored with it. Rate-limited per player.",
}

# The errors of the tables (and of what they build on).
ERROR_CLASSES: tuple[type[HoldemError], ...] = (
    table_errors.InvalidPayload, account_errors.NotAuthenticated, account_errors.AccountBanned,
    host_errors.TableNotFound, table_errors.TableClosed, table_errors.InviteRequired,
    table_errors.NoSuchSeat, table_errors.SeatTaken, table_errors.AlreadySeated,
    table_errors.NotSeated, table_errors.InvalidBuyIn, ledger.InsufficientCredits,
    table_errors.HandInProgress, table_errors.NotWaiting, account_errors.RateLimited,
    table_errors.StaleAction, table_errors.DuplicateAction, engine_errors.NotYourTurn,
    engine_errors.NotInHand, engine_errors.WrongPhase, engine_errors.HandOver,
    engine_errors.InvalidAction, engine_errors.CannotCheck, engine_errors.CannotRaise,
    engine_errors.BetTooSmall, engine_errors.BetTooLarge, engine_errors.NotAsked,
    table_errors.TableLimit, edge_errors.ConnectionLimit, edge_errors.InvalidQuery,
    edge_errors.NotYourTable,
    table_errors.TableInUse, table_errors.HouseCapReached,
    host_errors.TablesElsewhere, table_errors.TableMoved, ServiceUnavailable,
    table_errors.InternalError,
    table_errors.TournamentSeat, table_errors.NotHost, table_errors.NoSuchRequest,
    table_errors.PreActionStale, table_errors.PreActionNotNow,
    Muted, table_errors.NotAtTable, table_errors.CannotReportSelf,
)

# The table's answers (app.table.acks) each ack is made from, by request.
ACK_RECORDS: dict[str, tuple[type[BaseModel], ...]] = {
    "table:join": (acks.Joined,),
    "table:unwatch": (acks.Unwatched,),
    "table:sit": (acks.Sat, acks.SeatAsked),
    "table:quick-seat": (acks.Sat,),
    "table:leave": (acks.Left, acks.LeftSittingOut),
    "table:sit-out": (acks.Standing,),
    "table:sit-in": (acks.Standing,),
    "table:action": (acks.Acted,),
    "table:run-it-twice": (acks.Acted,),
    "table:top-up": (acks.ToppedUp,),
    "table:preferences": (acks.Preferred,),
    "table:wait": (acks.Waiting,),
    "table:unwait": (acks.Unwaited,),
    "table:chat": (acks.Said,),
    "table:seed": (acks.Seeded,),
    "table:host": (acks.HostApplied,),
    "table:preact": (acks.Preacted,),
    "table:close": (acks.Closed,),
}

TABLES = ProtocolPart(
    requests=REQUESTS, server_events=SERVER_EVENTS, errors=ERROR_CLASSES,
    request_docs=REQUEST_DOCS, request_examples=REQUEST_EXAMPLES, acks=ACKS,
    ack_fields=ACK_FIELDS, server_examples=SERVER_EXAMPLES, objects=OBJECTS,
    ack_records=ACK_RECORDS,
)
