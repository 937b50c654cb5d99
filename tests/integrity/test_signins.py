"""Sign-in records: made on sign-up and login with the device cookie's digest only,
linking accounts, pruned after SIGN_IN_RECORD_DAYS, deleted with the account; the admin
routes' validation."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import httpx
from sqlalchemy import select, update

from app.db.integrity import SignInKind, SignInRecord
from app.db.models import utcnow
from app.integrity import signins
from app.integrity.signins import DEVICE_COOKIE
from tests.conftest import PASSWORD, Accounts


async def _records(accounts: Accounts, user_id: int) -> list[SignInRecord]:
    async with accounts.database.sessions() as session:
        return list(await session.scalars(select(SignInRecord).where(
            SignInRecord.user_id == user_id).order_by(SignInRecord.id)))


async def test_sign_up_and_login_are_recorded_with_the_device_cookies_digest(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.signup()
    cookie = client.cookies.get(DEVICE_COOKIE)
    assert cookie is not None and len(cookie) == 43
    await accounts.verify(player)
    response = await client.post("/auth/login", json={"email": player.email,
                                                      "password": PASSWORD},
                                 headers={"User-Agent": "Firefox " + "x" * 300})
    assert response.status_code == 200
    assert DEVICE_COOKIE not in response.cookies  # the browser already has one
    records = await _records(accounts, player.id)
    assert [r.kind for r in records] == [SignInKind.SIGNUP, SignInKind.LOGIN]
    assert {r.device for r in records} == {hashlib.sha256(cookie.encode()).hexdigest()}
    assert records[1].user_agent.startswith("Firefox ") and len(records[1].user_agent) == 200
    assert records[0].address == "127.0.0.1"
    assert all(cookie not in (r.device, r.user_agent) for r in records)


async def test_a_forged_device_cookie_is_replaced_and_a_failed_login_records_nothing(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(logged_in=False)
    before = len(await _records(accounts, player.id))
    client.cookies.set(DEVICE_COOKIE, "not-a-device-cookie")
    wrong = await client.post("/auth/login", json={"email": player.email, "password": "nope"})
    assert wrong.status_code == 401
    assert len(await _records(accounts, player.id)) == before
    client.cookies.clear()
    client.cookies.set(DEVICE_COOKIE, "bad value")
    response = await accounts.login(player)
    assert response.status_code == 200
    fresh = response.cookies.get(DEVICE_COOKIE) or ""
    assert len(fresh) == 43
    latest = (await _records(accounts, player.id))[-1]
    assert latest.device == hashlib.sha256(fresh.encode()).hexdigest()


async def test_records_link_accounts_are_pruned_and_go_with_a_deleted_account(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    one, two = await accounts.player(), await accounts.player()
    assert (await client.get(f"/admin/users/{one.id}/linked",
                             headers=admin.headers)).json()["count"] == 0
    async with accounts.database.sessions() as session:
        for user_id in (one.id, two.id):
            signins.Seen("203.0.113.9", "d" * 64, "ua").record(session, user_id,
                                                                SignInKind.LOGIN)
        await session.commit()
    linked = (await client.get(f"/admin/users/{one.id}/linked", headers=admin.headers)).json()
    assert sorted((i["user"]["id"], i["by"]) for i in linked["items"]) == \
        [(two.id, "address"), (two.id, "device")]
    assert linked["days"] == 90

    await accounts.execute(update(SignInRecord).where(SignInRecord.user_id == two.id)
                           .values(created_at=utcnow() - timedelta(days=91)))
    async with accounts.database.sessions() as session:
        pruned = await signins.prune(session, days=90, now=utcnow())
        await session.commit()
    assert pruned >= 1
    assert await _records(accounts, two.id) == []
    assert await _records(accounts, one.id) != []

    deleted = await client.request("DELETE", "/users/me", json={"password": PASSWORD},
                                   headers=one.headers)
    assert deleted.status_code == 204, deleted.text
    assert await _records(accounts, one.id) == []


async def test_integrity_routes_refuse_bad_input(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    bad = [
        ("GET", "/admin/integrity/chip-flow?days=0", None),
        ("GET", "/admin/integrity/chip-flow?days=366", None),
        ("GET", "/admin/integrity/chip-flow?user_id=abc", None),
        ("GET", "/admin/integrity/flags?kind=cheating", None),
        ("GET", "/admin/integrity/flags?status=closed", None),
        ("POST", "/admin/integrity/flags/0/dismiss", None),
        ("POST", "/admin/integrity/flags/1/action", {}),
        ("POST", "/admin/integrity/flags/1/action", {"ban": True}),
        ("POST", "/admin/integrity/flags/1/action", {"claw_back": True, "amount": 0}),
        ("POST", "/admin/integrity/flags/1/action", {"claw_back": "yes"}),
        ("POST", "/admin/integrity/flags/1/action", {"claw_back": True, "to": "me"}),
        ("POST", "/admin/integrity/flags/1/action", {"claw_back": True,
                                                     "claw_back_to": "friend"}),
        ("GET", "/admin/users/0/linked", None),
    ]
    for method, path, body in bad:
        response = await client.request(method, path, json=body, headers=admin.headers)
        assert response.status_code == 422, (path, body, response.text)
        assert response.json()["error"]["code"] == "invalid_payload"
    missing = await client.post("/admin/integrity/flags/99/dismiss", headers=admin.headers)
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "flag_not_found"
    nobody = await client.get("/admin/users/999/linked", headers=admin.headers)
    assert nobody.status_code == 404
    empty = (await client.post("/admin/integrity/scan", headers=admin.headers)).json()
    assert empty == {"raised": 0, "items": []}
    assert (await client.get("/admin/integrity/flags", headers=admin.headers)).json()[
        "count"] == 0
