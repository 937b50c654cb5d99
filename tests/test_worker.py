"""The worker process: the server sends no mail itself; the worker it starts does, is
started again when it dies, and leaves with the server."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
from typing import Any

import httpx

from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import live_server, realtime_settings


async def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _until(check: Any, timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "not within the time allowed"
        await asyncio.sleep(0.1)


async def test_the_worker_process_sends_the_mail_and_is_started_again_when_it_dies(
    settings: Settings, mailbox: Mailbox
) -> None:
    worker_settings = realtime_settings(dataclasses.replace(settings, worker="process"))
    async with live_server(worker_settings) as server, httpx.AsyncClient(
            base_url=server.url, timeout=30) as http:
        mailer, worker = server.app.state.mailer, server.app.state.worker
        assert worker is not None and worker.process is not None
        first = worker.process.pid
        assert first != os.getpid() and await _alive(first)
        accounts = Accounts(http, mailbox, server.app)
        ann = await accounts.signup()
        await mailbox.wait_for(ann.email, "Confirm", timeout=60)
        # The server's own sender never ran: the mail came from the worker.
        assert mailer._task is None

        os.kill(first, signal.SIGKILL)
        await _until(lambda: _started_again(worker, first))
        bob = await accounts.signup()
        await mailbox.wait_for(bob.email, "Confirm", timeout=60)
        last = worker.process.pid
    assert worker.starts == 2
    await _until(lambda: _gone(last), timeout=15)


async def _started_again(worker: Any, first: int) -> bool:
    return bool(worker.process is not None and worker.process.pid != first
                and worker.process.is_alive())


async def _gone(pid: int) -> bool:
    return not await _alive(pid)
