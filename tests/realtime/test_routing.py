"""The table a connection is routed by: read as the proxy reads it, or refused at connect.

The proxy hashes the first argument named ``table`` in any case, undecoded; a query that
a decoding, case-sensitive reading could take for another table (``TABLE=x&table=y``,
``table=%61b``, ``t%61ble=y``) is refused with ``invalid_query``, so both sides agree.
"""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest

from app.realtime.errors import InvalidQuery
from app.realtime.routing import connection_table, routed_table
from tests.realtime.harness import LiveServer

# Queries the proxy and a decoding, case-sensitive reading could route differently.
AMBIGUOUS = [
    "TABLE=x1&table=a1b2c3", "table=a1b2c3&TABLE=x1", "Table=a1b2c3", "tAbLe=a1b2c3",
    "table=a1b2c3&table=x1", "table=%61%62", "table=a1b2c%33", "t%61ble=a1b2c3",
    "table=a1+b2", "table=", "table", "table&table=a1b2c3", "table=a1b2c3;x=1",
    "table=a1b2c3%00", "table=" + "a" * 33, "table=\u00e9",
]


def _environ(query: str) -> dict[str, Any]:
    return {"asgi.scope": {"query_string": query.encode("utf-8")}, "QUERY_STRING": query}


@pytest.mark.parametrize("query", AMBIGUOUS)
def test_a_query_the_proxy_could_read_otherwise_is_refused(query: str) -> None:
    with pytest.raises(InvalidQuery):
        routed_table(query)
    assert connection_table(_environ(query)) is None


@pytest.mark.parametrize(("query", "table"), [
    ("table=a1b2c3", "a1b2c3"), ("EIO=4&table=a1b2c3&transport=websocket", "a1b2c3"),
    ("table=0123abcdef01t2", "0123abcdef01t2"), ("tables=x&atable=y&table=A-b_9", "A-b_9"),
    ("EIO=4&transport=polling", None), ("", None),
])
def test_a_plain_table_id_is_the_route(query: str, table: str | None) -> None:
    assert routed_table(query) == table
    assert connection_table(_environ(query)) == table


async def _connect_error(url: str, query: str) -> dict[str, Any] | None:
    """Open a Socket.IO session over long-polling with exactly this query (a client
    library would re-encode it); None once connected, else the ``connect_error`` data."""
    path = f"{url}/socket.io/?EIO=4&transport=polling&{query}"
    async with httpx.AsyncClient(timeout=10) as http:
        opened = await http.get(path)
        assert opened.status_code == 200 and opened.text.startswith("0"), opened.text
        session = f"{path}&sid={orjson.loads(opened.text[1:])['sid']}"
        assert (await http.post(session, content="40")).status_code == 200
        answer = (await http.get(session)).text
    if answer.startswith("40"):
        return None
    assert answer.startswith("44"), answer
    data: dict[str, Any] = orjson.loads(answer[2:])["data"]
    return data


@pytest.mark.parametrize("query", ["TABLE=x1&table=a1b2c3", "table=a1b2c%33",
                                   "t%61ble=a1b2c3", "table="])
async def test_a_connection_with_an_ambiguous_table_is_refused_at_connect(
    server: LiveServer, query: str
) -> None:
    refusal = await _connect_error(server.url, query)
    assert refusal is not None and refusal["code"] == "invalid_query", refusal
    assert len(server.realtime.connections) == 0
    assert await _connect_error(server.url, "table=a1b2c3") is None
