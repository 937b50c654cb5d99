"""``holdem create-admin``: creates a verified admin or promotes an existing account."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app import cli
from app.admin.bootstrap import create_admin
from app.config import Settings, get_settings
from tests.conftest import PASSWORD, Accounts


async def test_create_admin_creates_a_verified_admin_who_can_log_in(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    done = await create_admin(settings, "Boss@Example.com", PASSWORD)
    assert done.created and done.email == "boss@example.com"
    login = await client.post("/auth/login", json={"email": "boss@example.com",
                                                   "password": PASSWORD})
    assert login.status_code == 200
    user = login.json()["user"]
    assert user["role"] == "admin" and user["email_verified"] is True
    assert user["balance"] == settings.starting_credits


async def test_create_admin_promotes_an_existing_player_keeping_the_password(
    client: httpx.AsyncClient, accounts: Accounts, settings: Settings
) -> None:
    player = await accounts.player()
    done = await create_admin(settings, player.email, None)
    assert not done.created
    me = await client.get("/users/me", headers=player.headers)
    assert me.json()["role"] == "admin"
    log = await client.get("/admin/audit-log", headers=player.headers)
    assert log.json()["items"][0]["action"] == "promote_admin"


async def test_create_admin_refuses_a_weak_password(settings: Settings) -> None:
    with pytest.raises(Exception, match="password"):
        await create_admin(settings, "weak@example.com", "short")


async def test_the_cli_command_creates_an_admin(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("ARGON2_MEMORY_KIB", "64")
    monkeypatch.setenv("ARGON2_TIME_COST", "1")
    monkeypatch.setenv("ARGON2_PARALLELISM", "1")
    get_settings.cache_clear()
    try:
        code = await asyncio.to_thread(
            cli.main, ["create-admin", "cli@example.com", "--password", PASSWORD])
        assert code == 0
        assert "cli@example.com is an admin (new account)" in capsys.readouterr().out
        again = await asyncio.to_thread(cli.main, ["create-admin", "cli@example.com",
                                                   "--no-prompt"])
        assert again == 0
        assert "promoted" in capsys.readouterr().out
        bad = await asyncio.to_thread(cli.main, ["create-admin", "new@example.com",
                                                 "--no-prompt"])
        assert bad == 2
    finally:
        get_settings.cache_clear()
