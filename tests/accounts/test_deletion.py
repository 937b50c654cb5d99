"""Deleting an account: cash out first, erase personal data, keep an anonymous row."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from app.accounts.hooks import AccountHooks
from app.db import ledger
from app.db.models import Avatar, LedgerEntry, LedgerReason, User, UserStatus
from tests.conftest import Accounts, Mailbox


async def test_deleting_erases_personal_data_and_says_goodbye(
    client: httpx.AsyncClient, accounts: Accounts, mailbox: Mailbox
) -> None:
    player = await accounts.player()
    response = await client.request("DELETE", "/users/me", headers=player.headers,
                                     json={"password": player.password})
    assert response.status_code == 204, response.text
    await mailbox.wait_for(player.email, "account was deleted")

    async with accounts.database.sessions() as session:
        user = await session.get(User, player.id)
        assert user is not None
        assert user.status is UserStatus.DELETED
        assert user.public_id == player.public_id
        assert (user.email, user.display_name, user.password_hash) == (None, None, None)
        assert user.balance == 0
        closing = (await session.scalars(
            select(LedgerEntry).where(LedgerEntry.user_id == player.id)
            .order_by(LedgerEntry.id.desc())
        )).first()
        assert closing is not None and closing.reason is LedgerReason.ACCOUNT_CLOSED
        assert await session.get(Avatar, player.id) is None
        assert (await ledger.audit(session)).balanced

    assert (await client.get("/users/me", headers=player.headers)).status_code == 401
    assert (await accounts.login(player)).status_code == 401


async def test_a_deleted_players_address_and_name_can_be_used_again(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    await client.request("DELETE", "/users/me", headers=player.headers,
                         json={"password": player.password})
    again = await accounts.signup(email=player.email, display_name=player.display_name)
    assert again.id != player.id


async def test_deleting_needs_the_password(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    response = await client.request("DELETE", "/users/me", headers=player.headers,
                                    json={"password": "not my password"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "wrong_password"
    assert (await client.get("/users/me", headers=player.headers)).status_code == 200


async def test_the_player_is_cashed_out_of_tables_before_being_erased(
    client: httpx.AsyncClient, accounts: Accounts, app: FastAPI
) -> None:
    player = await accounts.player()
    async with accounts.database.sessions() as session:
        await ledger.escrow(session, player.id, "table-9", 4_000)
        await session.commit()
    cashed_out: list[int] = []

    async def cash_out(user_id: int) -> None:
        async with accounts.database.sessions() as session:
            await ledger.release(session, user_id, "table-9", 4_500 - 500)
            await session.commit()
        cashed_out.append(user_id)

    hooks: AccountHooks = app.state.account_hooks
    hooks.before_delete.append(cash_out)
    response = await client.request("DELETE", "/users/me", headers=player.headers,
                                    json={"password": player.password})
    assert response.status_code == 204
    assert cashed_out == [player.id]
    async with accounts.database.sessions() as session:
        state = await ledger.audit(session)
        reasons = list(await session.scalars(
            select(LedgerEntry.reason).where(LedgerEntry.user_id == player.id)
            .order_by(LedgerEntry.id)))
    assert state.balanced and state.escrowed == 0
    assert reasons == [LedgerReason.SIGNUP_GRANT, LedgerReason.TABLE_BUY_IN,
                       LedgerReason.TABLE_CASH_OUT, LedgerReason.ACCOUNT_CLOSED]


async def test_a_failing_cash_out_leaves_the_account_untouched(
    client: httpx.AsyncClient, accounts: Accounts, app: FastAPI
) -> None:
    player = await accounts.player()

    async def table_unreachable(user_id: int) -> None:
        raise RuntimeError("table actor did not answer")

    app.state.account_hooks.before_delete.append(table_unreachable)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
        response = await web.request("DELETE", "/users/me", headers=player.headers,
                                     json={"password": player.password})
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "internal_error"
    assert (await client.get("/users/me", headers=player.headers)).status_code == 200
