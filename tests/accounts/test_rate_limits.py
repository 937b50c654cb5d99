"""Rate limits per IP and per account answer 429 with Retry-After."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import httpx
import pytest
from fastapi import FastAPI

from app.accounts.errors import RateLimited
from app.accounts.ratelimit import RateLimiter
from app.config import RateLimit, Settings
from app.main import create_app
from tests.conftest import PASSWORD, Accounts, Mailbox, Player, running


def assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


async def test_login_attempts_on_one_account_from_one_ip_are_limited(
    client: httpx.AsyncClient, accounts: Accounts, settings: Settings
) -> None:
    player = await accounts.player(logged_in=False)
    for _ in range(settings.rate_limit_login_account_ip.count):
        assert (await accounts.login(player, password="wrong password!")).status_code == 401
    assert_limited(await accounts.login(player))
    other = await accounts.player(logged_in=False)
    assert (await accounts.login(other)).status_code == 200


@asynccontextmanager
async def from_ip(app: FastAPI, ip: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose requests come from ``ip``."""
    transport = httpx.ASGITransport(app=app, client=(ip, 40_000))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
        yield web


async def log_in(web: httpx.AsyncClient, player: Player, password: str) -> int:
    response = await web.post("/auth/login", json={"email": player.email, "password": password})
    return response.status_code


async def test_an_attacker_at_one_address_cannot_lock_the_owner_out(
    app: FastAPI, accounts: Accounts, settings: Settings
) -> None:
    owner = await accounts.player(logged_in=False)
    async with from_ip(app, "203.0.113.66") as attacker, from_ip(app, "198.51.100.7") as home:
        for _ in range(settings.rate_limit_login_account_ip.count):
            assert await log_in(attacker, owner, "guess guess guess") == 401
        assert_limited(await attacker.post("/auth/login", json={
            "email": owner.email, "password": owner.password}))
        assert await log_in(home, owner, owner.password) == 200


async def test_failures_from_many_addresses_hit_a_slower_account_limit_but_not_the_owner(
    settings: Settings, mailbox: Mailbox
) -> None:
    tight = replace(settings, rate_limit_login_account_ip=RateLimit(3, 900),
                    rate_limit_login_account=RateLimit(6, 3600))
    async with running(create_app(tight)) as app:
        async with from_ip(app, "198.51.100.7") as home:
            owner = await Accounts(home, mailbox, app).player(logged_in=False)
            assert await log_in(home, owner, owner.password) == 200
        for number in range(3):
            async with from_ip(app, f"203.0.113.{number}") as attacker:
                for _ in range(2):
                    assert await log_in(attacker, owner, "guess guess guess") == 401
        async with from_ip(app, "203.0.113.99") as fresh:
            assert_limited(await fresh.post("/auth/login", json={
                "email": owner.email, "password": owner.password}))
        async with from_ip(app, "198.51.100.7") as home:
            assert await log_in(home, owner, owner.password) == 200
        await app.state.mailer.drain()


async def test_a_check_does_not_count_and_a_record_does_not_check() -> None:
    limiter = RateLimiter()
    limit = RateLimit(1, 60)
    await limiter.check("login", "k", limit)
    await limiter.check("login", "k", limit)
    await limiter.record("login", "k", limit)
    await limiter.record("login", "k", limit)
    with pytest.raises(RateLimited):
        await limiter.check("login", "k", limit)
    assert await limiter.recalls("login", "k", 60)
    assert not await limiter.recalls("login", "other", 60)


async def test_signup_and_login_are_limited_per_ip(settings: Settings) -> None:
    tight = replace(settings, rate_limit_signup_ip=RateLimit(2, 3600),
                    rate_limit_login_ip=RateLimit(3, 300))
    async with running(create_app(tight)) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
            for number in range(2):
                response = await web.post("/auth/signup", json={
                    "email": f"ip{number}@example.com", "password": PASSWORD,
                    "display_name": f"ip_{number}"})
                assert response.status_code == 202
            assert_limited(await web.post("/auth/signup", json={
                "email": "ip9@example.com", "password": PASSWORD, "display_name": "ip_9"}))
            for number in range(3):
                await web.post("/auth/login", json={
                    "email": f"someone{number}@example.com", "password": PASSWORD})
            assert_limited(await web.post("/auth/login", json={
                "email": "ip0@example.com", "password": PASSWORD}))
        await app.state.mailer.drain()


