"""Errors of the socket edge, each with a stable code (hosting's are in
:mod:`app.hosting.errors`)."""

from __future__ import annotations

from app.errors import HoldemError


class LoginRequired(HoldemError):
    """Anonymous connections may only watch the lobby."""

    code = "not_authenticated"
    status = 401


class NotYourTable(HoldemError):
    """Only the player who opened a table may close it (an admin closes any from /admin)."""

    code = "not_your_table"
    status = 403


class ConnectionLimit(HoldemError):
    """Too many connections from your address (``limit``): in all, or without a login."""

    code = "connection_limit"
    status = 429


class InvalidQuery(HoldemError):
    """A connection's query names its table twice, in another case or encoding, or oddly.

    The proxy could read such a query as another table than this server does."""

    code = "invalid_query"
    status = 400
