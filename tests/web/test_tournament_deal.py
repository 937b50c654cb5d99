"""An ICM deal in real browsers: two people at a heads-up sit & go agree to split the
prizes on the tournament page before the first hand, and each is paid their share; with
a bot still in, the page says why no deal can be made."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator

import pytest
import uvicorn
from playwright.async_api import expect
from sqlalchemy import update

from app.config import Settings
from app.db.engine import Database
from app.db.models import Role, User
from app.main import create_app
from tests.conftest import Mailbox, assert_ledger_reconciles, free_port
from tests.web.conftest import LiveServer, Tab, Visitors, signed_in

STRUCTURE = {"starting_stack": 300, "late_levels": 0, "periods": [
    {"kind": "level", "small_blind": 10, "big_blind": 20, "minutes": 1}]}


@pytest.fixture
def live_server(settings: Settings) -> Iterator[LiveServer]:
    """The application with ten seconds between hands: a deal is agreed between hands,
    and this leaves the people time to open the page and agree before the first one."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    settings = dataclasses.replace(
        settings, public_url=base_url, action_seconds=30, hand_start_delay_seconds=10,
        showdown_seconds=3, bot_delay_seconds=0.05)
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    live = LiveServer(settings, base_url, uvicorn.Server(config))
    live.start()
    try:
        yield live
    finally:
        live.stop()
    asyncio.run(assert_ledger_reconciles(settings.database_url))


async def _sit_and_go(admin: Tab, database: Database, name: str, bots: int) -> str:
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == "Olga")
                              .values(role=Role.ADMIN))
        await session.commit()
    csrf = next(c["value"] for c in await admin.page.context.cookies()
                if c["name"] == "holdem_csrf")
    created = await admin.page.context.request.post("/admin/tournaments", headers={
        "X-CSRF-Token": csrf}, data={"name": name, "kind": "sit_and_go", "table_size": 2,
                                     "buy_in": 100, "fee": 0, "structure": STRUCTURE,
                                     "bots": bots})
    assert created.status == 201, await created.text()
    return str((await created.json())["id"])


async def test_two_players_agree_to_an_icm_deal_and_are_each_paid_the_offer(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, piet, quinn = await visitors.new(), await visitors.new(), await visitors.new()
    for tab, name in ((admin, "Olga"), (piet, "Piet"), (quinn, "Quinn")):
        await signed_in(tab, mailbox, name)
    tid = await _sit_and_go(admin, database, "Deal heads-up", bots=0)

    for tab in (piet, quinn):
        await tab.page.goto(f"/tournament/{tid}")
        await tab.page.get_by_role("button", name="Register").click()
        await expect(tab.page.locator(".form-status")).to_contain_text("Registered")
    await piet.page.get_by_role("button", name="Agree to an ICM deal").click()
    await expect(piet.page.locator("#t-deal-offer")).to_contain_text("1 of 2 players agree")
    asked = quinn.page.locator("#t-deal-offer")
    await expect(asked).to_contain_text("ICM deal offered")
    await quinn.page.get_by_role("button", name="Agree to an ICM deal").click()
    await expect(asked).to_contain_text("Deal done")

    for tab, name in ((piet, "Piet"), (quinn, "Quinn")):
        offer = tab.page.locator("#t-deal-offer")
        match = re.search(rf"{name} ([\d,]*\d)", await offer.inner_text())
        assert match
        await expect(tab.page.locator("#t-message")).to_contain_text(
            f"won {match.group(1)} credits")
        await tab.page.goto("/account")
        await expect(tab.page.locator("#ledger tbody tr", has_text="Tournament prize")
                     ).to_contain_text(f"+{match.group(1)}")


async def test_no_deal_with_a_bot_still_in_and_the_page_says_why(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, piet = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Olga")
    await signed_in(piet, mailbox, "Piet")
    tid = await _sit_and_go(admin, database, "Deal with a bot", bots=1)

    page = piet.page
    await page.goto(f"/tournament/{tid}")
    await page.get_by_role("button", name="Register").click()
    await page.get_by_role("button", name="Agree to an ICM deal").click()

    await expect(page.locator(".form-status")).to_contain_text("bots never agree")
    await expect(page.locator("#t-deal-offer")).to_be_hidden()