async def test_signing_up_one_address_again_and_again_is_limited(
    client: httpx.AsyncClient, accounts: Accounts, settings: Settings
) -> None:
    await accounts.signup(email="probe@example.com")
    for _ in range(settings.rate_limit_signup_account.count - 1):
        response = await client.post("/auth/signup", json={
            "email": "probe@example.com", "password": PASSWORD, "display_name": "prober"})
        assert response.status_code == 202
    assert_limited(await client.post("/auth/signup", json={
        "email": "probe@example.com", "password": PASSWORD, "display_name": "prober"}))


async def test_forgot_password_is_limited_per_account(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    for _ in range(settings.rate_limit_forgot_account.count):
        response = await client.post("/auth/forgot-password", json={"email": "a@example.com"})
        assert response.status_code == 202
    assert_limited(await client.post("/auth/forgot-password", json={"email": "a@example.com"}))
    other = await client.post("/auth/forgot-password", json={"email": "b@example.com"})
    assert other.status_code == 202


async def test_verification_is_limited_per_ip_and_per_account(settings: Settings) -> None:
    tight = replace(settings, rate_limit_verify_ip=RateLimit(4, 3600),
                    rate_limit_verify_account=RateLimit(2, 3600))
    async with running(create_app(tight)) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
            for _ in range(2):
                response = await web.post("/auth/request-verify", json={"email": "v@example.com"})
                assert response.status_code == 202
            assert_limited(await web.post("/auth/request-verify",
                                          json={"email": "v@example.com"}))
            assert (await web.post("/auth/verify-email", json={"token": "x"})).status_code == 400
            assert_limited(await web.post("/auth/verify-email", json={"token": "x"}))


async def test_the_window_slides() -> None:
    limiter = RateLimiter()
    limit = RateLimit(2, 1)
    await limiter.hit("login", "k", limit)
    await limiter.hit("login", "k", limit)
    with pytest.raises(RateLimited) as raised:
        await limiter.hit("login", "k", limit)
    assert raised.value.details["retry_after"] == 1
    await asyncio.sleep(1.5)  # past both hits, however slowly they were made
    await limiter.hit("login", "k", limit)


async def test_a_disabled_limiter_counts_nothing() -> None:
    limiter = RateLimiter(enabled=False)
    for _ in range(100):
        await limiter.hit("login", "k", RateLimit(1, 60))
        limiter.hit_local("socket", "k", RateLimit(1, 60))


def test_a_connection_limit_counts_in_this_process_and_is_forgotten() -> None:
    limiter = RateLimiter()
    limit = RateLimit(2, 60)
    limiter.hit_local("socket", "sid", limit)
    limiter.hit_local("socket", "sid", limit)
    with pytest.raises(RateLimited):
        limiter.hit_local("socket", "sid", limit)
    limiter.hit_local("socket", "other", limit)
    limiter.forget("socket", "sid", limit)
    limiter.hit_local("socket", "sid", limit)


@pytest.mark.redis
async def test_shared_limits_hold_across_processes_through_redis() -> None:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("Redis runs are off: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    prefix = f"holdem:limits-test-{secrets.token_hex(4)}"
    first, second = (RateLimiter(redis_url=url, prefix=prefix) for _ in range(2))
    alone = RateLimiter(redis_url=url, prefix=f"{prefix}-elsewhere")
    limit = RateLimit(3, 60)
    await first.hit("login:ip", "203.0.113.5", limit)
    await second.hit("login:ip", "203.0.113.5", limit)
    await first.hit("login:ip", "203.0.113.5", limit)
    with pytest.raises(RateLimited) as raised:
        await second.hit("login:ip", "203.0.113.5", limit)
    assert 1 <= raised.value.details["retry_after"] <= 60
    await alone.hit("login:ip", "203.0.113.5", limit)  # another site's count
    await first.reset()


async def test_email_change_requests_are_limited_per_account_and_per_ip(
    settings: Settings, mailbox: Mailbox
) -> None:
    tight = replace(settings, rate_limit_email_change_account=RateLimit(2, 3600),
                    rate_limit_email_change_ip=RateLimit(4, 3600))
    async with running(create_app(tight)) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
            accounts = Accounts(web, mailbox, app)
            first, second = await accounts.player(), await accounts.player()

            async def change(player: Player, number: int) -> httpx.Response:
                return await web.post("/users/me/email", headers=player.headers, json={
                    "current_password": PASSWORD, "new_email": f"new{number}@example.com"})

            for number in range(2):
                assert (await change(first, number)).status_code == 202
            assert_limited(await change(first, 2))
            assert (await change(second, 3)).status_code == 202
            assert_limited(await change(second, 4))  # the IP has used its four
        await app.state.mailer.drain()
    sent = [m for m in mailbox.messages if "new e-mail" in str(m["Subject"]).lower()]
    assert len(sent) == 3
