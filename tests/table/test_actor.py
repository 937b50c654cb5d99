"""The table's mailbox: one message at a time, nothing run once the table has closed, and
a request refused as documented when it fails."""

from __future__ import annotations

import asyncio

import pytest

from app.db.engine import StorageUnavailable
from app.errors import ServiceUnavailable
from app.table.actor import Mailbox
from app.table.errors import InternalError, TableClosed


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


async def test_a_request_that_meets_an_unreachable_database_is_refused_as_unavailable(
) -> None:
    # Storage raises one typed error however it met the database (tests/db/test_engine.py).
    mailbox = Mailbox("t", after_each=_nothing_to_store)
    mailbox.start()

    async def read() -> None:
        raise StorageUnavailable() from ConnectionRefusedError(111, "connection refused")

    with pytest.raises(ServiceUnavailable) as refused:
        await mailbox.ask(read)
    assert refused.value.code == "service_unavailable" and refused.value.details["retry_after"]
    await mailbox.stop()


async def test_any_other_failure_of_a_request_is_an_internal_error() -> None:
    mailbox = Mailbox("t", after_each=_nothing_to_store)
    mailbox.start()

    async def broken() -> None:
        raise KeyError("a bug")

    with pytest.raises(InternalError):
        await mailbox.ask(broken)
    await mailbox.stop()


async def test_a_guard_that_refuses_keeps_the_request_from_running() -> None:
    mailbox = Mailbox("t", after_each=_nothing_to_store)
    mailbox.start()
    ran: list[str] = []

    async def sit() -> str:
        ran.append("sit")
        return "seated"

    def unreachable() -> None:
        raise ServiceUnavailable("the table cannot store anything right now", retry_after=5)

    with pytest.raises(ServiceUnavailable):
        await mailbox.ask(sit, guard=unreachable)
    assert ran == []
    assert await mailbox.ask(sit, guard=lambda: None) == "seated"
    await mailbox.stop()
