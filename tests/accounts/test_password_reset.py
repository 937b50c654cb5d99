"""Forgotten passwords: the same answer for everyone, a single-use one-hour link, all
sessions ended, a notice mailed."""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import select, update

from app.accounts.tokens import hash_link_token
from app.db.models import AccountToken, TokenPurpose, utcnow
from tests.conftest import Accounts, Mailbox, Player, link_of, token_of

NEW_PASSWORD = "a brand new passphrase"


async def reset_token(accounts: Accounts, mailbox: Mailbox, email: str) -> str:
    response = await accounts.client.post("/auth/forgot-password", json={"email": email})
    assert response.status_code == 202
    return token_of(await mailbox.wait_for(email, "reset your password"))


async def test_forgot_password_answers_the_same_whether_or_not_the_account_exists(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    known = await client.post("/auth/forgot-password", json={"email": player.email})
    unknown = await client.post("/auth/forgot-password", json={"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    message = await mailbox.wait_for(player.email, "reset your password")
    assert link_of(message).startswith("http://testserver/auth/reset-password?token=")
    assert mailbox.to("nobody@example.com") == []


async def test_the_link_in_the_password_changed_notice_opens_a_page(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/auth/forgot-password")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]


async def test_the_reset_token_is_stored_only_as_a_hash_valid_for_an_hour(
    accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    token = await reset_token(accounts, mailbox, player.email)
    async with accounts.database.sessions() as session:
        stored = (await session.scalars(
            select(AccountToken).where(AccountToken.purpose == TokenPurpose.RESET_PASSWORD)
        )).one()
    assert stored.token_hash == hash_link_token(token) != token
    lifetime = stored.expires_at - stored.created_at
    assert timedelta(minutes=59) < lifetime <= timedelta(hours=1)


async def test_resetting_sets_the_password_ends_every_session_and_notifies(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    token = await reset_token(accounts, mailbox, player.email)
    page = await client.get(f"/auth/reset-password?token={token}")
    assert page.status_code == 200 and "new_password" in page.text

    response = await client.post("/auth/reset-password",
                                 json={"token": token, "new_password": NEW_PASSWORD})
    assert response.status_code == 200, response.text
    assert (await client.get("/users/me", headers=player.headers)).status_code == 401
    assert (await accounts.login(player)).status_code == 401
    assert (await accounts.login(player, password=NEW_PASSWORD)).status_code == 200
    await mailbox.wait_for(player.email, "password was changed")


async def test_a_reset_link_works_once(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    token = await reset_token(accounts, mailbox, player.email)
    body = {"token": token, "new_password": NEW_PASSWORD}
    assert (await client.post("/auth/reset-password", json=body)).status_code == 200
    again = await client.post("/auth/reset-password",
                              json={"token": token, "new_password": "yet another passphrase"})
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "token_used"


async def test_an_expired_reset_link_is_refused(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    token = await reset_token(accounts, mailbox, player.email)
    await accounts.execute(update(AccountToken).values(expires_at=utcnow() - timedelta(minutes=1)))
    response = await client.post("/auth/reset-password",
                                 json={"token": token, "new_password": NEW_PASSWORD})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "token_expired"


async def test_a_new_reset_link_replaces_the_previous_one(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    first = await reset_token(accounts, mailbox, player.email)
    second = await reset_token(accounts, mailbox, player.email)
    stale = await client.post("/auth/reset-password",
                              json={"token": first, "new_password": NEW_PASSWORD})
    assert stale.json()["error"]["code"] == "token_invalid"
    fresh = await client.post("/auth/reset-password",
                              json={"token": second, "new_password": NEW_PASSWORD})
    assert fresh.status_code == 200


async def test_a_weak_new_password_is_refused_and_the_link_still_works(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    token = await reset_token(accounts, mailbox, player.email)
    weak = await client.post("/auth/reset-password",
                             json={"token": token, "new_password": "qwertyuiop"})
    assert weak.status_code == 422
    assert weak.json()["error"]["code"] == "weak_password"
    strong = await client.post("/auth/reset-password",
                               json={"token": token, "new_password": NEW_PASSWORD})
    assert strong.status_code == 200


async def test_a_verification_token_cannot_reset_a_password(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.signup()
    token = token_of(await mailbox.wait_for(player.email, "confirm"))
    response = await client.post("/auth/reset-password",
                                 json={"token": token, "new_password": NEW_PASSWORD})
    assert response.json()["error"]["code"] == "token_invalid"


async def change_email(accounts: Accounts, mailbox: Mailbox, player: Player, new: str) -> None:
    response = await accounts.client.post("/users/me/email", headers=player.headers, json={
        "current_password": player.password, "new_email": new})
    assert response.status_code == 202, response.text
    token = token_of(await mailbox.wait_for(new, "confirm your new"))
    confirmed = await accounts.client.post("/auth/verify-email", json={"token": token})
    assert confirmed.status_code == 200, confirmed.text


async def test_a_reset_link_stops_working_when_the_email_address_changes(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    token = await reset_token(accounts, mailbox, player.email)
    await change_email(accounts, mailbox, player, "moved@example.com")
    response = await client.post("/auth/reset-password",
                                 json={"token": token, "new_password": NEW_PASSWORD})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "token_invalid"
    assert (await accounts.login(player, password=NEW_PASSWORD)).status_code == 401


async def test_a_reset_link_stops_working_when_the_password_changes(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    token = await reset_token(accounts, mailbox, player.email)
    changed = await client.post("/users/me/password", headers=player.headers, json={
        "current_password": player.password, "new_password": "the owner's new passphrase"})
    assert changed.status_code == 200, changed.text
    response = await client.post("/auth/reset-password",
                                 json={"token": token, "new_password": NEW_PASSWORD})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "token_invalid"


async def test_an_email_change_link_stops_working_when_the_password_changes(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    asked = await client.post("/users/me/email", headers=player.headers, json={
        "current_password": player.password, "new_email": "thief@example.com"})
    assert asked.status_code == 202
    token = token_of(await mailbox.wait_for("thief@example.com", "confirm your new"))
    changed = await client.post("/users/me/password", headers=player.headers, json={
        "current_password": player.password, "new_password": "the owner's new passphrase"})
    assert changed.status_code == 200
    response = await client.post("/auth/verify-email", json={"token": token})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "token_invalid"


async def test_a_link_whose_fingerprint_was_edited_is_refused(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player(logged_in=False)
    token = await reset_token(accounts, mailbox, player.email)
    random_part, _, _ = token.rpartition(".")
    response = await client.post("/auth/reset-password", json={
        "token": f"{random_part}.AAAAAAAAAAAAAAAAAAAAAA", "new_password": NEW_PASSWORD})
    assert response.json()["error"]["code"] == "token_invalid"
