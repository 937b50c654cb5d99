"""Errors of one table a client can act on, each with a stable code (sent in acks)."""

from __future__ import annotations

from app.errors import HoldemError


class InvalidPayload(HoldemError):
    """The payload is not what the event expects (details: ``problems``)."""

    code = "invalid_payload"
    status = 422


class InviteRequired(HoldemError):
    """A private table needs its invite code."""

    code = "invite_required"
    status = 403


class SeatTaken(HoldemError):
    """Somebody already sits there (or the seat is offered to a waiting player)."""

    code = "seat_taken"
    status = 409


class NoSuchSeat(HoldemError):
    """The table has no seat with this number."""

    code = "no_such_seat"


class AlreadySeated(HoldemError):
    """You already have a seat at this table."""

    code = "already_seated"
    status = 409


class TableLimit(HoldemError):
    """You have reached a limit on tables (``limit``): open, seated, or connections."""

    code = "table_limit"
    status = 409


class NotSeated(HoldemError):
    """You have no seat at this table."""

    code = "not_seated"
    status = 409


class InvalidBuyIn(HoldemError):
    """The buy-in or top-up is outside the table's limits (details: ``min``, ``max``)."""

    code = "invalid_buy_in"


class HandInProgress(HoldemError):
    """Only between hands (a top-up while you are in a hand)."""

    code = "hand_in_progress"
    status = 409


class StaleAction(HoldemError):
    """The action names a hand that is not the one being played."""

    code = "stale_action"
    status = 409


class DuplicateAction(HoldemError):
    """The same action was already applied; this copy changed nothing."""

    code = "duplicate_action"
    status = 409


class NotWaiting(HoldemError):
    """The waiting list is only for full tables (or you are not on it)."""

    code = "waiting_list_unavailable"
    status = 409


class TableClosed(HoldemError):
    """The table closed while the request waited."""

    code = "table_closed"
    status = 410


class InternalError(HoldemError):
    """Something failed on the server; nothing the client did."""

    code = "internal_error"
    status = 500


class TableMoved(HoldemError):
    """The table is moving to another server process: send the request again (``retry_after``)."""

    code = "table_moved"
    status = 503


class HouseCapReached(HoldemError):
    """You have won the house's daily cap from its bots (``cap``, ``won``): no table with bots
    seats you until ``resets_at`` (Unix time, 00:00 UTC)."""

    code = "house_cap_reached"
    status = 409


class TableInUse(HoldemError):
    """A person sits at the table or has claimed a seat there: it stays open while they do."""

    code = "table_in_use"
    status = 409


class TournamentSeat(HoldemError):
    """Seats at a tournament table are assigned by the tournament."""

    code = "tournament_seat"
    status = 409


class NotHost(HoldemError):
    """Only the table's host (or an admin) may use the host's controls."""

    code = "not_host"
    status = 403


class NoSuchRequest(HoldemError):
    """Nobody with that id asks the host for a seat at this table."""

    code = "no_such_request"
    status = 404


class PreActionStale(HoldemError):
    """The pre-action no longer fits the hand: "check" with a bet to call, or "call" for
    another amount than the bet to call now (details: ``to_call``)."""

    code = "preaction_stale"
    status = 409


class PreActionNotNow(HoldemError):
    """No pre-action can be set now: it is your turn (act instead), or you have folded,
    are all-in or are not in this hand's betting."""

    code = "preaction_not_now"
    status = 409


class NotAtTable(HoldemError):
    """The player named is neither seated at this table nor in its recent chat."""

    code = "not_at_table"
    status = 404


class CannotReportSelf(HoldemError):
    """A player cannot report themselves."""

    code = "cannot_report_self"
    status = 422


class RakeNotAllowed(HoldemError):
    """Only an admin may rake a table, and only a public one (a private game is the
    players' own)."""

    code = "rake_not_allowed"
    status = 403
