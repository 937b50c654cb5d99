"""The table a Socket.IO connection is routed by, read exactly as the proxy reads it.

The proxy (``deploy/nginx.conf``) hashes ``$arg_table``: the first query argument whose
name is ``table`` in any case, its value as sent (not percent-decoded). A reading that
differs (decoded, case-sensitive, the last of two) would let a client reach one process
while naming another table to it. So a connection's query must name its table in the
one form both readings agree on, or none: at most one argument called ``table`` in any
case or encoding, spelt ``table``, whose value is a plain table id (letters, digits,
``-`` and ``_``: nothing to decode). Any other query is refused at connect.

>>> routed_table("table=a1b2c3&EIO=4&transport=websocket")
'a1b2c3'
>>> routed_table("EIO=4") is None
True
>>> routed_table("TABLE=x&table=a1b2c3")
Traceback (most recent call last):
...
app.realtime.errors.InvalidQuery: name the table once, as table=<id>
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus

from app.realtime.errors import InvalidQuery

TABLE_ARGUMENT = "table"
# The characters of a table id (``TableId``): none of them is changed by decoding.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def routed_table(query: str) -> str | None:
    """The table a raw (undecoded) query string names, as the proxy reads it; None when
    it names none. Raises :class:`InvalidQuery` for a query the proxy and this server
    could read differently."""
    arguments = (piece.partition("=") for piece in query.split("&"))
    named = [argument for argument in arguments
             if unquote_plus(argument[0]).lower() == TABLE_ARGUMENT]
    if not named:
        return None
    if len(named) > 1:
        raise InvalidQuery("name the table once, as table=<id>")
    name, equals, value = named[0]
    if name != TABLE_ARGUMENT or not equals:
        raise InvalidQuery("name the table once, as table=<id>")
    if not TABLE_ID.fullmatch(value):
        raise InvalidQuery("a table id has only letters, digits, '-' and '_'")
    return value


def raw_query(environ: dict[str, Any] | None) -> str:
    """A Socket.IO connection's query string as the client sent it (from its ASGI scope;
    each byte one character, so nothing is decoded)."""
    scope = (environ or {}).get("asgi.scope") or {}
    raw = scope.get("query_string")
    if isinstance(raw, bytes):
        return raw.decode("latin-1")
    return str((environ or {}).get("QUERY_STRING", ""))


def connection_table(environ: dict[str, Any] | None) -> str | None:
    """The table a connection was opened for, if any (None also for a query refused at
    connect).

    >>> connection_table({"QUERY_STRING": "table=a1b2c3&EIO=4&transport=websocket"})
    'a1b2c3'
    >>> connection_table({"asgi.scope": {"query_string": b"EIO=4"}}) is None
    True
    """
    try:
        return routed_table(raw_query(environ))
    except InvalidQuery:
        return None
