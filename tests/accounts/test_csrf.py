"""Cookie sessions need the CSRF header on state-changing requests; bearer tokens don't."""

from __future__ import annotations

import httpx

from tests.conftest import Accounts


async def cookie_session(accounts: Accounts) -> str:
    player = await accounts.player(logged_in=False)
    response = await accounts.login(player)
    assert response.status_code == 200
    assert accounts.client.cookies.get("holdem_session")
    return str(response.json()["csrf_token"])


async def test_a_cookie_session_reads_without_a_csrf_header(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    await cookie_session(accounts)
    assert (await client.get("/users/me")).status_code == 200
    assert (await client.get("/users/me/ledger")).status_code == 200


async def test_a_cookie_session_change_without_the_header_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    await cookie_session(accounts)
    response = await client.patch("/users/me", json={"display_name": "no_csrf"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "csrf_failed"
    assert (await client.get("/users/me")).json()["display_name"] != "no_csrf"


async def test_a_wrong_csrf_header_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    await cookie_session(accounts)
    first_csrf = client.cookies["holdem_csrf"]
    await cookie_session(accounts)  # a second account's cookie replaces the first
    response = await client.patch("/users/me", json={"display_name": "stolen"},
                                  headers={"X-CSRF-Token": first_csrf})
    assert response.status_code == 403


async def test_a_cookie_session_change_with_the_header_goes_through(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    csrf = await cookie_session(accounts)
    assert client.cookies["holdem_csrf"] == csrf
    response = await client.patch("/users/me", json={"display_name": "with_csrf"},
                                  headers={"X-CSRF-Token": csrf})
    assert response.status_code == 200


async def test_bearer_requests_need_no_csrf_header(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.patch("/users/me", json={"display_name": "bearer_ok"},
                                  headers=player.headers)
    assert response.status_code == 200
