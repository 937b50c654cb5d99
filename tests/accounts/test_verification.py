"""Verifying an address by following the mailed link; resending it."""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import update

from app.db.models import AccountToken, utcnow
from tests.conftest import Accounts, Mailbox, link_of, token_of


async def test_following_the_link_verifies_the_address_and_sends_a_welcome(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.signup()
    message = await mailbox.wait_for(player.email, "confirm your e-mail")

    page = await client.get(link_of(message))
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert token_of(message) in page.text

    response = await client.post("/auth/verify-email", json={"token": token_of(message)})
    assert response.status_code == 200, response.text
    assert response.json()["email_verified"] is True
    welcome = await mailbox.wait_for(player.email, "welcome")
    assert "10000" in welcome.get_body(preferencelist=("plain",)).get_content()


async def test_a_verification_link_works_once(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.signup()
    token = token_of(await mailbox.wait_for(player.email, "confirm"))
    assert (await client.post("/auth/verify-email", json={"token": token})).status_code == 200
    again = await client.post("/auth/verify-email", json={"token": token})
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "token_used"


async def test_an_expired_verification_link_is_refused(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.signup()
    token = token_of(await mailbox.wait_for(player.email, "confirm"))
    await accounts.execute(update(AccountToken).values(expires_at=utcnow() - timedelta(seconds=1)))
    response = await client.post("/auth/verify-email", json={"token": token})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "token_expired"


async def test_an_unknown_token_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/verify-email", json={"token": "made-up-token"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "token_invalid"


async def test_request_verify_resends_a_working_link(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.signup()
    await mailbox.wait_for(player.email, "confirm")
    response = await client.post("/auth/request-verify", json={"email": player.email})
    assert response.status_code == 202
    token = token_of(await mailbox.wait_for(player.email, "confirm"))
    assert (await client.post("/auth/verify-email", json={"token": token})).status_code == 200


async def test_request_verify_answers_the_same_for_unknown_and_verified_addresses(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    unknown = await client.post("/auth/request-verify", json={"email": "nobody@example.com"})
    verified = await client.post("/auth/request-verify", json={"email": player.email})
    assert unknown.status_code == verified.status_code == 202
    assert unknown.json() == verified.json()
    assert mailbox.to("nobody@example.com") == []
