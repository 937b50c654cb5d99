"""Errors of hosting tables, each with a stable code."""

from __future__ import annotations

from app.errors import HoldemError
from app.table.errors import TableMoved


class TableNotFound(HoldemError):
    """No open table has this id."""

    code = "table_not_found"
    status = 404


class TablesElsewhere(HoldemError):
    """Tables run on another server process of this database; this one runs none."""

    code = "tables_elsewhere"
    status = 503


class RedisMissing(RuntimeError):
    """This process has no ``REDIS_URL``, but live processes share this database's tables
    through Redis: run alone, it would take their tables from under them."""


def moving(table_id: str | None = None) -> TableMoved:
    """The table is going to (or came from) another process: the client asks again."""
    if table_id is None:
        return TableMoved("this table is moving to another server: try again", retry_after=1)
    return TableMoved("this table is moving to another server: try again",
                      table_id=table_id, retry_after=1)
