"""The offload pool: the odds tools and avatar images are computed in another process,
its errors arrive as they were raised, and a process that dies is replaced."""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.accounts import passwords
from app.config import Settings
from app.errors import ServiceUnavailable
from app.main import create_app
from app.offload import NICENESS, Offload
from app.tools.schemas import EquityRequest
from app.tools.service import equity_of
from tests.accounts.test_avatar import decoded, image_bytes
from tests.conftest import Accounts, Mailbox, running


async def test_work_runs_in_another_process_and_a_dead_one_is_replaced() -> None:
    offload = Offload(1)
    try:
        first = await offload.run(os.getpid)
        assert first != os.getpid()
        with pytest.raises(ServiceUnavailable):
            await offload.run(os._exit, 1)
        second = await offload.run(os.getpid)
        assert second not in (first, os.getpid())
    finally:
        await offload.close()


async def test_without_processes_the_work_runs_on_a_thread_of_this_one() -> None:
    assert await Offload(0).run(os.getpid) == os.getpid()


@pytest.fixture
async def pooled_app(settings: Settings) -> AsyncIterator[FastAPI]:
    async with running(create_app(dataclasses.replace(settings, offload_processes=1))) as app:
        yield app


@pytest.fixture
async def pooled(pooled_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=pooled_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        yield http


async def test_the_odds_tools_answer_from_the_pool_as_they_would_here(
    pooled: httpx.AsyncClient
) -> None:
    body = {"hands": ["AhAdKhKd", "8s8d2c3d"], "board": "9h 6h 4h"}
    answer = await pooled.post("/tools/equity", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json() == equity_of(EquityRequest(**body)).model_dump()
    refused = await pooled.post("/tools/equity", json={"hands": ["AhKh", "QQs"]})
    assert refused.json()["error"]["code"] == "invalid_range"


async def test_avatars_are_encoded_in_the_pool_and_a_bad_one_refused_from_it(
    pooled: httpx.AsyncClient, pooled_app: FastAPI, mailbox: Mailbox
) -> None:
    accounts = Accounts(pooled, mailbox, pooled_app)
    player = await accounts.player()
    url = (await pooled.get("/users/me", headers=player.headers)).json()["avatar_url"]
    generated = await pooled.get(url)
    assert decoded(generated.content).size == (256, 256)
    uploaded = await pooled.put("/users/me/avatar", headers=player.headers,
                                files={"file": ("me.png", image_bytes("PNG"))})
    assert uploaded.status_code == 200, uploaded.text
    assert decoded((await pooled.get(url)).content).size == (256, 256)
    bad = await pooled.put("/users/me/avatar", headers=player.headers,
                           files={"file": ("me.png", b"\x89PNG\r\n\x1a\n not an image")})
    assert bad.status_code in (400, 422) and bad.json()["error"]["code"] == "avatar_invalid"


def _priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities: Linux")
async def test_the_pool_and_the_password_hashing_run_at_a_lower_priority() -> None:
    ours = _priority()
    lowered = min(19, ours + NICENESS)
    offload = Offload(1)
    try:
        assert await offload.run(_priority) == lowered
    finally:
        await offload.close()
    name, priority = await passwords._hashing(lambda: (threading.current_thread().name,
                                                        _priority()))
    assert name.startswith("password-hashing") and priority == lowered
    assert _priority() == ours
