"""The table's mailbox: one message at a time, and nothing run once the table has closed."""

from __future__ import annotations

import asyncio

import pytest

from app.table.actor import Mailbox
from app.table.errors import TableClosed


async def _nothing_to_store() -> None:
    return None


async def test_requests_queued_behind_a_closing_message_are_refused_unrun() -> None:
    mailbox = Mailbox("t", after_each=_nothing_to_store)
    mailbox.start()
    closing, close_goes_on = asyncio.Event(), asyncio.Event()
    ran: list[str] = []

    async def close() -> str:
        closing.set()
        await close_goes_on.wait()
        await mailbox.stop(run_queued=False)
        return "closed"

    async def sit() -> str:
        ran.append("sit")
        return "seated"

    closed = asyncio.create_task(mailbox.ask(close))
    await closing.wait()
    sat = asyncio.create_task(mailbox.ask(sit))
    mailbox.tell(sit)
    await asyncio.sleep(0)  # the ask is queued behind the close
    close_goes_on.set()
    assert await closed == "closed"
    with pytest.raises(TableClosed):
        await sat
    assert ran == []
    with pytest.raises(TableClosed):
        await mailbox.ask(sit)


async def test_a_stop_runs_the_requests_already_queued_first() -> None:
    mailbox = Mailbox("t", after_each=_nothing_to_store)
    mailbox.start()
    stopping, stop_goes_on = asyncio.Event(), asyncio.Event()

    async def stop() -> None:
        stopping.set()
        await stop_goes_on.wait()
        await mailbox.stop()

    async def sit() -> str:
        return "seated"

    stopped = asyncio.create_task(mailbox.ask(stop))
    await stopping.wait()
    sat = asyncio.create_task(mailbox.ask(sit))
    await asyncio.sleep(0)
    stop_goes_on.set()
    await stopped
    assert await sat == "seated"
