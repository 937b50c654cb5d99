"""Login, the session cookie and bearer token, logout, and who may not log in."""

from __future__ import annotations

from dataclasses import replace

import httpx

from app.accounts.tokens import CSRF_COOKIE, SESSION_COOKIE, issue_session_token
from app.config import Settings
from app.db.models import UserStatus, utcnow
from app.main import create_app
from tests.conftest import Accounts, production, random_secret, running


def set_cookie_headers(response: httpx.Response) -> dict[str, str]:
    return {header.split("=", 1)[0]: header for header in
            response.headers.get_list("set-cookie")}


async def test_login_sets_an_httponly_lax_cookie_and_returns_the_token(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(logged_in=False)
    response = await accounts.login(player)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["token_type"] == "bearer" and body["access_token"]
    assert body["user"]["email"] == player.email

    cookies = set_cookie_headers(response)
    session = cookies[SESSION_COOKIE].lower()
    assert "httponly" in session and "samesite=lax" in session and "path=/" in session
    assert "secure" not in session  # development serves plain HTTP
    csrf = cookies[CSRF_COOKIE].lower()
    assert "httponly" not in csrf

    me = await client.get("/users/me")
    assert me.status_code == 200 and me.json()["id"] == player.id


async def test_login_cookies_are_secure_outside_development(settings: Settings) -> None:
    async with running(create_app(production(settings))) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="https://testserver") as web:
            signup = await web.post("/auth/signup", json={
                "email": "secure@example.com", "password": "long enough secret",
                "display_name": "secure"})
            assert signup.status_code == 202
            response = await web.post("/auth/login", json={
                "email": "secure@example.com", "password": "long enough secret"})
            await app.state.mailer.drain()
    assert response.status_code == 200
    for header in set_cookie_headers(response).values():
        assert "secure" in header.lower()


async def test_the_bearer_token_authenticates_without_cookies(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    assert not client.cookies
    response = await client.get("/users/me", headers=player.headers)
    assert response.status_code == 200
    assert response.json()["display_name"] == player.display_name


async def test_a_wrong_password_and_an_unknown_email_get_the_same_answer(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(logged_in=False)
    wrong = await accounts.login(player, password="not the right password")
    unknown = await client.post("/auth/login", json={
        "email": "ghost@example.com", "password": "whatever it is"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"]["code"] == "invalid_credentials"


async def test_no_session_means_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/users/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    forged = await client.get("/users/me", headers={"Authorization": "Bearer not.a.jwt"})
    assert forged.status_code == 401


async def test_an_expired_or_foreign_token_is_refused(
    client: httpx.AsyncClient, accounts: Accounts, settings: Settings
) -> None:
    player = await accounts.player()
    expired = issue_session_token(player.id, 0, replace(settings, session_ttl_seconds=-10),
                                  now=utcnow())
    other_server = replace(settings, secret_key=random_secret())
    foreign = issue_session_token(player.id, 0, other_server, now=utcnow())
    for token in (expired.token, foreign.token):
        response = await client.get("/users/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401


async def test_logout_revokes_the_token_and_clears_the_cookies(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.post("/auth/logout", headers=player.headers)
    assert response.status_code == 204
    cookies = set_cookie_headers(response)
    assert SESSION_COOKIE in cookies and CSRF_COOKIE in cookies
    again = await client.get("/users/me", headers=player.headers)
    assert again.status_code == 401
    assert (await accounts.login(player)).status_code == 200


async def test_logout_with_the_cookie_needs_the_csrf_header(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(logged_in=False)
    await accounts.login(player)
    refused = await client.post("/auth/logout")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "csrf_failed"
    assert player.csrf_token is not None
    done = await client.post("/auth/logout", headers={"X-CSRF-Token": player.csrf_token})
    assert done.status_code == 204
    assert (await client.get("/users/me")).status_code == 401


async def test_an_unverified_player_can_log_in(accounts: Accounts) -> None:
    player = await accounts.player(verified=False, logged_in=False)
    response = await accounts.login(player)
    assert response.status_code == 200
    assert response.json()["user"]["email_verified"] is False


async def test_a_banned_player_cannot_log_in_and_their_token_stops_working(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    await accounts.set(player.id, status=UserStatus.BANNED, ban_reason="collusion")
    me = await client.get("/users/me", headers=player.headers)
    assert me.status_code == 403
    assert me.json()["error"]["code"] == "account_banned"
    response = await accounts.login(player)
    assert response.status_code == 403
    assert response.json()["error"] == {"code": "account_banned",
                                        "message": "this account is banned",
                                        "reason": "collusion"}
