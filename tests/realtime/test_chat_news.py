"""With several processes, a chat safety change made through one process holds at once on
the others: the change travels as cluster news, with no database read per chat line."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx
import pytest

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import Client, cluster_settings, is_event, live_server

pytestmark = pytest.mark.redis


async def test_a_mute_and_a_new_word_made_on_one_process_hold_on_another(
    settings: Settings, mailbox: Mailbox
) -> None:
    shared = cluster_settings(settings)
    clients: list[Client] = []
    async with live_server(shared) as rest, live_server(shared) as tables, \
            httpx.AsyncClient(base_url=rest.url) as http:
        accounts = Accounts(http, mailbox, rest.app)
        admin, talker, listener = (await accounts.admin(), await accounts.player(),
                                   await accounts.player())
        try:
            speaker = await Client(tables.url, talker).connect()
            hearer = await Client(tables.url, listener).connect()
            clients += [speaker, hearer]
            created = await speaker.ok("table:create", {"name": "news", "small_blind": 1,
                                                        "big_blind": 2})
            table_id = created["table"]["table_id"]
            assert table_id in tables.realtime.host.live.tables  # run by the other process
            await hearer.ok("table:join", {"table_id": table_id})
            await speaker.ok("table:chat", {"table_id": table_id, "text": "hello"})

            added = await http.post("/admin/chat/words", json={"word": "sprocket"},
                                    headers=admin.headers)
            assert added.status_code == 201
            safety = tables.realtime.chat.safety  # the other process's, read once above
            await _until(lambda: safety.filter.mask("sprocket") == "********")
            await speaker.ok("table:chat", {"table_id": table_id, "text": "sprocket"})
            line = await hearer.wait_for("table:event", lambda d: is_event(
                "chat", table_id)(d) and d["event"]["text"] != "hello")
            assert line["event"]["text"] == "********"

            muted = await http.post(f"/admin/users/{talker.id}/mute",
                                    json={"minutes": 5, "reason": "testing news"},
                                    headers=admin.headers)
            assert muted.status_code == 200
            await _until(lambda: safety.muted_until(talker.id, time.time()) is not None)
            refused = await speaker.call("table:chat", {"table_id": table_id, "text": "hi"})
            assert refused["error"]["code"] == "muted"

            await http.post(f"/admin/users/{talker.id}/unmute", headers=admin.headers)
            await _until(lambda: safety.muted_until(talker.id, time.time()) is None)
            await speaker.ok("table:chat", {"table_id": table_id, "text": "sorry"})
        finally:
            for client in clients:
                await client.disconnect()


async def _until(condition: Callable[[], bool]) -> None:
    """Wait for news to land (it travels asynchronously, in moments)."""
    for _ in range(100):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the news did not arrive")
