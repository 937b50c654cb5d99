"""The account flow against a real uvicorn server on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
import uvicorn

from app.config import Settings
from app.main import create_app
from tests.conftest import PASSWORD, Mailbox, assert_ledger_reconciles, free_port, token_of


@pytest.fixture
async def server_url(settings: Settings) -> AsyncIterator[str]:
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
    await assert_ledger_reconciles(settings.database_url)


async def test_sign_up_verify_log_in_and_read_me_over_real_http(
    server_url: str, mailbox: Mailbox
) -> None:
    async with httpx.AsyncClient(base_url=server_url) as web:
        signup = await web.post("/auth/signup", json={
            "email": "wire@example.com", "password": PASSWORD, "display_name": "wire"})
        assert signup.status_code == 202
        link = token_of(await mailbox.wait_for("wire@example.com", "confirm"))
        assert (await web.post("/auth/verify-email", json={"token": link})).status_code == 200

        login = await web.post("/auth/login", json={
            "email": "wire@example.com", "password": PASSWORD})
        assert login.status_code == 200
        assert "holdem_session" in web.cookies
        me = await web.get("/users/me")
        assert me.status_code == 200 and me.json()["email_verified"] is True
        csrf = login.json()["csrf_token"]
        logout = await web.post("/auth/logout", headers={"X-CSRF-Token": csrf})
        assert logout.status_code == 204
        docs = await web.get("/openapi.json")
        assert docs.json()["paths"]["/auth/signup"]["post"]["summary"]


IMPERSONATIONS = ["Alıce", "Alïce", "ɑlice", "Ꭺlice", "Aliᴄe"]


async def test_names_that_impersonate_another_are_taken_over_real_http(
    server_url: str, mailbox: Mailbox
) -> None:
    async with httpx.AsyncClient(base_url=server_url) as web:
        first = await web.post("/auth/signup", json={
            "email": "alice@example.com", "password": PASSWORD, "display_name": "Alice"})
        assert first.status_code == 202
        for number, name in enumerate(IMPERSONATIONS):
            response = await web.post("/auth/signup", json={
                "email": f"fake{number}@example.com", "password": PASSWORD,
                "display_name": name})
            assert response.status_code == 409, (name, response.text)
            assert response.json()["error"]["code"] == "display_name_taken"


async def test_two_look_alike_names_claimed_at_once_go_to_one_account(
    server_url: str, mailbox: Mailbox
) -> None:
    async with httpx.AsyncClient(base_url=server_url) as web:
        answers = await asyncio.gather(*(web.post("/auth/signup", json={
            "email": f"racer{number}@example.com", "password": PASSWORD,
            "display_name": name}) for number, name in enumerate(IMPERSONATIONS)))
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [202] + [409] * (len(IMPERSONATIONS) - 1), [a.text for a in answers]
