"""Errors of tournament registration and play, each with a stable code."""

from __future__ import annotations

from app.errors import HoldemError


class TournamentNotFound(HoldemError):
    """No tournament has this id."""

    code = "tournament_not_found"
    status = 404


class RegistrationClosed(HoldemError):
    """The tournament no longer takes entries (it started, or late registration ended)."""

    code = "registration_closed"
    status = 409


class TournamentFull(HoldemError):
    """Every seat of the tournament is taken."""

    code = "tournament_full"
    status = 409


class AlreadyRegistered(HoldemError):
    """You already have an entry that is still in the tournament."""

    code = "already_registered"
    status = 409


class ReentryNotAllowed(HoldemError):
    """This tournament allows no more entries for you."""

    code = "reentry_not_allowed"
    status = 409


class NotRegistered(HoldemError):
    """You have no entry you could withdraw in this tournament."""

    code = "not_registered"
    status = 409


class WrongTournamentState(HoldemError):
    """The tournament is not in the state this needs ("expected X, got Y")."""

    code = "wrong_tournament_state"
    status = 409


class DealNotNow(HoldemError):
    """A deal is agreed between hands, and not again until a hand was played since the
    last offer lapsed."""

    code = "deal_not_now"
    status = 409


class DealUnavailable(HoldemError):
    """No deal can be made in this tournament now (a bot is still in, or late
    registration is open)."""

    code = "deal_unavailable"
    status = 409


class ScheduleNotFound(HoldemError):
    """No recurring tournament has this id."""

    code = "schedule_not_found"
    status = 404
