"""Sign-up: normalised unique e-mail, unique display name, password policy, starting credits,
verification mail."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.conftest import PASSWORD, Accounts, Mailbox, link_of


async def test_signup_creates_an_account_with_starting_credits_and_mails_a_link(
    client: httpx.AsyncClient, mailbox: Mailbox, accounts: Accounts
) -> None:
    response = await client.post("/auth/signup", json={
        "email": "  Alice.Smith@Example.COM ", "password": PASSWORD, "display_name": "Alice"})
    assert response.status_code == 202, response.text
    assert response.json()["email"] == "alice.smith@example.com"

    message = await mailbox.wait_for("alice.smith@example.com", "confirm your e-mail")
    assert message.get_body(preferencelist=("html",)) is not None
    assert link_of(message).startswith("http://testserver/auth/verify-email?token=")
    login = await client.post("/auth/login", json={
        "email": "alice.smith@example.com", "password": PASSWORD})
    user = login.json()["user"]
    assert user["display_name"] == "Alice" and user["balance"] == 10_000
    assert user["email_verified"] is False and user["role"] == "player"


async def test_the_starting_credits_are_a_ledger_entry(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    ledger = (await client.get("/users/me/ledger", headers=player.headers)).json()
    assert ledger["count"] == 1
    assert ledger["items"][0]["reason"] == "signup_grant"
    assert ledger["items"][0]["amount"] == ledger["items"][0]["balance_after"] == 10_000


async def test_signing_up_a_known_address_answers_the_same_and_tells_its_owner(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    new = await client.post("/auth/signup", json={
        "email": "new@example.com", "password": PASSWORD, "display_name": "newcomer"})
    bob = await accounts.player(logged_in=False)
    known = await client.post("/auth/signup", json={
        "email": bob.email.upper(), "password": "another passphrase", "display_name": "bob_2"})
    assert known.status_code == new.status_code == 202
    assert set(known.json()) == set(new.json())
    assert known.json() == {**new.json(), "email": bob.email,
                            "message": new.json()["message"].replace("new@example.com",
                                                                     bob.email)}
    notice = await mailbox.wait_for(bob.email, "someone tried to sign up")
    assert "/auth/forgot-password" in notice.get_body(preferencelist=("plain",)).get_content()
    assert mailbox.to(bob.email) == []  # no verification link for the known address
    await mailbox.wait_for("new@example.com", "confirm your e-mail")
    assert (await accounts.login(bob)).status_code == 200
    impostor = await client.post("/auth/login", json={
        "email": bob.email, "password": "another passphrase"})
    assert impostor.status_code == 401
    search = await client.post("/auth/login", json={"email": bob.email, "password": PASSWORD})
    assert search.json()["user"]["display_name"] == bob.display_name


async def test_a_display_name_is_unique_whatever_its_case(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    await accounts.signup(display_name="RiverRat")
    response = await client.post("/auth/signup", json={
        "email": "other@example.com", "password": PASSWORD, "display_name": "riverrat"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "display_name_taken"


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1!", "at least 10 characters"),
        ("1234567890", "common"),
        ("Password123", "common"),
        ("carol@example.com", "e-mail"),
        ("CAROL@EXAMPLE.COM", "e-mail"),
        ("aaaaaaaaaaaa", "common"),
    ],
)
async def test_weak_passwords_are_refused_with_the_reason(
    client: httpx.AsyncClient, password: str, reason: str
) -> None:
    response = await client.post("/auth/signup", json={
        "email": "carol@example.com", "password": password, "display_name": "carol"})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "weak_password"
    assert any(reason in text for text in error["reasons"]), error


@pytest.mark.parametrize(
    "payload",
    [
        {"email": "not-an-email", "password": PASSWORD, "display_name": "dave"},
        {"email": "dave@example.com", "password": PASSWORD, "display_name": "da"},
        {"email": "dave@example.com", "password": PASSWORD, "display_name": "x" * 21},
        {"email": "dave@example.com", "password": PASSWORD, "display_name": "bad<name>"},
        {"email": "dave@example.com", "password": PASSWORD},
        {"email": "dave@example.com", "password": PASSWORD, "display_name": "dave", "role":
         "admin"},
    ],
    ids=["email", "name-short", "name-long", "name-chars", "missing", "extra-field"],
)
async def test_invalid_payloads_get_a_typed_error_and_create_nothing(
    client: httpx.AsyncClient, payload: dict[str, str]
) -> None:
    response = await client.post("/auth/signup", json=payload)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_payload"
    assert error["message"] and error["problems"]
    login = await client.post("/auth/login", json={
        "email": "dave@example.com", "password": PASSWORD})
    assert login.status_code == 401


async def test_a_sign_up_from_an_invite_mails_a_link_that_leads_back_to_the_table(
    client: httpx.AsyncClient, mailbox: Mailbox, accounts: Accounts
) -> None:
    table = "/table/3f9a1c2b7d4e?invite=Zx_9-a"
    response = await client.post("/auth/signup", json={
        "email": "guest@example.com", "password": PASSWORD, "display_name": "Guest",
        "next": table})
    assert response.status_code == 202, response.text
    link = link_of(await mailbox.wait_for("guest@example.com", "confirm your e-mail"))
    query = parse_qs(urlsplit(link).query)
    assert query["next"] == [table] and len(query["token"]) == 1
    verified = await client.post("/auth/verify-email", json={"token": query["token"][0]})
    assert verified.status_code == 200, verified.text


@pytest.mark.parametrize("elsewhere", [
    "https://evil.example/", "//evil.example/table", "/\\\\evil.example", "table/abc",
    "/table/abc def", "/" + "a" * 300, "",
])
async def test_a_sign_up_that_would_lead_to_another_site_is_refused_and_makes_nothing(
    client: httpx.AsyncClient, mailbox: Mailbox, elsewhere: str
) -> None:
    response = await client.post("/auth/signup", json={
        "email": "guest@example.com", "password": PASSWORD, "display_name": "Guest",
        "next": elsewhere})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "invalid_payload"
    login = await client.post("/auth/login", json={"email": "guest@example.com",
                                                   "password": PASSWORD})
    assert login.status_code == 401
