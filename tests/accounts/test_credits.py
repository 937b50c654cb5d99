"""Credit history paging and the daily free credits with their cooldown."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx

from app.db.models import utcnow
from tests.conftest import Accounts


async def test_the_daily_credits_are_granted_once_per_cooldown(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    first = await client.post("/users/me/daily-credits", headers=player.headers)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["balance"] == 11_000
    assert body["entry"]["reason"] == "daily_credits" and body["entry"]["amount"] == 1_000

    again = await client.post("/users/me/daily-credits", headers=player.headers)
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "daily_credits_not_ready"
    assert error["available_at"][:16] == body["next_available_at"][:16]
    assert 86_000 < error["retry_after"] <= 86_400

    await accounts.set(player.id, last_daily_credits_at=utcnow() - timedelta(days=1, seconds=1))
    later = await client.post("/users/me/daily-credits", headers=player.headers)
    assert later.status_code == 200
    assert later.json()["balance"] == 12_000


async def test_concurrent_claims_grant_the_daily_credits_once(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    responses = await asyncio.gather(*(
        client.post("/users/me/daily-credits", headers=player.headers) for _ in range(5)))
    assert sorted(r.status_code for r in responses) == [200, 409, 409, 409, 409]
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["balance"] == 11_000


async def test_daily_credits_need_a_verified_address(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player(verified=False)
    response = await client.post("/users/me/daily-credits", headers=player.headers)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "email_not_verified"


async def test_the_ledger_is_paged_newest_first(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    for _ in range(3):
        await accounts.set(player.id, last_daily_credits_at=None)
        assert (await client.post("/users/me/daily-credits", headers=player.headers)).is_success
    page = (await client.get("/users/me/ledger?page=1&per_page=2", headers=player.headers)).json()
    assert page["count"] == 4 and page["page"] == 1 and page["per_page"] == 2
    assert [item["balance_after"] for item in page["items"]] == [13_000, 12_000]
    last = (await client.get("/users/me/ledger?page=2&per_page=2", headers=player.headers)).json()
    assert [item["reason"] for item in last["items"]] == ["daily_credits", "signup_grant"]
    bad = await client.get("/users/me/ledger?per_page=1000", headers=player.headers)
    assert bad.status_code == 422
