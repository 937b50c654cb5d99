"""The signed-in player's own account: profile, password change, e-mail change."""

from __future__ import annotations

import httpx

from tests.conftest import Accounts, Mailbox, token_of

NEW_PASSWORD = "another long passphrase"


async def test_me_shows_the_account(client: httpx.AsyncClient, accounts: Accounts) -> None:
    player = await accounts.player()
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["email"] == player.email
    assert me["email_verified"] is True
    assert me["avatar_url"] == f"http://testserver/users/{player.public_id}/avatar"
    assert me["balance"] == 10_000


async def test_the_display_name_can_change(client: httpx.AsyncClient, accounts: Accounts) -> None:
    player = await accounts.player()
    response = await client.patch("/users/me", json={"display_name": "Nut Peddler"},
                                  headers=player.headers)
    assert response.status_code == 200
    assert response.json()["display_name"] == "Nut Peddler"
    # Changing only the case of one's own name is fine.
    same = await client.patch("/users/me", json={"display_name": "nut peddler"},
                              headers=player.headers)
    assert same.status_code == 200


async def test_a_display_name_in_use_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    first, second = await accounts.player(), await accounts.player()
    response = await client.patch("/users/me", json={"display_name": first.display_name.upper()},
                                  headers=second.headers)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "display_name_taken"


async def test_changing_the_password_ends_other_sessions_and_notifies(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    old_headers = player.headers
    response = await client.post("/users/me/password", headers=player.headers, json={
        "current_password": player.password, "new_password": NEW_PASSWORD})
    assert response.status_code == 200, response.text
    new_token = response.json()["access_token"]
    assert (await client.get("/users/me", headers=old_headers)).status_code == 401
    fresh = await client.get("/users/me", headers={"Authorization": f"Bearer {new_token}"})
    assert fresh.status_code == 200
    await mailbox.wait_for(player.email, "password was changed")
    assert (await accounts.login(player, password=NEW_PASSWORD)).status_code == 200


async def test_changing_the_password_needs_the_current_one(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.post("/users/me/password", headers=player.headers, json={
        "current_password": "not my password", "new_password": NEW_PASSWORD})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "wrong_password"
    assert (await client.get("/users/me", headers=player.headers)).status_code == 200


async def test_a_weak_new_password_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.post("/users/me/password", headers=player.headers, json={
        "current_password": player.password, "new_password": player.email})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "weak_password"


async def test_an_email_change_applies_only_when_the_new_address_confirms(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    response = await client.post("/users/me/email", headers=player.headers, json={
        "current_password": player.password, "new_email": "New.Home@Example.com"})
    assert response.status_code == 202, response.text

    notice = await mailbox.wait_for(player.email, "being changed")
    assert "new.home@example.com" not in notice.as_string()  # masked for the old inbox
    confirm = await mailbox.wait_for("new.home@example.com", "confirm your new e-mail")
    assert (await client.get("/users/me", headers=player.headers)).json()["email"] == player.email

    applied = await client.post("/auth/verify-email", json={"token": token_of(confirm)})
    assert applied.status_code == 200, applied.text
    assert applied.json()["email"] == "new.home@example.com"
    assert (await accounts.login(player)).status_code == 401
    player.email = "new.home@example.com"
    assert (await accounts.login(player)).status_code == 200


async def test_an_email_change_needs_the_password_and_a_free_address(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player, other = await accounts.player(), await accounts.player()
    wrong = await client.post("/users/me/email", headers=player.headers, json={
        "current_password": "not my password", "new_email": "free@example.com"})
    assert wrong.status_code == 403
    taken = await client.post("/users/me/email", headers=player.headers, json={
        "current_password": player.password, "new_email": other.email.upper()})
    assert taken.status_code == 409
    assert taken.json()["error"]["code"] == "email_taken"


async def test_an_email_change_link_fails_if_the_address_was_taken_meanwhile(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    await client.post("/users/me/email", headers=player.headers, json={
        "current_password": player.password, "new_email": "contested@example.com"})
    confirm = await mailbox.wait_for("contested@example.com", "confirm your new")
    await accounts.signup(email="contested@example.com")
    response = await client.post("/auth/verify-email", json={"token": token_of(confirm)})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "email_taken"
