"""Rate limits per IP and per account answer 429 with Retry-After."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from app.accounts.errors import RateLimited
from app.accounts.ratelimit import RateLimiter
from app.config import RateLimit, Settings
from app.main import create_app
from tests.conftest import PASSWORD, Accounts, running


def assert_limited(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert int(response.headers["Retry-After"]) >= 1


async def test_login_attempts_on_one_account_are_limited(
    client: httpx.AsyncClient, accounts: Accounts, settings: Settings
) -> None:
    player = await accounts.player(logged_in=False)
    for _ in range(settings.rate_limit_login_account.count):
        assert (await accounts.login(player, password="wrong password!")).status_code == 401
    assert_limited(await accounts.login(player))
    other = await accounts.player(logged_in=False)
    assert (await accounts.login(other)).status_code == 200


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
                assert response.status_code == 201
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
        assert response.status_code == 409
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


def test_the_window_slides_with_the_clock() -> None:
    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0])
    limit = RateLimit(2, 60)
    limiter.hit("login", "k", limit)
    now[0] = 30
    limiter.hit("login", "k", limit)
    with pytest.raises(RateLimited) as raised:
        limiter.hit("login", "k", limit)
    assert raised.value.details["retry_after"] == 30
    now[0] = 60.5
    limiter.hit("login", "k", limit)


def test_a_disabled_limiter_counts_nothing() -> None:
    limiter = RateLimiter(enabled=False)
    for _ in range(100):
        limiter.hit("login", "k", RateLimit(1, 60))
