"""A player's settings are kept on the account: every device reads them from it."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import select

from app.db.models import User
from tests.conftest import Accounts

DEFAULTS = {"four_color_deck": True, "sounds": True, "turn_alerts": False, "hud": False,
            "auto_muck": True, "auto_top_up": False}


async def test_settings_start_at_their_defaults_and_keep_what_changed(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["settings"] == DEFAULTS
    changed = await client.patch("/users/me/settings", headers=player.headers,
                                 json={"four_color_deck": False, "auto_top_up": True})
    assert changed.status_code == 200
    assert changed.json() == DEFAULTS | {"four_color_deck": False, "auto_top_up": True}
    again = await client.patch("/users/me/settings", headers=player.headers,
                               json={"hud": True, "auto_top_up": False})
    assert again.json() == DEFAULTS | {"four_color_deck": False, "hud": True}
    # Another session of the same account (another device) reads them from the account.
    first = player.headers
    await accounts.login(player)
    assert player.headers != first
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["settings"] == DEFAULTS | {"four_color_deck": False, "hud": True}


async def test_only_what_differs_from_the_defaults_is_stored(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    await client.patch("/users/me/settings", headers=player.headers,
                       json={"sounds": False, "hud": False})
    async with accounts.database.sessions() as session:
        stored = await session.scalar(select(User.settings).where(User.id == player.id))
    assert stored == {"sounds": False}


@pytest.mark.parametrize("body", [
    {"sounds": "false"}, {"sounds": 0}, {"sounds": None}, {"colour": True}, [], "on",
])
async def test_a_wrong_setting_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, accounts: Accounts, body: object
) -> None:
    player = await accounts.player()
    response = await client.patch("/users/me/settings", headers=player.headers, json=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_payload"
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["settings"] == DEFAULTS


async def test_settings_need_a_session(client: httpx.AsyncClient) -> None:
    response = await client.patch("/users/me/settings", json={"sounds": False})
    assert response.status_code == 401


async def test_changes_sent_at_once_all_land(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    # Two boxes ticked quickly, or two devices: each request carries only its own change,
    # and none may be lost to another read before it was written.
    player = await accounts.player()
    flipped = {name: not value for name, value in DEFAULTS.items()}
    answers = await asyncio.gather(*(
        client.patch("/users/me/settings", headers=player.headers, json={name: value})
        for name, value in flipped.items()))
    assert [answer.status_code for answer in answers] == [200] * len(flipped)
    me = (await client.get("/users/me", headers=player.headers)).json()
    assert me["settings"] == flipped
