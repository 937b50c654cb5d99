"""The signed-in player's own account: profile, password change, e-mail change."""

from __future__ import annotations

import httpx
import pytest

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


async def test_a_browser_changing_its_password_stays_logged_in_with_new_cookies(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(logged_in=False)
    await accounts.login(player)
    other_device = player.headers
    old_session = client.cookies["holdem_session"]
    response = await client.post("/users/me/password", headers={
        "X-CSRF-Token": client.cookies["holdem_csrf"]}, json={
        "current_password": player.password, "new_password": NEW_PASSWORD})
    assert response.status_code == 200, response.text
    assert client.cookies["holdem_session"] not in (old_session, "")
    assert client.cookies["holdem_csrf"] == response.json()["csrf_token"]
    assert (await client.get("/users/me")).status_code == 200
    assert (await client.patch("/users/me", json={"display_name": "Renamed"}, headers={
        "X-CSRF-Token": client.cookies["holdem_csrf"]})).status_code == 200
    assert (await client.get("/users/me", headers=other_device)).status_code == 401


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


@pytest.mark.parametrize("lookalike", ["Аlice", "ＡＬＩＣＥ", "ALlCE", "Alicé"],
                         ids=["cyrillic-a", "full-width", "l-for-i", "accent"])
async def test_a_name_that_looks_like_another_players_is_taken(
    client: httpx.AsyncClient, accounts: Accounts, lookalike: str
) -> None:
    await accounts.signup(display_name="Alice")
    player = await accounts.player()
    response = await client.patch("/users/me", json={"display_name": lookalike},
                                  headers=player.headers)
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "display_name_taken"


async def test_a_full_width_name_is_stored_in_its_normal_form(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.patch("/users/me", json={"display_name": "ＲｉｖｅｒＲａｔ"},
                                  headers=player.headers)
    assert response.status_code == 200, response.text
    assert response.json()["display_name"] == "RiverRat"


@pytest.mark.parametrize("name", ["Bob\u202e", "Bo\0b", "Bob\u200b", "   "])
async def test_names_with_control_or_format_characters_are_refused(
    client: httpx.AsyncClient, accounts: Accounts, name: str
) -> None:
    player = await accounts.player()
    response = await client.patch("/users/me", json={"display_name": name},
                                  headers=player.headers)
    assert response.status_code == 422, response.text
