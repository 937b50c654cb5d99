"""The odds tools against a real server: each request's work is estimated before it starts
and bounded, each address has a work budget, and the queue in front of the one worker is
bounded too."""

from __future__ import annotations

import asyncio
import os
import secrets
from dataclasses import replace
from typing import Any

import httpx
import pytest

from app.accounts.errors import RateLimited
from app.accounts.ratelimit import RateLimiter
from app.config import RateLimit, Settings
from app.poker.equity import DEFAULT_ITERATIONS
from app.poker.range_equity import range_equity_work
from app.tools.service import MAX_WORK
from tests.memory import peak_growth
from tests.realtime.harness import live_server

# One exact range-against-range answer that used to take the server up by a gigabyte.
HEAVY: dict[str, Any] = {"hands": ["??", "22+,A2+,K2+,Q2+,J9+"], "board": "Ks 7d 2c",
                         "dead": "3h 4h 5h"}
HEAVY_UNITS = -(-range_equity_work(HEAVY["hands"], HEAVY["board"], HEAVY["dead"]) // 10**6)
LIGHT = {"hand": "6h5h", "board": "Kh 7h 2c", "vs": ["QcQd"]}


async def test_an_exact_range_answer_holds_a_bounded_amount_of_memory(
    settings: Settings
) -> None:
    async with (live_server(settings) as server,
                httpx.AsyncClient(base_url=server.url, timeout=60) as web):
        assert (await web.post("/tools/outs", json=LIGHT)).status_code == 200  # warm up
        with peak_growth() as growth:
            response = await web.post("/tools/equity", json=HEAVY)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["exact"] is True and answer["boards"] == 421_099_602
    assert [h["combos"] for h in answer["hands"]] == [1035, 517]
    assert round(answer["hands"][0]["equity"], 6) == 0.393337
    assert growth.mib < 150, f"the server grew by {growth.mib:.0f} MiB"


async def test_an_exact_answer_over_the_work_budget_is_sampled_with_the_documented_size(
    client: httpx.AsyncClient
) -> None:
    body = {"hands": ["??", "??"], "board": "Ks 7d 2c", "seed": 4}
    response = await client.post("/tools/equity", json=body)
    answer = response.json()
    assert answer["exact"] is False and answer["boards"] == DEFAULT_ITERATIONS == 200_000
    assert all(0 < h["stderr"] < 0.01 for h in answer["hands"])
    assert (await client.post("/tools/equity", json=body)).json() == answer  # seeded


async def test_a_request_whose_work_is_over_the_bound_is_refused_before_it_starts(
    client: httpx.AsyncClient
) -> None:
    body = {"hands": ["AA", "KK", "QQ", "JJ", "TT"], "iterations": 1_000_000}
    response = await client.post("/tools/equity", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "work_too_large" and error["max_work"] == MAX_WORK
    assert error["work"] > MAX_WORK and "fewer Monte Carlo deals" in error["message"]


async def test_each_address_has_a_work_budget_beside_its_request_count(
    settings: Settings
) -> None:
    budget = replace(settings, rate_limit_tools=RateLimit(30, 60),
                     rate_limit_tools_work=RateLimit(HEAVY_UNITS + 5, 60))
    async with (live_server(budget) as server,
                httpx.AsyncClient(base_url=server.url, timeout=60) as web):
        assert (await web.post("/tools/equity", json=HEAVY)).status_code == 200
        again = await web.post("/tools/equity", json=HEAVY)
        assert again.status_code == 429, again.text
        assert again.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(again.headers["Retry-After"]) <= 60
        # The budget left still pays for light requests.
        assert (await web.post("/tools/outs", json=LIGHT)).status_code == 200


async def test_a_full_queue_answers_busy_at_once_and_a_light_request_still_gets_in(
    settings: Settings
) -> None:
    small = replace(settings, tools_queue_work=HEAVY_UNITS + 5)
    async with (live_server(small) as server,
                httpx.AsyncClient(base_url=server.url, timeout=60) as web):
        assert (await web.post("/tools/outs", json=LIGHT)).status_code == 200
        queue = server.app.state.tools_queue
        # A heavy answer is being computed: its work is queued and it holds the worker.
        async with queue.admit(HEAVY_UNITS) as worker, worker:
            busy = await web.post("/tools/equity", json=HEAVY)
            light = asyncio.create_task(web.post("/tools/outs", json=LIGHT))
            while queue.queued == HEAVY_UNITS:
                await asyncio.sleep(0.01)
            assert not light.done()  # admitted, waiting for the worker
        assert busy.status_code == 503, busy.text
        assert busy.json()["error"]["code"] == "tools_busy"
        assert int(busy.headers["Retry-After"]) >= 1
        assert (await light).status_code == 200
        assert queue.queued == 0


@pytest.mark.redis
async def test_work_budgets_are_shared_between_processes_through_redis() -> None:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("Redis runs are off: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    prefix = f"holdem:limits-test-{secrets.token_hex(4)}"
    first, second = (RateLimiter(redis_url=url, prefix=prefix) for _ in range(2))
    budget = RateLimit(100, 60)
    await first.hit("tools-work:ip", "203.0.113.5", budget, cost=60)
    with pytest.raises(RateLimited):
        await second.hit("tools-work:ip", "203.0.113.5", budget, cost=50)
    await second.hit("tools-work:ip", "203.0.113.5", budget, cost=40)
    await first.reset()
