"""Errors an admin can run into."""

from __future__ import annotations

from app.errors import HoldemError


class UserNotFound(HoldemError):
    """No account has this id."""

    code = "user_not_found"
    status = 404


class AccountDeleted(HoldemError):
    """The account was deleted; it can be viewed but not changed."""

    code = "account_deleted"
    status = 409


class CannotModerateAdmin(HoldemError):
    """Admins cannot ban admins (themselves included)."""

    code = "cannot_moderate_admin"
    status = 409


class NotAnAdmin(HoldemError):
    """Only an admin can be demoted."""

    code = "not_an_admin"
    status = 409


class CannotDemoteSelf(HoldemError):
    """An admin cannot demote themselves over the API (so one always remains)."""

    code = "cannot_demote_self"
    status = 409


class CannotModerateHouse(HoldemError):
    """The house account holds the bots' bankroll; it is not a player to ban."""

    code = "cannot_moderate_house"
    status = 409


class TournamentTableClose(HoldemError):
    """A tournament's table is closed by its tournament (when it breaks the table or
    ends), never by hand: closing it would strand its players' chips and seats."""

    code = "tournament_table"
    status = 409


class ChatWordExists(HoldemError):
    """The chat filter already masks this word (or a disguise of it)."""

    code = "chat_word_exists"
    status = 409


class ChatWordNotFound(HoldemError):
    """This word is not on the chat filter's list."""

    code = "chat_word_not_found"
    status = 404


class ReportNotFound(HoldemError):
    """No report about a player has this id."""

    code = "report_not_found"
    status = 404
